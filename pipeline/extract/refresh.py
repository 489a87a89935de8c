"""`geodeck fetch --refresh [SOURCE…]`: fetch the newest upstream version of each source, parse and
validate it with the source's own parsers, and only then write the new pin (URL, sha256, bytes, vintage,
date accessed) into `sources/<source>.toml` and the new bytes into the store.

How "newest" is found is declared per source in its `[refresh]` table (`sources.Refresh`). All sources of
one refresh are downloaded (streamed into a staging store, within `http.Limits`) and validated first; any
failure changes nothing (no pin, no store file). The report lists what each parsed table would change
(rows added, removed, changed values); `geodeck build` then `geodeck diff GAME` shows what the cards would
change.
"""

import json
import re
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import tomlkit

from pipeline import atomic, jsonfile, readers
from pipeline.errors import GeodeckError, SnapshotError
from pipeline.extract import http
from pipeline.extract.sources import Source, SourceFile
from pipeline.extract.store import SnapshotStore

GITHUB_RAW = re.compile(r"^https://raw\.githubusercontent\.com/(?P<repo>[^/]+/[^/]+)/(?P<ref>[^/]+)/(?P<rest>.+)$")
GITHUB_COMMIT = "https://api.github.com/repos/{repo}/commits/{branch}"
HTTP_CACHE = ".http-cache.json"  # validators (ETag, Last-Modified) of the last refresh's downloads
HTML = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class Refreshed:
    """One source after a refresh: its definition before and after, and what the parsed tables would
    change."""

    old: Source
    new: Source
    changes: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return self.old.files != self.new.files


def refreshable(sources: list[Source], named: bool) -> list[Source]:
    """The sources with a [refresh] table; a named source without one is a user error."""
    missing = [s.name for s in sources if s.refresh is None]
    if named and missing:
        raise GeodeckError(
            f"{', '.join(missing)}: no [refresh] table in sources/<source>.toml, so there is no upstream to "
            f"refresh from (package sources: upgrade the package and its pinned version)"
        )
    return [s for s in sources if s.refresh is not None]


