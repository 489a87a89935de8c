"""Translated deck fields (issue 30 item 2 and 4): a deck published before a language was registered is
refused in that language with the command that fixes it, never printed in another language's names."""

import pytest

from pipeline.decks import published, translated, versions
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.paths import DECKS_DIR


def test_a_language_the_deck_predates_is_one_error_naming_the_build():
    game = games.get("world-game")
    version = versions.latest(DECKS_DIR / game.name)
    if version is None:
        pytest.skip("no committed world-game deck")
    deck = published.read(DECKS_DIR / game.name / version / "deck.json", game)
    spec = load_spec(game)
    translated.require(deck, spec, "fr", game.made_by)  # the committed deck has French names
    for card in deck["cards"]:  # as if published before French was registered
        card["fields"] = {k: v for k, v in card["fields"].items() if not k.endswith("_fr")}
    assert "fr" not in translated.languages(deck, spec) and "de" in translated.languages(deck, spec)
    with pytest.raises(GeodeckError, match=r"has no names in fr .*run `geodeck build`"):
        translated.require(deck, spec, "fr", game.made_by)
