"""`geodeck fetch --refresh` against mocked upstreams (the `responses` library, and one local HTTP server for
Retry-After): a changed upstream file gives a new pin and a diff of what changes; every failure (timeout,
5xx, 429, truncated body, wrong content type, redirect loop, hash mismatch, invalid file) leaves sources/,
the store and the decks byte-identical."""

import hashlib
import os
import shutil
import signal
import tempfile
import threading
import time
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
import requests
import responses

from pipeline import paths
from pipeline.errors import GeodeckError, SnapshotError
from pipeline.extract import SourceFile, http, load_sources, open_store
from pipeline.extract import refresh as refreshing
from pipeline.extract.store import SnapshotStore
from pipeline.games import registry as games
from pipeline.transform.refreshed import changes as parsed_changes

SOURCE = "worldbank-population"
REPO = "datasets/population"
OLD = "425fc447a53a26c767a15a7de60c4cc2478a0595"
NEW = "b" * 40
API = f"https://api.github.com/repos/{REPO}/commits/HEAD"
RAW = f"https://raw.githubusercontent.com/{REPO}/{NEW}"
TODAY = date(2027, 1, 15)


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under `root` with its sha256 (the byte-identity check)."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith(".http-cache")
    }


@pytest.fixture
def world(tmp_path, mirror):
    """A copy of sources/ and a store filled from the mirror with the source's pinned files."""
    sources = tmp_path / "sources"
    shutil.copytree(paths.SOURCES_DIR, sources)
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    for entry in load_sources(sources)[SOURCE].files:
        store.resolve(entry)
    return sources, store


def session():
    return http.session(None, http.HostRateLimit(0))


def changed_population(mirror) -> bytes:
    """The pinned CSV with Germany's 2024 population changed (83,516,593 -> 84,000,000)."""
    text = (mirror / SOURCE / "population.csv").read_bytes()
    assert text.count(b"Germany,DEU,2024,83516593") == 1
    return text.replace(b"Germany,DEU,2024,83516593", b"Germany,DEU,2024,84000000")


def upstream(mirror, population: bytes | None = None, **population_options) -> None:
    """Register the GitHub API and the raw files at the new commit."""
    responses.add(
        responses.GET,
        API,
        json={"sha": NEW, "commit": {"committer": {"date": "2027-01-10T12:00:00Z"}}},
    )
    responses.add(responses.GET, f"{RAW}/datapackage.json", body=(mirror / SOURCE / "datapackage.json").read_bytes())
    options = {"body": changed_population(mirror) if population is None else population, **population_options}
    responses.add(responses.GET, f"{RAW}/data/population.csv", **options)


def run_refresh(world):
    sources, store = world
    chosen = refreshing.refreshable([load_sources(sources)[SOURCE]], named=True)
    return refreshing.refresh(chosen, store, sources, TODAY, session(), parsed_changes)


@responses.activate
def test_changed_upstream_gives_a_new_pin_and_a_diff(world, mirror):
    sources, store = world
    upstream(mirror)
    [result] = run_refresh(world)
    assert result.changed
    new = load_sources(sources)[SOURCE]
    csv = new.file("population.csv")
    data = changed_population(mirror)
    assert (csv.sha256, csv.bytes, csv.url) == (
        hashlib.sha256(data).hexdigest(),
        len(data),
        f"{RAW}/data/population.csv",
    )
    assert new.vintage == f"{REPO} at {NEW[:12]}, committed 2027-01-10"
    assert new.date_accessed == "2027-01-15"
    assert new.file("datapackage.json").sha256 == load_sources()[SOURCE].file("datapackage.json").sha256
    assert store.read(csv) == data  # the new bytes are in the store, so an offline build can use them
    assert "worldbank: code=DEU: population 83516593 → 84000000" in result.changes
    assert "worldbank: 1 values changed" in result.changes
    assert any(line.startswith("population.csv: sha256 7d2dd6a17f5e →") for line in result.changes)
    text = (sources / f"{SOURCE}.toml").read_text()
    assert text.startswith("# Snapshot definition for worldbank-population") and "[refresh]" in text


