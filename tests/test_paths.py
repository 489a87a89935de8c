"""Folder overrides: an empty environment variable means unset, never the current folder."""

from pathlib import Path

import pytest

from pipeline import paths


@pytest.mark.parametrize("value", ["", " "])
def test_empty_variables_mean_unset(monkeypatch, tmp_path, value):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for variable in ("GEODECK_STORE", "GEODECK_BUILD", "GEODECK_MIRROR"):
        monkeypatch.setenv(variable, value)
    assert paths.store_dir() == tmp_path / "home" / ".cache" / "geodeck"
    assert paths.build_dir() == paths.ROOT / "build"
    assert paths.default_mirror() is None


def test_set_variables_are_used(monkeypatch, tmp_path):
    for variable in ("GEODECK_STORE", "GEODECK_BUILD", "GEODECK_MIRROR"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    assert (paths.store_dir(), paths.build_dir(), paths.default_mirror()) == (
        tmp_path / "GEODECK_STORE",
        tmp_path / "GEODECK_BUILD",
        tmp_path / "GEODECK_MIRROR",
    )


def test_fetch_with_an_empty_store_variable_writes_nothing_here(geodeck, mirror, tmp_path, monkeypatch):
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, output = geodeck(["fetch", "highest-points-7summits", "--offline", "--mirror", mirror], GEODECK_STORE="")
    assert code == 0, output
    assert list(Path.cwd().iterdir()) == []
    assert (tmp_path / "home" / ".cache" / "geodeck").is_dir()
