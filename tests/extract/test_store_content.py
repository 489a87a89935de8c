"""The content-addressed store: a store filled by path by an older geodeck still works, a corrupt store copy is
reported as corrupt, and a pin whose size is wrong is one error naming the fix instead of a download each
fetch."""

import hashlib

import pytest

from pipeline.errors import SnapshotError
from pipeline.extract import SourceFile, open_store

DATA = b"hello, geodeck\n"


@pytest.fixture(autouse=True)
def no_default_mirror(monkeypatch):
    monkeypatch.delenv("GEODECK_MIRROR", raising=False)


ENTRY = SourceFile("demo", "dir/file.txt", hashlib.sha256(DATA).hexdigest(), len(DATA), "https://x.test/file.txt")


def test_a_store_kept_by_path_is_adopted(tmp_path):
    legacy = tmp_path / "store" / "demo" / "dir" / "file.txt"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(DATA)
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    assert store.read(ENTRY) == DATA
    assert store.blob(ENTRY.sha256).read_bytes() == DATA
    assert legacy.read_bytes() == DATA  # an older geodeck sharing the store still finds it
    assert store.read(ENTRY) == DATA


def test_a_damaged_file_kept_by_path_is_not_adopted(tmp_path):
    legacy = tmp_path / "store" / "demo" / "dir" / "file.txt"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(b"damaged\n")
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match="is not in the store"):
        store.read(ENTRY)
    assert not store.blob(ENTRY.sha256).exists()


def test_a_corrupt_store_copy_is_reported_as_corrupt(tmp_path):
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    blob = store.blob(ENTRY.sha256)
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"hello, geodecK\n")
    with pytest.raises(SnapshotError, match=rf"demo/dir/file.txt: the store's copy .*{ENTRY.sha256} is corrupt") as e:
        store.read(ENTRY)
    assert "not in the store" not in str(e.value) and "drop --offline" in str(e.value)


def test_a_corrupt_store_copy_is_replaced_from_the_mirror(tmp_path):
    mirror = tmp_path / "mirror" / "demo" / "dir"
    mirror.mkdir(parents=True)
    (mirror / "file.txt").write_bytes(DATA)
    store = open_store(mirror=tmp_path / "mirror", online=False, root=tmp_path / "store")
    blob = store.blob(ENTRY.sha256)
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"garbage")
    assert store.read(ENTRY) == DATA and blob.read_bytes() == DATA


@pytest.mark.parametrize("pinned", [len(DATA) - 1, len(DATA) + 7])
def test_a_wrong_bytes_pin_is_one_error_naming_the_fix(tmp_path, pinned):
    """The file with the pinned sha256 is right, the pinned size is not: say so, from the mirror and from
    the store alike (before: re-copied, or re-downloaded, on every fetch)."""
    entry = SourceFile("demo", "dir/file.txt", ENTRY.sha256, pinned)
    mirror = tmp_path / "mirror" / "demo" / "dir"
    mirror.mkdir(parents=True)
    (mirror / "file.txt").write_bytes(DATA)
    message = rf"sources/demo.toml: dir/file.txt: bytes = {pinned} is wrong: .* has {len(DATA)} bytes; set bytes = "
    store = open_store(mirror=tmp_path / "mirror", online=False, root=tmp_path / "store")
    with pytest.raises(SnapshotError, match=message):
        store.read(entry)
    assert not store.blob(ENTRY.sha256).exists()
    store.read(ENTRY)  # the right pin fills the store
    with pytest.raises(SnapshotError, match=message):
        open_store(mirror=None, online=False, root=tmp_path / "store").read(entry)


def test_a_corrupt_copy_is_replaced_by_the_file_kept_by_path(tmp_path):
    legacy = tmp_path / "store" / "demo" / "dir" / "file.txt"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(DATA)
    store = open_store(mirror=None, online=False, root=tmp_path / "store")
    blob = store.blob(ENTRY.sha256)
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"garbage")
    assert store.read(ENTRY) == DATA and blob.read_bytes() == DATA
