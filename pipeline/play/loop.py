"""The play loop: deal, let each seat move (a human picks a numbered legal move or types a free answer where
the game's terminal asks for one: `free_text` and `read`; a bot its policy, chance its odds), write every
move into the record, save it at the end or when the human leaves."""

import random
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import click
from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from pipeline.decks import translated
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.play import ports
from pipeline.play import seats as seating
from pipeline.play.view import View
from pipeline.records import record as records
from pipeline.records.tape import Recorder
from pipeline.render import layouts
from pipeline.text import shown

QUIT = ("q", "quit", "exit")
HISTORY = "h"  # shows every trick or round revealed so far


class Left(Exception):
    """The human left the game (q, Ctrl-C or the end of the input)."""


def ask_terminal(prompt: str) -> str:
    return click.prompt(shown(prompt), prompt_suffix=" ", show_default=False, default="")  # not through rich


def play(
    definition: GameDefinition,
    deck: dict,
    seats: list[str],
    lang: Language,
    seed: int,
    path: Path,
    console: Console,
    ask: Callable[[str], str] = ask_terminal,
    options: dict | None = None,
    force: bool = False,
    flag: Callable[[str], object] | None = None,
    cards: Callable[[list[tuple[str, list[tuple[str, str]]]]], None] | None = None,
) -> tuple[records.Record, bool]:
    """Play one game at the terminal (with the engine's `options`: the variants), its record at `path` saved
    after every move (an existing record is refused unless `force`); returns (record, whether it was
    finished). With two or more humans at one screen (hot seat) the screen is cleared and the next human
    asked to take it before their table is shown. `flag` draws a flag for this terminal (None: it cannot,
    and a game whose terminal `refused` a human's game without pictures is refused before it starts). `cards`
    is given the cards the human to move sees (the terminal's `cards_seen`) before their table is shown."""
    terminal = ports.terminal(definition)
    game = definition.engine.Game.from_deck(deck, players=len(seats), **(options or {}))
    view = _view(definition, terminal, game, deck, seats, lang, console, flag)
    recorder = Recorder(path, definition, deck, seating.named(seats, list(view.names)), seed, force)
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    recorder.save(state)
    levels = seating.bots(definition)
    policies = {p: levels[seat[4:]](game, rng) for p, seat in enumerate(seats) if seat != "human"}
    humans = [p for p, seat in enumerate(seats) if seat == "human"]
    history: list[str] = []  # every trick or round revealed so far, as shown (h shows it again)
    at_screen = None  # the human whose table the screen shows (hot seat)
    finished = True
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == core.CHANCE:
                action = core.sample_chance(state, rng)
            elif seats[player] == "human":
                if len(humans) > 1 and player != at_screen:
                    _hand_over(player, view, ask, console)
                    at_screen = player
                if cards and (seen := ports.cards_seen(terminal)):
                    cards(seen(state, player, view))
                action = _choose(state, player, terminal, view, ask, console, history)
            else:
                action = policies[player](core.policy_input(state, policies[player]), rng)
            who = view.say("chance") if player == core.CHANCE else view.names[player]
            own = player in humans and len(humans) == 1
            console.print(Text.assemble((who, "bold"), ": ", terminal.label(state, action, view, own)), highlight=False)
            _apply(state, action, terminal, view, console, history)
            recorder.save(state)
    except (click.Abort, KeyboardInterrupt, EOFError, Left):
        finished = False
    record = recorder.save(state)
    _close(state, record, finished, humans, terminal, view, console, path)
    return record, finished


def _view(
    definition: GameDefinition, terminal, game, deck: dict, seats: list[str], lang: Language, console, flag
) -> View:
    """What the table shows: the cards in `lang` (a warning when some are not translated), the seats' names,
    the card layout and the flags; a game the terminal `refused` with a human at the table is refused here."""
    shown, note = translated.completed(deck, load_spec(definition), lang, definition.made_by)
    if note:
        console.print(f"warning: {note}", highlight=False, markup=False, soft_wrap=True)
    cards = {c["id"]: c["fields"] for c in shown["cards"]}  # the record names the deck as published
    about = {key: value for key, value in deck.items() if key != "cards"}
    view = View(lang, tuple(terminal.seat_names(len(seats), lang)), cards, layouts.load(definition, lang), flag, about)
    refused = ports.refused(terminal)
    why = refused(game, view) if "human" in seats and refused else None
    if why:
        raise GeodeckError(why)
    return view