@responses.activate
def test_unchanged_upstream_writes_nothing(world, mirror):
    sources, store = world
    before = tree_digest(sources), tree_digest(store.root)
    upstream(mirror, population=(mirror / SOURCE / "population.csv").read_bytes())
    [result] = run_refresh(world)
    assert not result.changed
    assert (tree_digest(sources), tree_digest(store.root)) == before


def truncated(mirror):
    data = changed_population(mirror)
    return {"population": data[: len(data) // 3], "headers": {"Content-Length": str(len(data))}}


FAULTS = {
    "timeout": lambda mirror: {"population": b"", "body": requests.exceptions.ReadTimeout("read timed out")},
    "5xx": lambda mirror: {"population": b"", "status": 503},
    "429 without end": lambda mirror: {"population": b"", "status": 429, "headers": {"Retry-After": "0"}},
    "truncated body": truncated,
    "wrong content type": lambda mirror: {
        "population": b"<html><body>Sign in</body></html>",
        "content_type": "text/html",
    },
    "invalid file": lambda mirror: {"population": changed_population(mirror)[:30000]},
    "not a CSV": lambda mirror: {"population": b"\x00\x01garbage" * 100},
}
EXPECTED = {
    "timeout": "timed out",
    "5xx": "HTTP 503",
    "429 without end": "HTTP 429",
    "truncated body": "cannot download",
    "wrong content type": "content type text/html",
    "invalid file": "worldbank-population: ",
    "not a CSV": "worldbank-population",
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
@responses.activate
def test_failed_refresh_changes_nothing(world, mirror, fault, monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    sources, store = world
    before = tree_digest(sources), tree_digest(store.root), tree_digest(paths.DECKS_DIR)
    options = FAULTS[fault](mirror)
    upstream(mirror, **options)
    with pytest.raises(GeodeckError, match=EXPECTED[fault]) as error:
        run_refresh(world)
    assert "\n" not in str(error.value)
    if fault not in ("invalid file", "not a CSV"):
        assert "nothing was changed (a refresh needs the upstream server" in str(error.value)
    assert (tree_digest(sources), tree_digest(store.root), tree_digest(paths.DECKS_DIR)) == before


@responses.activate
def test_redirect_loop_changes_nothing(world, mirror):
    sources, store = world
    before = tree_digest(sources), tree_digest(store.root)
    elsewhere = "https://api.github.com/moved/here"
    responses.add(responses.GET, API, status=302, headers={"Location": elsewhere})
    responses.add(responses.GET, elsewhere, status=302, headers={"Location": API})
    with pytest.raises(SnapshotError, match="redirects"):
        run_refresh(world)
    assert (tree_digest(sources), tree_digest(store.root)) == before


@responses.activate
def test_5xx_is_retried_then_succeeds(world, mirror):
    upstream(mirror, population=b"", status=503)
    responses.add(responses.GET, f"{RAW}/data/population.csv", body=changed_population(mirror))
    [result] = run_refresh(world)
    assert result.changed


@responses.activate
def test_api_answer_without_a_commit_changes_nothing(world):
    responses.add(responses.GET, API, json={"message": "API rate limit exceeded"})
    with pytest.raises(SnapshotError, match="did not name a commit"):
        run_refresh(world)


@responses.activate
def test_pinned_download_with_a_changed_file_is_a_hash_mismatch(tmp_path):
    """The pinned path (plain `geodeck fetch`): a live file that changed upstream is never stored."""
    pinned = b"the pinned bytes\n"
    entry = SourceFile("demo", "file.txt", hashlib.sha256(pinned).hexdigest(), len(pinned), "https://x.test/f")
    responses.add(responses.GET, "https://x.test/f", body=b"changed upstream\n")
    store = open_store(mirror=None, online=True, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match="sha256 mismatch.*nothing was stored"):
        store.read(entry)
    assert tree_digest(tmp_path / "store") == {}


@responses.activate
def test_requests_carry_the_user_agent(tmp_path):
    responses.add(responses.GET, "https://x.test/f", body=b"x")
    http.download(session(), "https://x.test/f", "demo")
    assert responses.calls[0].request.headers["User-Agent"].startswith("geodeck/")


def test_source_without_refresh_table_is_named():
    with pytest.raises(GeodeckError, match=r"highest-points-7summits: no \[refresh\] table"):
        refreshing.refreshable([load_sources()["highest-points-7summits"]], named=True)


def test_cli_refresh_offline_is_a_usage_error(geodeck):
    code, output = geodeck(["fetch", "--refresh", "--offline", SOURCE])
    assert code == 2 and "drop --offline" in output


class Flaky(BaseHTTPRequestHandler):
    """429 with Retry-After: 1 on the first request, then the file; every request recorded."""

    hits: ClassVar[list[float]] = []

    def do_GET(self):
        Flaky.hits.append(time.monotonic())
        if len(Flaky.hits) == 1:
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"finally\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_429_retry_after_is_honoured_on_a_real_server():
    Flaky.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/file.txt"
        assert http.download(session(), url, "demo") == b"finally\n"
    finally:
        server.shutdown()
    assert len(Flaky.hits) == 2
    assert Flaky.hits[1] - Flaky.hits[0] >= 0.95  # waited the second the server asked for


def test_conditional_request_uses_the_validator(tmp_path):
    """A GET of a URL whose earlier answer had an ETag (kept in the cache file from one run to the next) is a
    conditional request; its 304, sent with Content-Length: 0, serves the body kept in the store."""
    seen = []

    class Etag(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.headers.get("If-None-Match"))
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("ETag", '"v1"')
            self.send_header("Content-Length", "3")
            self.end_headers()
            self.wfile.write(b"abc")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Etag)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    entry = SourceFile("demo", "f", hashlib.sha256(b"abc").hexdigest(), 3)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/f"
        first = http.session(tmp_path / "cache.json", http.HostRateLimit(0), stored=store.stored)
        assert http.download(first, url, "demo") == b"abc"
        (tmp_path / "abc").write_bytes(b"abc")
        store.add(entry, tmp_path / "abc")  # what a refresh does with what it downloaded
        first.save_validators()
        second = http.session(tmp_path / "cache.json", http.HostRateLimit(0), stored=store.stored)
        assert http.download(second, url, "demo") == b"abc"
    finally:
        server.shutdown()
    assert seen == [None, '"v1"']


def test_rate_limit_spaces_requests_per_host():
    clock, slept = [0.0], list[float]()
    limit = http.HostRateLimit(1.0, clock=lambda: clock[0], sleep=slept.append)
    limit.wait("https://a.test/1")
    limit.wait("https://a.test/2")
    limit.wait("https://b.test/1")
    assert slept == [1.0]


def test_refresh_tables_parse():
    refreshed = {name: s.refresh for name, s in load_sources().items() if s.refresh}
    assert {"factbook", "mledoze-countries", "worldbank-population"} <= set(refreshed)
    assert all(r.method in ("github", "url") for r in refreshed.values())


@responses.activate
def test_refreshed_pin_shows_in_the_card_diff(world, mirror, tmp_path, monkeypatch):
    """End to end: refresh World Bank with Germany's population changed, rebuild the country tables from the
    new pin, and `geodeck diff laender-toppen` (stage.compare) shows the card change, not suspicious."""
    from pipeline.build.runner import build
    from pipeline.build.step import Context
    from pipeline.decks import stage
    from pipeline.extract import sources as definitions
    from pipeline.validate import card_names, countries  # noqa: F401  imported before SOURCES_DIR moves: their file paths stay the project's

    sources, store = world
    upstream(mirror)
    run_refresh(world)
    monkeypatch.setattr(definitions.load_sources, "__defaults__", (sources,))
    monkeypatch.setattr(paths, "SOURCES_DIR", sources)  # where the build's steps read their pins
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    build(Context(store), ["countries", "geo-countries"])
    diff = stage.compare(games.get("laender-toppen"), build_root=tmp_path / "build")
    changes = [(c["card"], c["field"], c["old"], c["new"]) for c in diff["changes"]]
    assert [c for c in changes if c[1] == "inhabitants_m"] == [("lt-DEU", "inhabitants_m", 83.5, 84.0)]
    assert not diff["suspicious"]


@responses.activate
def test_refresh_keeps_each_files_layer(tmp_path, mirror):
    """germany-boundaries names its files by layer; a refreshed pin keeps `layer` in the TOML."""
    sources = tmp_path / "sources"
    shutil.copytree(paths.SOURCES_DIR, sources)
    source = load_sources(sources)["germany-boundaries"]
    repo = "isellsoap/deutschlandGeoJSON"
    responses.add(
        responses.GET,
        f"https://api.github.com/repos/{repo}/commits/HEAD",
        json={"sha": NEW, "commit": {"committer": {"date": "2027-01-10T12:00:00Z"}}},
    )
    for entry in source.files:
        body = (mirror / source.name / entry.path).read_bytes()
        if entry.layer == "states":
            body = body.replace(b'"Bayern"', b'"Bayern" ', 1)  # same content, other bytes
        rest = refreshing.GITHUB_RAW.match(entry.url or "")
        assert rest is not None
        responses.add(responses.GET, f"https://raw.githubusercontent.com/{repo}/{NEW}/{rest['rest']}", body=body)
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    [result] = refreshing.refresh([source], store, sources, TODAY, session(), parsed_changes)
    assert result.changed
    refreshed = load_sources(sources)["germany-boundaries"]
    assert [f.layer for f in refreshed.files] == [f.layer for f in source.files]
    assert refreshed.layer("states").sha256 != source.layer("states").sha256
    assert refreshed.layer("country").sha256 == source.layer("country").sha256


@responses.activate
def test_old_pins_stay_resolvable_offline_after_a_rejected_refresh(world, mirror):
    """The store keeps files by sha256: after a refresh wrote new pins, `git checkout -- sources/` (here: the
    project's definition copied back) and an offline build without a mirror still find the old pins' files."""
    sources, store = world
    upstream(mirror)
    run_refresh(world)
    shutil.copy(paths.SOURCES_DIR / f"{SOURCE}.toml", sources / f"{SOURCE}.toml")
    old = load_sources(sources)[SOURCE]
    assert old == load_sources()[SOURCE]
    offline = SnapshotStore(store.root, mirror=None, online=False)
    for entry in old.files:
        assert hashlib.sha256(offline.read(entry)).hexdigest() == entry.sha256


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_terminated_or_interrupted_refresh_removes_its_staging(tmp_path, monkeypatch, signum):
    """The signal arrives while a source downloads; SIGTERM left /tmp/geodeck-refresh-* behind before."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    staged: list[Path] = []

    def interrupted(source, store, staging, today, session, changes):
        staged.append(staging.root)
        os.kill(os.getpid(), signum)
        time.sleep(5)  # the signal ends this at once

    monkeypatch.setattr(refreshing, "refresh_source", interrupted)
    source = next(s for s in load_sources().values() if s.refresh is not None)
    started, handler = time.monotonic(), signal.getsignal(signal.SIGTERM)
    ctrl_c = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own, whatever ran before here
    try:
        with pytest.raises((SystemExit, KeyboardInterrupt)):
            refreshing.refresh([source], None, tmp_path, date.today(), None, parsed_changes)  # type: ignore[arg-type]
    finally:
        signal.signal(signal.SIGINT, ctrl_c)
    assert staged and staged[0].name.startswith("geodeck-refresh-") and not staged[0].exists()
    assert time.monotonic() - started < 2 and signal.getsignal(signal.SIGTERM) == handler
