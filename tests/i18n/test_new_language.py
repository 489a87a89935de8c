"""A new language is one catalogue (issue 30 item 5): a toy language registered from a catalogue alone in
$GEODECK_LOCALES, every message of templates/locale/geodeck.pot translated, prints every game's kit and plays
every game with no English message left, its names taken from the published decks' cards (CLDR, pycountry,
else the local name flagged) with one warning naming `geodeck build`."""

import io
import tempfile
from pathlib import Path

import pytest
from catalogues import contexts, english_left, kit_text, registered
from fixtures.new_language import CODE as TOY
from fixtures.new_language import pseudo, toy_catalogue
from rich.console import Console

from pipeline.decks import published, translated
from pipeline.decks.spec import load_spec
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.play import loop
from pipeline.render import kit

pytestmark = pytest.mark.mirror

NO_FLAG = {"challenges": ("continent", "location", "capital")}  # a console that is no terminal shows no flag


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy language registered from one catalogue in $GEODECK_LOCALES: every message of the catalogue
    template (templates/locale/geodeck.pot) translated by `pseudo`; forgotten afterwards."""
    yield from registered(toy_catalogue(), TOY, tmp_path, monkeypatch)


def test_the_toy_translation_keeps_fields_and_markup():
    assert pseudo("<b>Player A:</b> {n} cards, %(new)s") == "<b>Pleyir E:</b> {n} cerds, %(new)s"


def test_a_new_language_of_one_catalogue_prints_every_game_with_names_from_cldr_or_the_local_name(toy, store):
    assert toy in registry.codes()
    _, world = published.deck(games.get("world-game"), None)
    shown, note = translated.completed(
        world, load_spec(games.get("world-game")), registry.language(toy), "geodeck build"
    )
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
        shown, note = translated.completed(deck, spec, registry.language(toy), definition.made_by)
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
            games.get(game),
            deck,
            seats,
            registry.language(lang),
            5,
            Path(folder) / "r.json",
            console,
            lambda _: next(typed),
            options,
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