def _close(state, record, finished: bool, humans: list[int], terminal, view: View, console, path: Path) -> None:
    """The game's end: where its record is (private while a game left unfinished goes on), or the final
    table and the result."""
    if not finished:
        console.print(
            view.say(
                "\nLeft the game after move {moves}; the record so far (private: it shows every hidden card, show "
                "it to no player while the game goes on): {path}",
                moves=len(record.moves),
                path=path,
            ),
            highlight=False,
            markup=False,
        )
        return
    console.print(terminal.board(state, humans[0] if humans else 0, view))
    console.print(_result(state, record, view))
    console.print(view.say("Record: {path}", path=path), highlight=False, markup=False, soft_wrap=True)


CLEAR_SCROLLBACK = "\x1b[3J"  # ED 3: erase the terminal's scrollback (xterm, VTE, iTerm2, tmux's history)


def _wipe(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, so that scrolling up shows nothing of the last table."""
    console.clear()
    if console.is_terminal and not console.is_dumb_terminal:
        console.file.write(CLEAR_SCROLLBACK)
        console.file.flush()


def _hand_over(player: int, view: View, ask, console: Console) -> None:
    """Hot seat: hide the last human's table (screen and scrollback) and wait for `player` to take the screen."""
    _wipe(console)
    name = view.names[player]
    answer = ask(view.say("{name}'s turn: take the screen and press Enter", name=name))
    if answer.strip().lower() in QUIT:
        raise Left
    _wipe(console)


def _apply(state, action: int, terminal, view: View, console: Console, history: list[str]) -> None:
    """Play the move and show each trick or round it revealed (the game's terminal `revealed`: who took
    what and why), right away, while the table still shows how it was resolved."""
    progress = ports.progress(terminal)
    done = progress(state) if progress else 0
    state.apply_action(action)
    for index in range(done, progress(state) if progress else 0):
        history.append(ports.revealed(terminal)(state, index, view))
        console.print(history[-1], highlight=False, markup=False)


def _choose(state, player: int, terminal, view: View, ask, console: Console, history: list[str]) -> int:
    legal = state.legal_actions()
    labels = [terminal.label(state, action, view, True) for action in legal]
    console.rule(view.say("{name} to move", name=view.names[player]))
    console.print(terminal.board(state, player, view))
    free_text = ports.free_text(terminal)
    typed = free_text(state, legal, view) if free_text else None
    if typed is None:  # a numbered list; a free-text answer (recall, not recognition) lists nothing
        grid = moves(state, legal, view) if (moves := ports.moves(terminal)) else None
        console.print(grid or Columns([Text.assemble((str(i), "bold"), " ", text) for i, text in enumerate(labels, 1)]))
    prompt = typed or view.say("Move (1-{moves}, ? help, h history, q quit)", moves=len(legal))
    while True:
        answer = ask(prompt).strip()
        if not answer:
            continue
        if answer == "?":
            console.print(_help(terminal, view, len(legal)))
        elif answer.lower() == HISTORY:
            shown = history or [view.say("Nothing revealed yet.")]
            console.print("\n".join(shown), highlight=False, markup=False)
        elif answer.lower() in QUIT:
            raise Left
        elif typed:
            found = ports.read(terminal)(state, legal, answer, view)
            if isinstance(found, int):
                return found
            console.print(found, highlight=False, markup=False)
        elif answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        else:
            fits = _fitting(answer, labels)
            if len(fits) == 1:
                return legal[fits[0]]
            why = None if fits else _refused(state, answer, terminal, view)
            console.print(
                why or _wrong(answer, [labels[i] for i in fits], len(legal), view), highlight=False, markup=False
            )


UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})  # as typed without them: oe for ö (casefold: ss for ß)


