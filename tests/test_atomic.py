import os

import pytest

from pipeline import atomic


def test_write_replaces_whole_file_with_normal_permissions(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic.write_text(target, "first")
    atomic.write_text(target, "second")
    assert target.read_text() == "second"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    atomic.write_text(target, "good")
    with pytest.raises(TypeError):
        atomic.write_bytes(target, object())
    assert target.read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
