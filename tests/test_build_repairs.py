"""Advice that works: every state of a published folder that `geodeck verify` names is repaired by
`geodeck build` (a staging folder, a temporary file, LATEST missing, stale or with junk after the version,
an empty version folder), or `build` refuses it too, naming the fix that then works (a corrupt or missing
manifest, a deck.json that is a FIFO or edited); `build` never exits 0 while verify refuses."""

import os
import shutil
import time
from datetime import date

import pytest
from fixtures.tiny.decks.synthetic import publish_then_refresh

from pipeline import paths
from pipeline.build import Context, build
from pipeline.decks import integrity
from pipeline.errors import GeodeckError

GAME = "world-game"


@pytest.fixture
def published(tmp_path, monkeypatch):
    """World Game 2026.11.0 published; the build folder holds the same tables, its deck step stamped."""
    _, decks = publish_then_refresh(tmp_path, monkeypatch, date(2026, 11, 29), {})
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path)  # the deck step's LATEST: OUTPUT_DIR/decks/GAME
    build(Context(None), [f"deck-{GAME}"])
    assert problems() == []
    return decks / GAME


def problems() -> list[str]:
    return [p for *_, found in integrity.verify_all([GAME]) for p in found]


def aged(path, folder: bool):
    """`path` made an hour ago: left by a publish that was killed."""
    path.mkdir() if folder else path.write_text("2026")
    old = time.time() - 3600
    os.utime(path, (old, old))


def left_by_killed_runs(d):
    aged(d / ".2026.11.0.abc123", folder=True)  # a staging folder
    aged(d / ".LATEST.x1.tmp", folder=False)  # a temporary file
    (d / "2026.12.0").mkdir()  # an empty newer version folder
    (d / "LATEST").write_text("2026.11.0\n" + "\n" * 1000)  # junk after the version


REPAIRED = {"left by killed runs": left_by_killed_runs, "LATEST missing": lambda d: (d / "LATEST").unlink()}


@pytest.mark.parametrize("state", REPAIRED)
def test_build_repairs_what_verify_says_it_repairs(published, state):
    REPAIRED[state](published)
    assert problems(), "verify must see the damage"
    build(Context(None), [f"deck-{GAME}"])
    assert problems() == []


BROKEN = {
    "manifest corrupt": lambda d: (d / "2026.11.0" / "manifest.json").write_text("{"),
    "manifest missing": lambda d: (d / "2026.11.0" / "manifest.json").unlink(),
    "deck.csv edited": lambda d: (d / "2026.11.0" / "deck.csv").write_text("id\n"),
    "deck.json a FIFO": lambda d: [(d / "2026.11.0" / "deck.json").unlink(), os.mkfifo(d / "2026.11.0" / "deck.json")],
}


@pytest.mark.parametrize("state", BROKEN)
def test_build_refuses_a_damaged_newest_version_naming_a_fix_that_works(published, state):
    BROKEN[state](published)
    assert problems()
    with pytest.raises(GeodeckError, match=r"`rm -r \S+2026\.11\.0`\) and run `geodeck build`"):
        build(Context(None), [f"deck-{GAME}"])
    shutil.rmtree(published / "2026.11.0")  # the fix it names
    build(Context(None), [f"deck-{GAME}"])
    assert problems() == [] and (published / "LATEST").read_text() != "2026.11.0\n"
