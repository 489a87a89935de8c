"""The printed title is in the print language (issue 30): a built-in game's from its card words, a region
deck's "<country>: The Card Game" with CLDR's name of the country; a region deck prints in its country's
language unless --lang says otherwise."""

import json

import pytest

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import layouts, titles


@pytest.mark.parametrize(("name", "lang"), [("region-fra", "fr"), ("region-ita", "it"), ("region-pol", "pl")])
def test_a_region_deck_prints_in_its_countrys_language(decks, name, lang):
    assert layouts.load(games.get(name)).language(None).code == lang
    assert layouts.load(games.get(name)).language(languages.language("en")).code == "en"
    assert layouts.load(games.get("deutschland")).language(None).code == "de"


def test_titles_are_printed_in_the_print_language(decks):
    region = games.get("region-fra")
    for version in ("2026.12.2", None):  # a deck built with the German default title, one with the French
        deck = published.deck(region, version)[1]
        assert titles.title(region, deck, languages.language("pl")) == "Francja: gra karciana"
    assert deck["title"] == "France\u00a0: le jeu de cartes"  # stored as built: provenance
    assert (
        titles.title(region, deck, languages.language("fr")) == "France\u00a0: le jeu de cartes"
    )  # a no-break space before the colon
    assert titles.title(region, deck, languages.language("pl")) == "Francja: gra karciana"
    assert titles.title(region, deck, languages.language("en")) == "France: The Card Game"
    deutschland = games.get("deutschland")
    home = published.deck(deutschland)[1]
    assert (
        titles.title(deutschland, home, languages.language("de")) == "Deutschland: Das Kartenspiel"
    )  # the German print unchanged
    assert titles.title(deutschland, home, languages.language("en")) == "Germany: The Card Game"
    assert titles.title(games.get("world-game"), home, languages.language("en")) == "The World Game"


def test_a_title_given_at_build_is_printed_as_given(decks):
    region = games.get("region-fra")
    deck = published.deck(region)[1]
    deck = json.loads(json.dumps(deck)) | {"title": "Tour de France"}
    assert titles.title(region, deck, languages.language("pl")) == "Tour de France"
