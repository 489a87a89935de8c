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
from pipeline.build.runner import build
from pipeline.build.step import Context
from pipeline.decks import integrity, versions
from pipeline.errors import GeodeckError
from pipeline.games import registry as games

GAME = "world-game"


DAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """World Game 2026.11.0 published; the build folder holds the same tables, its deck step stamped."""
    root = tmp_path_factory.mktemp("published")
    with pytest.MonkeyPatch.context() as patch:
        publish_then_refresh(root, patch, DAY, {})
        patch.setattr(paths, "OUTPUT_DIR", root)  # the deck step's LATEST: OUTPUT_DIR/decks/GAME
        build(Context(None), [f"deck-{GAME}"])
    return root


@pytest.fixture
def published(template, tmp_path, monkeypatch):
    """A copy of `template` standing in for build/ and output/: the game's published folder."""
    copy = tmp_path / "copy"
    shutil.copytree(template, copy)
    monkeypatch.setenv("GEODECK_BUILD", str(copy / "build"))
    monkeypatch.setattr(paths, "OUTPUT_DIR", copy)
    monkeypatch.setattr(paths, "DECKS_DIR", copy / "decks")
    assert problems() == []
    return copy / "decks" / GAME


def problems() -> list[str]:
    return [p for *_, found in integrity.verify_all([games.get(GAME)]) for p in found]


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


def fifo(path):
    path.unlink()
    os.mkfifo(path)


BROKEN = {
    "manifest corrupt": lambda d: (d / "2026.11.0" / "manifest.json").write_text("{"),
    "manifest missing": lambda d: (d / "2026.11.0" / "manifest.json").unlink(),
    "deck.csv edited": lambda d: (d / "2026.11.0" / "deck.csv").write_text("id\n"),
    "deck.json a FIFO": lambda d: fifo(d / "2026.11.0" / "deck.json"),
}


@pytest.mark.parametrize("state", BROKEN)
def test_build_refuses_a_damaged_newest_version_naming_verifys_fix(published, state):
    BROKEN[state](published)
    first = problems()[0]
    with pytest.raises(GeodeckError, match=r"`rm -r \S+2026\.11\.0`\) and run `geodeck build`") as refused:
        build(Context(None), [f"deck-{GAME}"])
    assert str(refused.value).startswith(first)


def test_the_fix_verify_names_works(published):
    BROKEN["manifest corrupt"](published)
    shutil.rmtree(published / "2026.11.0")  # the fix verify names
    build(Context(None), [f"deck-{GAME}"])
    assert problems() == [] and (published / "LATEST").read_text() != "2026.11.0\n"


@pytest.mark.parametrize("junk", ["\n" * 1000, " ", "\n2026.11.0\n", "x"])
def test_latest_with_junk_after_the_version_does_not_verify(tmp_path, junk):
    (tmp_path / "2026.11.0").mkdir()
    (tmp_path / "LATEST").write_text("2026.11.0\n")
    assert versions.latest(tmp_path) == "2026.11.0"
    (tmp_path / "LATEST").write_text("2026.11.0\n" + junk)
    with pytest.raises(GeodeckError, match="LATEST is not a file naming a version folder"):
        versions.latest(tmp_path)


def test_a_blank_reason_opens_no_gate(tmp_path, monkeypatch):
    from pipeline.decks import stage

    publish_then_refresh(tmp_path, monkeypatch, DAY, {("DEU", "population"): 1.4})
    with pytest.raises(GeodeckError, match="suspicious change"):
        stage.build_deck(games.get(GAME), date(2026, 11, 30), accept=" \t ")


@pytest.mark.parametrize("state", BROKEN)
def test_a_version_damaged_after_a_no_op_build_is_checked_again(published, state):
    """A no-op build remembers the newest version as sound by its files' signature; damage made after it
    (the same size, its modification time set back) is still found by the next build."""
    build(Context(None), [f"deck-{GAME}"])
    assert integrity._checked(), "the no-op build remembers the sound version"
    csv = published / "2026.11.0" / "deck.csv"
    if state == "deck.csv edited":  # the same size and modification time: only its change time tells
        text, stat = csv.read_text(), csv.stat()
        csv.unlink()
        csv.write_text(text.replace("wg-", "wg_", 1))
        os.utime(csv, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    else:
        BROKEN[state](published)
    with pytest.raises(GeodeckError, match="2026.11.0"):
        build(Context(None), [f"deck-{GAME}"])
