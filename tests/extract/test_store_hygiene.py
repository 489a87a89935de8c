"""Store hygiene: temporary files of an interrupted run are removed by the next one, two runs in one
checkout queue on a lock, and permission problems are one-line errors naming the file."""

import hashlib
import os
import threading
import time
from pathlib import Path

import pytest

from pipeline import atomic, locking
from pipeline.errors import GeodeckError, SnapshotError
from pipeline.extract import SourceFile, open_store

DATA = b"hello, geodeck\n"
ENTRY = SourceFile("demo", "dir/file.txt", hashlib.sha256(DATA).hexdigest(), len(DATA))


def old_temp_file(folder: Path) -> Path:
    """What atomic.write_bytes leaves when a run is killed between mkstemp and rename, an hour ago."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".countries.json.k2j4h1.tmp"
    tmp.write_bytes(b"half a file")
    os.utime(tmp, (time.time() - 3600, time.time() - 3600))
    return tmp


def test_next_fetch_removes_stale_temp_files(mirror, tmp_path, geodeck):
    store = tmp_path / "store"
    stale = old_temp_file(store / "mledoze-countries")
    fresh = store / "mledoze-countries" / ".other.json.a1b2.tmp"
    fresh.write_bytes(b"being written right now")
    code, output = geodeck(
        ["fetch", "highest-points-7summits", "--offline", "--mirror", mirror], GEODECK_STORE=str(store)
    )
    assert code == 0, output
    assert not stale.exists()
    assert fresh.exists()  # a write in progress (younger than 30 s) is left alone


def test_next_build_removes_stale_temp_files_in_build(tmp_path):
    stale = old_temp_file(tmp_path / "build" / "transform")
    with locking.exclusive(tmp_path / "build"):
        assert not stale.exists()


def test_second_run_waits_for_the_first(tmp_path):
    order: list[str] = []
    waits: list[str] = []
    with locking.exclusive(tmp_path):

        def second():
            with locking.exclusive(tmp_path, on_wait=waits.append):
                order.append("second")

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.3)
        order.append("first done")
    thread.join(5)
    assert order == ["first done", "second"]
    assert waits and "waiting for another geodeck run" in waits[0]


def test_lock_in_unwritable_folder_names_it(tmp_path, monkeypatch):
    refuse(monkeypatch, "open", lambda path: path.name == ".geodeck.lock")
    message = r"cannot lock .*\.geodeck\.lock: Permission denied; make .* writable"
    with pytest.raises(GeodeckError, match=message), locking.exclusive(tmp_path):
        pass


def refuse(monkeypatch, method: str, refused) -> None:
    """Path.<method> raises PermissionError for the paths `refused(path)` names (root ignores chmod)."""
    real = getattr(Path, method)

    def guarded(path, *args):
        if refused(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args)

    monkeypatch.setattr(Path, method, guarded)


def test_unreadable_store_file_is_one_line(tmp_path, monkeypatch):
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    local = store.blob(ENTRY.sha256)
    local.parent.mkdir(parents=True)
    local.write_bytes(DATA)
    refuse(monkeypatch, "read_bytes", lambda path: path == local)
    with pytest.raises(SnapshotError, match=rf"cannot read store file .*/sha256/../{ENTRY.sha256}: Permission denied"):
        store.read(ENTRY)


def test_unreadable_mirror_subfolder_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "mirror" / "demo" / "dir").mkdir(parents=True)
    store = open_store(mirror=tmp_path / "mirror", online=False, root=tmp_path / "store")
    refuse(monkeypatch, "is_file", lambda path: "/mirror/" in str(path))
    with pytest.raises(SnapshotError, match=r"cannot look into the mirror folder .*demo/dir: Permission denied"):
        store.read(ENTRY)


def test_read_only_store_is_one_line_and_keeps_nothing(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror" / "demo" / "dir"
    mirror.mkdir(parents=True)
    (mirror / "file.txt").write_bytes(DATA)
    store = open_store(mirror=tmp_path / "mirror", online=False, root=tmp_path / "store")

    def read_only(path):
        raise PermissionError(30, "Read-only file system", str(path))

    monkeypatch.setattr(atomic, "writer", read_only)
    with pytest.raises(SnapshotError, match=rf"cannot write store file .*{ENTRY.sha256}: Read-only file system"):
        store.read(ENTRY)
    assert not any(p.is_file() for p in (tmp_path / "store").rglob("*"))


def test_grid_help_and_errors_name_only_options_it_has(geodeck):
    code, output = geodeck(["grid", "--help"])
    assert code == 0 and "--mirror" in output and "--offline" in output
