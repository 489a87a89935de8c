"""The studio's tests: decks, build and output folders of each test's own (the built-in deck copied in where a
test browses it), and the registry as it was after."""

import shutil

import pytest

from pipeline import paths
from pipeline.games import registry


@pytest.fixture
def workshop(tmp_path, monkeypatch):
    """Empty decks, build and output folders of the test's own, and the registry as it was after."""
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "decks")
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path / "output")
    monkeypatch.setattr(paths, "PRINT_DIR", tmp_path / "output" / "print")
    before = dict(registry.registered())  # discovered first: restored whole
    yield tmp_path
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


@pytest.fixture
def built_in(workshop):
    """The decks folder holding the checkout's latest Länder toppen! version; its version."""
    source = paths.ROOT / "output" / "decks" / "laender-toppen"
    latest = (source / "LATEST").read_text(encoding="utf-8").strip()
    shutil.copytree(source / latest, paths.DECKS_DIR / "laender-toppen" / latest)
    (paths.DECKS_DIR / "laender-toppen" / "LATEST").write_text(latest + "\n", encoding="utf-8")
    return latest
