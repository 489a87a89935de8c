"""Every game's kit in every registered language shows no English message (issue 30, "Done when"), and a new
language is one catalogue (item 5): a toy language registered from a catalogue alone in $GEODECK_LOCALES
prints and plays every game, its names taken from the published decks' cards (CLDR, else the local name
flagged).

A kit is printed with one sheet of cards (`PrintOptions.only`: a card of each kind), its cover, rules,
calibration sheet, accessories and attribution page in full: every kind of message it shows. Its text is
read back with PDFium (tests/pdftext.py), not the library that wrote it."""

import io
import re
import tempfile
from pathlib import Path

import pdftext
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from catalogues import english_left
from rich.console import Console

from pipeline.decks import published, translated
from pipeline.decks.spec import load_spec
from pipeline.extract import load_sources
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.play import loop
from pipeline.render import kit, layouts, printing
from pipeline.render.printing import PrintOptions

pytestmark = pytest.mark.mirror

TRANSLATED = [code for code in registry.codes() if code != registry.source()]
TOY = "eo"  # Esperanto: CLDR knows its country and continent names; no catalogue of the checkout has it
KEPT = re.compile(r"(\{[^}]*\}|%\([^)]*\)s|<[^>]*>|&\w+;)")  # fields, markup and entities stay as they are
VOWELS = str.maketrans("aeiouAEIOU", "eiouaEIOUA")
NO_FLAG = {"challenges": ("continent", "location", "capital")}  # a console that is no terminal shows no flag


def one_sheet(deck: dict) -> tuple[str, ...]:
    """The ids of a sheet of cards with a card of each kind."""
    firsts = {card["kind"]: card["id"] for card in reversed(deck["cards"])}
    rest = [card["id"] for card in deck["cards"] if card["id"] not in firsts.values()]
    return (*firsts.values(), *rest)[:9]