@contextmanager
def terminated_as_exit() -> Iterator[None]:
    """SIGTERM raises SystemExit(143) in the main thread while inside, so `finally` and `with` blocks run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


Changes = Callable[[Source, Source, SnapshotStore, SnapshotStore], list[str]]  # old, new, store, staging -> lines


def refresh(
    sources: list[Source], store: SnapshotStore, sources_dir: Path, today: date, session: http.Session, changes: Changes
) -> list[Refreshed]:
    """Refresh every source (all-or-nothing): download (into a staging store) and validate them all (`changes`:
    the source's own parsers read the new files and say how their tables differ, pipeline.transform.refreshed;
    given by the door, since the transform is a later stage than this one), then
    add the new files to the store and write the pins; the old pins' files stay in the store. SIGTERM, like
    SIGINT, ends it through its cleanup: the staging folder is removed."""
    with terminated_as_exit(), tempfile.TemporaryDirectory(prefix="geodeck-refresh-") as folder:
        staging = SnapshotStore(root=Path(folder), mirror=None, online=False)
        results = [refresh_source(source, store, staging, today, session, changes) for source in sources]
        changed = [result.new for result in results if result.changed]
        for entry in (entry for new in changed for entry in new.files):  # the files first: no pin without them
            if store.stored(entry.sha256) is None:
                store.add(entry, staging.blob(entry.sha256))
        for new in changed:
            write_pins(sources_dir / f"{new.name}.toml", new)
    session.save_validators()
    return results


def refresh_source(
    source: Source, store: SnapshotStore, staging: SnapshotStore, today: date, session: http.Session, changes: Changes
) -> Refreshed:
    """The newest upstream version of `source`, downloaded into `staging` and parsed, or a GeodeckError
    saying why not."""
    urls, vintage = newest(source, session, today)
    files = tuple(download(source, path, urls[path], staging, session) for path in urls)
    if [f.sha256 for f in files] == [f.sha256 for f in source.files]:
        return Refreshed(source, source, ("unchanged: upstream serves the pinned bytes",))
    new = replace(source, files=files, vintage=vintage, date_accessed=today.isoformat())
    return Refreshed(source, new, tuple(changes(source, new, store, staging)))


def download(source: Source, path: str, url: str, staging: SnapshotStore, session: http.Session) -> SourceFile:
    """Download `path` of `source` from `url` into `staging` (streamed, hashed, within the limits); its pin,
    the other fields (such as `layer`) kept."""
    allowed, refused = content_types(source, path)
    part = staging.root / "part"
    with atomic.writer(part) as sink:
        hosts = source.refresh.hosts if source.refresh else ()
        where = f"{source.name}/{path}"
        got = http.download_to(session, sink, url, where, None, allowed, refused, http.REFRESH_FIX, hosts)
    staging.blob(got.sha256).parent.mkdir(parents=True, exist_ok=True)
    part.replace(staging.blob(got.sha256))
    pinned = next((entry for entry in source.files if entry.path == path), None)
    if pinned is None:
        return SourceFile(source.name, path, got.sha256, got.bytes, url)
    return replace(pinned, sha256=got.sha256, bytes=got.bytes, url=url)


def newest(source: Source, session: http.Session, today: date) -> tuple[dict[str, str], str]:
    """(path -> URL of the newest upstream version, its vintage), as the source's [refresh] declares."""
    assert source.refresh is not None
    if source.refresh.method == "url":
        absent = [f.path for f in source.files if f.path not in source.refresh.urls]
        if absent:
            raise GeodeckError(f"sources/{source.name}.toml: [refresh.urls] lacks {', '.join(absent)}")
        paths = [f.path for f in source.files] or list(source.refresh.urls)  # none pinned yet: the first pin
        return {path: source.refresh.urls[path] for path in paths}, f"as served on {today.isoformat()}"
    pinned = [(f.path, GITHUB_RAW.match(f.url or "")) for f in source.files]
    repos = {m["repo"] for _, m in pinned if m}
    if any(m is None for _, m in pinned) or len(repos) != 1:
        raise GeodeckError(
            f"sources/{source.name}.toml: [refresh] method github needs every file pinned by a "
            f"raw.githubusercontent.com URL of one repository"
        )
    repo = repos.pop()
    api = GITHUB_COMMIT.format(repo=repo, branch=source.refresh.branch)
    try:
        answer = http.download(session, api, source.name, allowed=("application/json",), fix=http.REFRESH_FIX)
        commit = json.loads(answer)
        sha, when = commit["sha"], commit["commit"]["committer"]["date"]
        if not re.fullmatch(r"[0-9a-f]{40}", sha):
            raise ValueError(f"{sha!r} is not a commit id")
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"{source.name}: {api} did not name a commit ({exc}); nothing was changed") from exc
    urls = {path: f"https://raw.githubusercontent.com/{repo}/{sha}/{m['rest']}" for path, m in pinned if m}
    return urls, f"{repo} at {sha[:12]}, committed {str(when)[:10]}"


def content_types(source: Source, path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(allowed, refused) Content-Types of `path`: the declared ones, else any but HTML (an error or login
    page served with 200) unless the file is HTML itself."""
    assert source.refresh is not None
    if source.refresh.content_types:
        return source.refresh.content_types, ()
    return (), () if path.endswith((".html", ".htm")) else HTML


def write_pins(path: Path, new: Source) -> None:
    """Update the pins in `path` (every file's url, sha256 and bytes; vintage; date accessed), keeping the
    rest of the file as it is."""
    document = tomlkit.parse(
        jsonfile.read_bytes(path, readers.SOURCE.max_bytes).decode("utf-8")
    )  # checked by load_source
    document["source"]["vintage"] = new.vintage
    document["source"]["date_accessed"] = new.date_accessed
    if "files" not in document:
        document.add(tomlkit.nl())
        document.append("files", tomlkit.aot())
    tables = {table["path"]: table for table in document["files"]}
    for entry in new.files:
        table = tables.get(entry.path)
        if table is None:
            table = tomlkit.table()
            table["path"] = entry.path
            document["files"].append(table)
        table["sha256"], table["bytes"], table["url"] = entry.sha256, entry.bytes, entry.url
    atomic.write_text(path, tomlkit.dumps(document))
