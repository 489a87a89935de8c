"""Every printed word comes from the chosen language: each game printed in German and in English, the PDF
text searched for words only the other language uses (labels, capitals and peaks with their own names).

The fixture decks (tests/fixtures/tiny/render/) are printed (flags come from the snapshot mirror through the
store, so those tests skip without it); for the published decks (output/decks/) the names each language
prints are searched, card by card (printing the 194 World Game cards twice would take minutes).
"""

import re
from pathlib import Path

import pdftext
import pytest
from fixtures.tiny.games.decks import print_deck

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import printing
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
GAMES = ("laender-toppen", "world-game", "deutschland")
# Words that give the other language away: card labels, and capitals and peaks each language names its own way.
GIVEAWAYS = {
    "de": ["Hauptstadt", "Höchster", "Einwohner", "Nachbarländer", "Wien", "Rom", "Moskau", "Peking", "Kairo",
           "Mexiko-Stadt", "Kilimandscharo", "Olymp", "Kamerunberg", "Vatikanhügel", "bei"],
    "en": ["Capital", "Highest", "Population", "Neighbouring", "Vienna", "Rome", "Moscow", "Beijing", "Cairo",
           "Mexico City", "Kilimanjaro", "Mount Olympus", "Mount Cameroon", "Vatican Hill", "near"],
}  # fmt: skip
# The card fields each language prints its names from (the renderers choose them by language).
PRINTED = {
    "laender-toppen": {"de": ["capital_de", "highest_mountain_de"], "en": ["capital_en", "highest_mountain_en"]},
    "world-game": {"de": ["capitals_de", "highest_point_name_de"], "en": ["capitals_en", "highest_point_name_en"]},
}


def giveaways(text: str, lang: str) -> list[str]:
    """The words of the other language than `lang` found in `text` (whole words)."""
    other = "en" if lang == "de" else "de"
    return [w for w in GIVEAWAYS[other] if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def pdf_text(deck: dict, lang: str, store) -> str:
    return "\n".join(
        pdftext.pages(
            printing.render(
                games.get(deck["game"]), deck, PrintOptions(lang=languages.language(lang), duplex="none"), store
            )
        )
    )


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_fixture_decks_print_only_the_chosen_language(store, game, lang):
    deck = print_deck(game)
    text = pdf_text(deck, lang, store)
    assert giveaways(text, lang) == []
    own = {("laender-toppen", "de"): "Moskau", ("laender-toppen", "en"): "Moscow"}
    own |= {("world-game", "de"): "Moskau", ("world-game", "en"): "Moscow"}
    if (game, lang) in own:
        assert own[game, lang] in text


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", sorted(PRINTED))
def test_published_decks_name_everything_in_the_chosen_language(game, lang):
    _, deck = published.deck(games.get(game))
    for card in deck["cards"]:
        for name in PRINTED[game][lang]:
            value = card["fields"].get(name)
            if card["kind"] == "joker" or value is None:
                continue
            text = ", ".join(value) if isinstance(value, list) else value
            unnamed = "unnamed" in text and text != "unnamed elevation"  # the Factbook's words (issue 43), in English
            assert giveaways(text, lang) == [] and not unnamed and "ohne Namen" not in text, card["id"]


def test_giveaway_search_matches_whole_words_only():
    assert giveaways("Hauptstadt: Rom", "en") == ["Hauptstadt", "Rom"]
    assert giveaways("Romania, Bromberg, Rome", "en") == []
    assert giveaways("Capital: Rome", "de") == ["Capital", "Rome"]