def kit_text(game: str, deck: dict, manifest: dict, lang: str, store) -> str:
    """The words of the game's kit in `lang`, with one sheet of cards, less the names it shows, which are data
    in their own language: the sources' titles, producers and licences (the attribution page), the games'
    titles, and the cards' names in the source language (Länder toppen's second name, as the rulebook's)."""
    sheet = one_sheet(deck)
    data, _roles = kit.render(games.get(game), deck, manifest, PrintOptions(lang=lang, only=sheet), store)
    text = pdftext.words("\n".join(pdftext.pages(data)))
    defined = load_sources()
    names = [load_spec(games.get(name)).title for name in games.names()]
    names += [card["fields"].get(f"name_{registry.source()}") for card in deck["cards"] if card["id"] in sheet]
    for source in kit.sources(games.get(game), manifest):
        names += [defined[source].title, defined[source].producer, defined[source].license_name]
    for name in sorted({pdftext.words(str(n)) for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    return text


def contexts(game: str) -> tuple[str, ...]:
    """The contexts of the messages a game's kit shows: its template's and the common template's."""
    return (f"{layouts.load(games.get(game)).path.stem}:", "common:")


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", games.names())
def test_every_kit_prints_no_english_message_in_a_translated_language(store, game, lang):
    path, deck = published.deck(games.get(game), None)
    text = kit_text(game, deck, kit.manifest_of(path), lang, store)
    assert english_left(text, lang, contexts(game)) == []


def pseudo(text: str) -> str:
    """A deterministic toy translation, recognisably not English and about as long (so it fits where the
    English fits): each vowel the next one (a→e, …, u→a); fields, markup and entities kept."""
    return "".join(part if KEPT.fullmatch(part) else part.translate(VOWELS) for part in KEPT.split(text))


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy language registered from one catalogue in $GEODECK_LOCALES: every message of the catalogue
    template (templates/locale/geodeck.pot) translated by `pseudo`; forgotten afterwards."""
    with (registry.LOCALE_DIR / f"{registry.domain()}.pot").open("rb") as handle:
        template = read_po(handle)
    cat = Catalog(locale=TOY)
    for message in template:
        if message.id:
            cat.add(message.id, pseudo(str(message.id)), context=message.context)
    po = tmp_path / TOY / "LC_MESSAGES" / f"{registry.domain()}.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as handle:
        write_po(handle, cat)
    monkeypatch.setenv("GEODECK_LOCALES", str(tmp_path))
    registry.languages.cache_clear()
    yield TOY
    monkeypatch.delenv("GEODECK_LOCALES")
    registry.languages.cache_clear()


def test_the_toy_translation_keeps_fields_and_markup():
    assert pseudo("<b>Player A:</b> {n} cards, %(new)s") == "<b>Pleyir E:</b> {n} cerds, %(new)s"


def test_a_new_language_of_one_catalogue_prints_every_game_with_names_from_cldr_or_the_local_name(toy, store):
    assert toy in registry.codes()
    _, world = published.deck(games.get("world-game"), None)
    shown, note = translated.completed(world, load_spec(games.get("world-game")), toy, "geodeck build")
    germany = next(card for card in shown["cards"] if card["fields"]["iso3"] == "DEU")
    assert germany["fields"][f"name_{toy}"] == "Germanujo"  # CLDR's Esperanto name
    assert germany["provenance"][f"name_{toy}"]["source"] == translated.CLDR
    kenya = next(card for card in shown["cards"] if card["fields"]["iso3"] == "KEN")
    assert kenya["fields"][f"capitals_{toy}"] == ["Najrobio"]  # CLDR's exemplar city of Africa/Nairobi
    peak = kenya["fields"][f"highest_point_name_{toy}"]  # no Esperanto peak names: the local name, flagged
    assert peak == kenya["fields"]["highest_point_name_en"] == "Mount Kenya"
    assert translated.origin_kind(kenya["provenance"][f"highest_point_name_{toy}"]) == "local fallback"
    assert note is not None and "local fallback" in note and "CLDR" in note
    for game in games.names():
        definition = games.get(game)
        path, deck = published.deck(definition, None)
        spec = load_spec(definition)
        shown, note = translated.completed(deck, spec, toy, definition.made_by)
        if any(field.translated for field in spec.fields.values()):  # the decks predate the toy language
            assert note is not None and f"predates {toy}" in note and f"`{definition.made_by}`" in note, game
            assert toy in translated.languages(shown, spec) and toy not in translated.languages(deck, spec)
        text = kit_text(game, shown, kit.manifest_of(path), toy, store)
        assert english_left(text, toy, contexts(game)) == [], game


def _played(game: str, deck: dict, lang: str, answers: list[str]) -> str:
    """What the console shows of a two-seat game (a human, an expert bot) with `answers` typed."""
    typed = iter(answers)
    drawn = io.StringIO()
    options = NO_FLAG if game == "world-game" else {}
    with tempfile.TemporaryDirectory() as folder:
        seats = ["human", "bot:expert"]
        console = Console(file=drawn, width=200)
        loop.play(
            games.get(game), deck, seats, lang, 5, Path(folder) / "r.json", console, lambda _: next(typed), options
        )
    return drawn.getvalue()


@pytest.mark.parametrize("game", games.names())
def test_a_new_language_of_one_catalogue_plays_every_game(toy, game):
    deck = published.deck(games.get(game), None)[1]
    shown = _played(game, deck, toy, ["?", "h", *["1"] * 6, "q"])
    warning, _, table = shown.partition("\n")  # the deck predates the language: its names taken now, said once
    if load_spec(games.get(game)).fields.keys() & {f"{name}_{toy}" for name in ("name", "state", "capital")}:
        assert warning.startswith("warning: ") and f"predates {toy}" in warning, warning
    else:
        table = shown
    assert english_left(table, toy, ("terminal:", "seats:")) == []
    assert " tu muvi" in table, table[-600:]  # "{name} to move" in the toy language


def card_text(game: str, card_id: str, lang: str, store) -> str:
    deck = published.deck(games.get(game), None)[1]
    options = PrintOptions(lang=lang, only=(card_id,), duplex="none")
    return pdftext.words("\n".join(pdftext.pages(printing.render(games.get(game), deck, options, store))))


def test_a_country_card_names_the_country_in_the_language_printed_then_in_english(store):
    """Länder toppen's card: the name in the language printed, the rulebook's English name below it (on an
    English card the game's own German one); French printed the English name as the main one."""
    assert "Allemagne Germany" in card_text("laender-toppen", "lt-DEU", "fr", store)
    assert "Germany Deutschland" in card_text("laender-toppen", "lt-DEU", "en", store)


def test_a_world_game_card_notes_its_highest_point_in_the_language_printed(store):
    """The highest point's name beside its height, as `highest_point_name_<lang>` (English cards had lost it
    when the names became one field per language)."""
    assert "Mount Logan" in card_text("world-game", "wg-CAN", "en", store)
    assert "Mont Logan" in card_text("world-game", "wg-CAN", "fr", store)
