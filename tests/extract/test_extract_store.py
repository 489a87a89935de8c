import hashlib
import json
import shutil

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.errors import GeodeckError, SnapshotError
from pipeline.extract import SourceFile, load_sources, open_store
from pipeline.extract.sources import select

DATA = b"hello, geodeck\n"


def entry_for(data: bytes, url: str | None = None) -> SourceFile:
    return SourceFile("demo", "dir/file.txt", hashlib.sha256(data).hexdigest(), len(data), url)


def write_mirror(root, data=DATA):
    path = root / "mirror" / "demo" / "dir" / "file.txt"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    return root / "mirror"


def test_resolves_from_mirror_then_from_store(tmp_path):
    mirror = write_mirror(tmp_path)
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    assert store.read(entry_for(DATA)) == DATA
    shutil.rmtree(mirror)
    store.mirror = None
    assert store.read(entry_for(DATA)) == DATA  # now served by the store alone


def test_flipped_byte_in_mirror_is_rejected_and_nothing_stored(tmp_path):
    mirror = write_mirror(tmp_path, b"hello, geodecK\n")
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match="sha256 mismatch, expected") as err:
        store.read(entry_for(DATA))
    assert "demo/dir/file.txt" in str(err.value)
    assert not any(p.is_file() for p in (tmp_path / "store").rglob("*"))


def test_corrupted_store_file_is_replaced_from_mirror(tmp_path):
    mirror = write_mirror(tmp_path)
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    local = store.blob(entry_for(DATA).sha256)
    local.parent.mkdir(parents=True)
    local.write_bytes(b"garbage")
    assert store.read(entry_for(DATA)) == DATA
    assert local.read_bytes() == DATA


def test_offline_without_mirror_names_the_fix(tmp_path):
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match=r"fetching is off; pass --mirror DIR \(`make deck MIRROR=DIR`\) or set"):
        store.read(entry_for(DATA, url="https://example.invalid/file.txt"))


def test_missing_mirror_folder_is_an_error(tmp_path):
    store = open_store(mirror=tmp_path / "nope", online=False, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match="does not exist"):
        store.read(entry_for(DATA))


def test_download_failure_is_reported(tmp_path, monkeypatch):

    monkeypatch.setattr("time.sleep", lambda _s: None)
    monkeypatch.delenv("GEODECK_MIRROR", raising=False)  # no mirror to fall back on
    store = open_store(mirror=None, online=True, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match=r"cannot download.*`make deck MIRROR=DIR`.*\$GEODECK_MIRROR"):
        store.read(entry_for(DATA, url="http://127.0.0.1:9/file.txt"))
    assert not store.blob(entry_for(DATA).sha256).exists()


def test_unknown_source_lists_known_ones():
    with pytest.raises(GeodeckError, match="unknown source nope; known sources: .*factbook"):
        select(["nope"])


# Mirror folders of sources the project no longer downloads, with where their content went.
RETIRED = {"capital-temperature-supplement": "sources/reviewed/capital_temperatures.csv (no live URL to fetch)"}


def test_every_mirror_file_is_pinned_by_a_source(mirror):
    index = json.loads((mirror / "index.json").read_text())
    pinned = {(s.name, f.path): f.sha256 for s in load_sources().values() for f in s.files}
    for row in index:
        source, path = row["file"].split("/", 1)
        if source not in RETIRED:
            assert pinned[(source, path)] == row["sha256"]


def test_every_source_file_has_a_live_url():
    """`make deck` without a mirror downloads every pinned file, so each needs a URL."""
    for source in load_sources().values():
        assert all((entry.url or "").startswith("https://") for entry in source.files), source.name


def test_package_sources_match_installed_versions():
    for source in load_sources().values():
        if source.kind == "package":
            assert source.installed_version() == source.version


def run(args, env=None):
    return CliRunner().invoke(cli, args, env=env)


def test_cli_fetch_from_mirror(mirror, tmp_path):
    result = run(
        ["fetch", "highest-points-7summits", "pycountry", "--mirror", str(mirror), "--offline"],
        env={"GEODECK_STORE": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    entry = load_sources()["highest-points-7summits"].file("highest_points_169.json")
    assert (tmp_path / "sha256" / entry.sha256[:2] / entry.sha256).is_file()


def test_cli_user_errors_have_no_traceback(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "fetch", "nope"],
        capture_output=True,
        text=True,
        env={"GEODECK_STORE": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2
    assert "unknown source nope" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unreadable_mirror_file_is_a_clear_error(tmp_path, monkeypatch):
    mirror = write_mirror(tmp_path)
    store = open_store(mirror=mirror, online=False, root=tmp_path / "store")
    real_open = type(mirror).open

    def refuse(path, *args, **kwargs):
        if path.name == "file.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(type(mirror), "open", refuse)
    with pytest.raises(SnapshotError, match="cannot read mirror file .*file.txt: Permission denied"):
        store.read(entry_for(DATA))
    assert not any(p.is_file() for p in (tmp_path / "store").rglob("*"))


def test_files_are_found_by_their_declared_layer():
    boundaries = load_sources()["germany-boundaries"]
    assert boundaries.layer("states").path == "2_bundeslaender_2_hoch.geo.json"
    assert boundaries.layer("states-map").path == "2_bundeslaender_3_mittel.geo.json"
    with pytest.raises(
        GeodeckError, match='declares no file with layer = "rivers"; see sources/germany-boundaries.toml'
    ):
        boundaries.layer("rivers")
