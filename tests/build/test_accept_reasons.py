"""`geodeck build --accept`: a reason for one game's deck (`GAME=REASON`) goes into that deck's changelog only,
a plain reason into every other deck's, so a changelog says why of its own changes (the World Game's
2026.12.9 spoke of Länder toppen's list of countries left out, which it has not)."""

from datetime import date

import pytest
from fixtures.tiny.decks.synthetic import publish_then_refresh

from pipeline import paths
from pipeline.build.runner import build
from pipeline.build.step import EVERY, Context, reasons
from pipeline.errors import GeodeckError
from pipeline.games import registry as games

GAMES = ["laender-toppen", "world-game"]


def test_a_game_s_reason_is_its_own_and_a_plain_one_every_other_deck_s():
    given = ("laender-toppen=lists Nigeria as left out", "Issue 43: an editor's read, a=b")
    assert reasons(given, GAMES) == {"laender-toppen": "lists Nigeria as left out", EVERY: given[1]}
    assert reasons(("Germany's census: x=y",), GAMES) == {EVERY: "Germany's census: x=y"}  # no game's name


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (("world-game=a", "world-game = b"), "world-game= is given twice"),
        (("a", "b"), "a reason for every deck is given twice"),
        (("world-game= ",), "the reason is empty; write why after world-game="),
        (("wold-game=x",), "no game 'wold-game'; name one of laender-toppen, world-game"),
    ],
)
def test_a_reason_given_twice_or_empty_is_one_line(given, said):
    with pytest.raises(GeodeckError, match=said):
        reasons(given, GAMES)


def test_a_deck_s_changelog_says_its_own_reason_only(tmp_path, monkeypatch):
    """A suspicious change (Germany's population × 1.4) published with a reason for Länder toppen and one for
    every other deck: the World Game's changelog says the latter; with Länder toppen's alone it is refused."""
    _root, decks = publish_then_refresh(tmp_path, monkeypatch, date(2026, 11, 29), {("DEU", "population"): 1.4})
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path)  # the deck step's LATEST: OUTPUT_DIR/decks/world-game
    assert "world-game" in games.names()
    with pytest.raises(GeodeckError, match="suspicious change"):
        build(Context(None, accept={"laender-toppen": "Länder toppen lists Nigeria"}), ["deck-world-game"])
    accept = {"laender-toppen": "Länder toppen lists Nigeria", EVERY: "Germany's census, reviewed"}
    build(Context(None, accept=accept), ["deck-world-game"])
    latest = (decks / "world-game" / "LATEST").read_text(encoding="utf-8").strip()
    changelog = (decks / "world-game" / latest / "CHANGELOG.md").read_text(encoding="utf-8")
    assert latest != "2026.11.0" and "Germany's census, reviewed" in changelog and "Länder toppen" not in changelog
