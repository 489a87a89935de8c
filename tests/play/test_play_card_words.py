"""The terminal speaks the cards' words (issue 30): the guess cards by the letters they print in the view's
language (Italian O is west), typed moves in those letters, the record in the engine's language-neutral
notation."""

import random
from typing import cast

import pytest
from fixtures.tiny.games import decks

from pipeline.games import registry as games
from pipeline.games.grid.engine import GUESSES
from pipeline.games.world_game import answers
from pipeline.i18n import registry as languages
from pipeline.play import loop
from pipeline.play import ports as play_ports
from pipeline.play.view import View
from pipeline.records import ports as records_ports
from pipeline.render import layouts
from pipeline.render.numbers import number

CONTINENTS = {"Europe": ["Europa", "Europe"], "Asia": ["Azja", "Asia", "Asie", "Asien"]}


def _table(lang: str):
    definition = games.get("deutschland")
    deck = decks.deutschland()
    state = definition.engine.Game.from_deck(deck, players=2).new_initial_state(random.Random(3))
    names = tuple(play_ports.terminal(definition).seat_names(2, languages.language(lang)))
    view = View(
        languages.language(lang),
        names,
        {c["id"]: c["fields"] for c in deck["cards"]},
        layouts.load(definition, languages.language(lang)),
    )
    return definition, state, view


def test_guess_cards_show_and_take_the_letters_their_cards_print():
    definition, state, view = _table("it")
    terminal, width = definition.module("terminal"), len(state.places)  # the grid game's own, its board a Group
    west, east = GUESSES.index("W") * width, GUESSES.index("O") * width
    labels = [terminal.label(state, action, view, True) for action in state.legal_actions()]
    assert labels[state.legal_actions().index(west)].startswith("O ")  # Italian ovest, as the card prints
    assert labels[state.legal_actions().index(east)].startswith("E ")
    typed = loop._fitting(labels[state.legal_actions().index(west)].replace("O ", "o ", 1), labels)
    assert [state.legal_actions()[i] for i in typed] == [west]
    assert records_ports.notation(definition).write(state, west).startswith("W ")  # the record stays the engine's
    help_ = terminal.rules(view)
    assert "N, S, O, E" in help_ and "C (" in help_ and "Deutschland" not in help_
    assert "O/C" in str(terminal.board(state, 0, view).renderables[-2])


def test_the_english_help_names_the_english_letters():
    definition, _, view = _table("en")
    help_ = play_ports.terminal(definition).rules(view)
    assert "N, S, W, E" in help_ and "Deutschland" not in help_


def test_a_joker_is_named_by_its_card_word():
    from pipeline.games.laender_toppen import engine, terminal

    deck = decks.laender_toppen()
    game = engine.Game.from_deck(deck, players=2)
    definition = games.get("laender-toppen")
    view = View(
        languages.language("pl"),
        ("A", "B"),
        {c["id"]: c["fields"] for c in deck["cards"]},
        layouts.load(definition, languages.language("pl")),
    )
    joker = next(i for i, card in enumerate(game.cards) if card.joker)
    shown = terminal.card_label(game.new_initial_state(random.Random(1)), joker, view)
    assert shown.startswith("Dżoker ") and "Joker" not in shown


@pytest.mark.parametrize(
    "typed", ["Europa i Azja", "Europa e Asia", "Europa y Asia", "Europe et Asie", "Europa und Asien"]
)
def test_two_continents_are_joined_by_any_languages_and(typed):
    one = {answers.normal(name): key for key, names in CONTINENTS.items() for name in names}
    assert answers.continent_sets(typed, one) == frozenset({"Europe", "Asia"})


@pytest.mark.parametrize("typed", ["-", "pass", "passen", "passer", "pasar", "passa", "pas", "P"])
def test_a_pass_is_typed_in_any_language(typed):
    assert answers.passes(typed)
    assert not answers.passes("Paris")


def test_a_negative_value_is_shown_as_the_cards_print_it():
    view = _table("fr")[2]
    assert view.number(-49.4) == number(-49.4, languages.language("fr"), "#,##0.#") == "\u221249,4"
    assert view.number(None) == "–"


def test_a_label_and_its_value_are_joined_as_the_language_writes_them():
    from pipeline.extract.store import SnapshotStore
    from pipeline.games.laender_toppen import cards
    from pipeline.render.context import CardContext

    no_store = cast(SnapshotStore, None)  # the fact lines draw nothing from the store
    _, _, view = _table("fr")
    assert view.labelled("Rouge", "N sous Koblenz") == "Rouge\u00a0: N sous Koblenz"  # a no-break space
    layout = layouts.load(games.get("laender-toppen"))
    lines = cards._fact_lines({"capital_fr": "Paris"}, CardContext(layout, languages.language("fr"), 0.0, no_store))
    assert lines[0] == "Capitale\u00a0: Paris"
    assert (
        cards._fact_lines({"capital_de": "Paris"}, CardContext(layout, languages.language("de"), 0.0, no_store))[0]
        == "Hauptstadt: Paris"
    )


def test_a_refusal_names_the_guess_cards_by_their_letters():
    definition, state, view = _table("it")
    width = len(state.places)
    state.apply_action(GUESSES.index("W") * width)  # Rosso: west (O in Italian) under the first place
    state.apply_action(state.legal_actions()[0])
    typed = f"C sotto {view.card(state.game.places[state.places[1]].id)}"  # its back, C (centro)
    refused = loop._refused(state, typed, play_ports.terminal(definition), view)
    assert refused is not None and "O/C" in refused and "C è il retro della carta O" in refused, refused
    assert "Deutschland" not in refused  # the engine's name, German in every language and on region decks