def _plain(text: str, umlauts: bool = True) -> str:
    """Text as typed or labelled, compared without case, accents, arrows, punctuation or remarks in parentheses
    ("Kenya area above" for "Kenya → Area (above)", "M under Jena" for "M (middle) under Jena"); ä, ö, ü as
    ae, oe, ue (or, without `umlauts`, as a, o, u), ß as ss, ł as l, other accents left out."""
    text = re.sub(r"\([^)]*\)", " ", text.casefold())
    if umlauts:
        text = text.translate(UMLAUTS)
    text = "".join(c for c in unicodedata.normalize("NFKD", text.replace("ł", "l")) if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def _fitting(text: str, labels: list[str]) -> list[int]:
    """The moves a typed text names: the one it spells out (any case, arrows and punctuation left out), else
    those containing it or whose words begin with its words, in order ("Canada ar above" for "Canada → Area
    above"; a word of one letter, a guess such as M, only as a whole word)."""
    wanted = _plain(text)
    plain = [(_plain(label), _plain(label, umlauts=False)) for label in labels]
    exact = [i for i, spelt in enumerate(plain) if wanted in spelt]
    if exact or not wanted:
        return exact
    return [i for i, spelt in enumerate(plain) if any(wanted in one or _begins(wanted, one) for one in spelt)]


def _begins(wanted: str, label: str) -> bool:
    """Whether each word of `wanted` begins a word of `label`, in order (words may be left out between)."""
    words = iter(label.split())
    return all(
        any(word.startswith(typed) if len(typed) > 1 else word == typed for word in words) for typed in wanted.split()
    )


def _refused(state, text: str, terminal, view: View) -> str | None:
    """Why the rules refuse a typed move that is not legal now (the engine's reason, naming its rule), or
    None when the text spells out no move of the game at all."""
    wanted = _plain(text)
    if not wanted:  # no letter or digit: it spells out no move (every label has some); skip the search
        return None
    for action in range(state.game.num_distinct_actions()):
        try:
            spelt = _plain(terminal.label(state, action, view, True)) == wanted
        except (IndexError, KeyError, ValueError):  # not a move at this point of the game at all
            continue
        if spelt:
            try:
                state.clone().apply_action(action)
            except core.IllegalAction as refused:
                why = refused.refusal and _reason(state, refused.refusal, terminal, view)  # no engine's name
                return view.say("{text!r} is not allowed: {refused}", text=text, refused=why or refused)
    return None


def _reason(state, refusal: core.Refusal, terminal, view: View) -> str:
    """An engine's refusal in the view's language: its seat (`player`) by the name the table shows, the other
    fields in the game terminal's words (`refusal_words`), a rule it quotes translated in turn."""
    fields = {
        key: _reason(state, value, terminal, view) if isinstance(value, core.Refusal) else value
        for key, value in refusal.fields.items()
    }
    if "player" in fields:
        fields["player"] = view.names[refusal.fields["player"]]
    if words := ports.refusal_words(terminal):
        fields |= words(state, refusal.fields, view)
    return view.say(refusal.message, **fields)


def _wrong(answer: str, fits: list[str], moves: int, view: View) -> str:
    if fits:
        shown = "; ".join(fits[:5]) + (" …" if len(fits) > 5 else "")
        return view.say(
            "{answer!r} fits {fits} moves ({shown}): type more of it or the number.",
            answer=answer,
            fits=len(fits),
            shown=shown,
        )
    return view.say(
        "{answer!r} is not a move: enter a number from 1 to {moves} or the move itself, ? for help or q.",
        answer=answer,
        moves=moves,
    )


def _help(terminal, view: View, moves: int) -> str:
    return "\n".join(
        [
            terminal.rules(view),
            "",
            view.say(
                "Input: the number of a move (1-{moves}) or the move itself (enough of it to name one move); ? "
                "this help; h the history (every trick or round revealed); q leaves the game (the record so far is "
                "saved), Ctrl-C too.",
                moves=moves,
            ),
        ]
    )


def _result(state, record: records.Record, view: View) -> Table:
    table = Table(
        view.say("player"),
        view.say("plays"),
        view.say("score"),
        "",
        title=view.say("Result"),
    )
    scores, winners = state.scores(), state.winners()
    for p, seat in enumerate(record.seats):
        won = view.say("wins") if p in winners else ""
        table.add_row(seat.name, seating.shown(seat.plays, view.lang), str(scores[p]), won)
    return table
