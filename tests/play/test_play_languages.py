"""`geodeck play` in every registered language (issue 30): the table, the help, the history, a refused move and
the result speak the language of `--lang`, with no English message of the catalogues left, and a refusal names
the seat by the name the table shows."""

import io
import random
import tempfile
from pathlib import Path

import pytest
from catalogues import english_left
from fixtures.tiny.games import decks
from rich.console import Console

from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.play import loop
from pipeline.play import ports as play_ports
from pipeline.play.view import View
from pipeline.render import layouts

TRANSLATED = [code for code in registry.codes() if code != registry.source()]
OWN = ("terminal:", "seats:")  # the play templates' contexts (the card templates' words are the print's)
NO_FLAG = {"challenges": ("continent", "location", "capital")}  # a console that is no terminal shows no flag


def _view(name: str, deck: dict, players: int, lang: str) -> View:
    definition = games.get(name)
    language = registry.language(lang)
    names = tuple(play_ports.terminal(definition).seat_names(players, language))
    return View(language, names, {c["id"]: c["fields"] for c in deck["cards"]}, layouts.load(definition, language))


def _refused_text(name: str, deck: dict, lang: str, seed: int, options: dict) -> tuple[list[str], str]:
    """The first moves to type and a move the rules refuse right after them (the human is seat 0 and moves
    first: the deal is the play loop's, the same seed)."""
    definition = games.get(name)
    state = definition.engine.Game.from_deck(deck, players=2, **options).new_initial_state(random.Random(seed))
    view = _view(name, deck, 2, lang)
    assert state.current_player() == 0
    terminal = play_ports.terminal(definition)
    if name == "deutschland":  # N under the first place, then N again: each guess card once a round
        return ["1"], terminal.label(state, 0, view, True)
    if name == "laender-toppen":  # a card of the other hand
        other = state.hands[1][0]
        return [], terminal.label(state, state.game.place + other * state.game.slots, view, True)
    return [], terminal.label(state, state.game.pass_action, view, True)  # World Game: passing is no lead


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("name", ["deutschland", "laender-toppen", "world-game"])
def test_play_shows_no_english_message_and_names_the_refused_seat(name, lang):
    deck = getattr(decks, name.replace("-", "_"))()
    options = NO_FLAG if name == "world-game" else {}
    first, refused = _refused_text(name, deck, lang, 3, options)
    answers = ["?", "h", *first, refused, *["1", "-"] * 4, "q"]
    shown = _played(name, deck, lang, answers, options)
    seat = _view(name, deck, 2, lang).names[0]
    refusal = next(line for line in shown.splitlines() if line.startswith(repr(refused)))
    assert seat in refusal and "player 0" not in refusal, refusal
    assert english_left(shown, lang, OWN) == []


def _played(name: str, deck: dict, lang: str, lines: list[str], options: dict) -> str:
    """What the console shows of a two-seat game (a human, an expert bot) played with `lines` typed."""
    answers = iter(lines)
    drawn = io.StringIO()
    console = Console(file=drawn, width=200)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        loop.play(
            games.get(name),
            deck,
            ["human", "bot:expert"],
            registry.language(lang),
            3,
            path,
            console,
            lambda _: next(answers),
            options=options,
        )
    return drawn.getvalue()


def test_the_english_table_names_the_refused_seat_too():
    deck = decks.deutschland()
    first, refused = _refused_text("deutschland", deck, "en", 3, {})
    shown = _played("deutschland", deck, "en", [*first, refused, "q"], {})
    assert f"{refused!r} is not allowed: Red has already placed their N guess card" in shown


def test_an_unregistered_language_is_one_line_naming_the_registered_ones(geodeck):
    code, output = geodeck(["play", "deutschland", "--lang", "xx"])
    line = output.strip()
    assert code == 2 and "\n" not in line and "'xx'" in line, line
    assert f"geodeck has {', '.join(registry.codes())};" in line, line
