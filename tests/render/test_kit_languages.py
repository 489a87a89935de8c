"""Every game's kit in every registered language shows no English message (issue 30, "Done when"): a kit is
printed with one sheet of cards (`PrintOptions.only`: a card of each kind), its cover, rules, calibration
sheet, accessories and attribution page in full, every kind of message it shows, and its text read back with
PDFium (tests/pdftext.py), not the library that wrote it. The cards name places in the language printed."""

import pdftext
import pytest
from catalogues import contexts, english_left, kit_text

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.render import kit, printing
from pipeline.render.printing import PrintOptions

TRANSLATED = [code for code in registry.codes() if code != registry.source()]


def pairs(names: list[str], langs: list[str]) -> list[tuple[str, str]]:
    """Every game and every language at least once, in as few kits as that takes (a game to each language
    in turn): what a kit shows untranslated is a code path, the same in every language, and a message a
    catalogue lacks is tests/i18n/test_catalogues.py's; every game in every language costs ~2 min (~4 s a kit)."""
    count = max(len(names), len(langs))
    return [(names[i % len(names)], langs[i % len(langs)]) for i in range(count)] if langs else []


@pytest.mark.mirror
@pytest.mark.parametrize(("game", "lang"), pairs(games.names(), TRANSLATED))
def test_every_kit_prints_no_english_message_in_a_translated_language(store, game, lang):
    path, deck = published.deck(games.get(game), None)
    text = kit_text(game, deck, kit.manifest_of(path), lang, store)
    assert english_left(text, lang, contexts(game)) == []


def card_text(game: str, card_id: str, lang: str, store) -> str:
    deck = published.deck(games.get(game), None)[1]
    options = PrintOptions(lang=registry.language(lang), only=(card_id,), duplex="none")
    return pdftext.words("\n".join(pdftext.pages(printing.render(games.get(game), deck, options, store))))


@pytest.mark.mirror
def test_a_country_card_names_the_country_in_the_language_printed_then_in_english(store):
    """Länder toppen's card: the name in the language printed, the rulebook's English name below it (on an
    English card the game's own German one); French printed the English name as the main one."""
    assert "Allemagne Germany" in card_text("laender-toppen", "lt-DEU", "fr", store)
    assert "Germany Deutschland" in card_text("laender-toppen", "lt-DEU", "en", store)


@pytest.mark.mirror
def test_a_world_game_card_notes_its_highest_point_in_the_language_printed(store):
    """The highest point's name beside its height, as `highest_point_name_<lang>` (English cards had lost it
    when the names became one field per language)."""
    assert "Mount Logan" in card_text("world-game", "wg-CAN", "en", store)
    assert "Mont Logan" in card_text("world-game", "wg-CAN", "fr", store)


@pytest.mark.skipif("fr" not in registry.codes(), reason="no French catalogue")
def test_english_is_found_as_whole_words_but_not_in_words_french_spells_alike():
    """World Game's label "Highest point" left in a French text is found; "Print-and-Play" holds no "and",
    and "place" and "source" are French words too (Mise en place, la source)."""
    assert english_left("Highest point 5 959 m", "fr", ("world-game:",)) == ["Highest point"]
    assert english_left("Print-and-Play · Mise en place · la source", "fr", ("common:",)) == []
