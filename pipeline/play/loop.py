"""The play loop: deal, let each seat move (a human picks a numbered legal move, a bot its policy, chance
its odds), write every move into the record, save it at the end or when the human leaves."""

import random
from collections.abc import Callable
from pathlib import Path

import click
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.games import GameDefinition, core
from pipeline.play import seats as seating
from pipeline.play.view import View
from pipeline.records import record as records
from pipeline.records.tape import Recorder
from pipeline.render import layouts

QUIT = ("q", "quit", "exit")


class Left(Exception):
    """The human left the game (q, Ctrl-C or the end of the input)."""


def ask_terminal(prompt: str) -> str:
    return click.prompt(prompt, prompt_suffix=" ", show_default=False)


def play(
    definition: GameDefinition,
    deck: dict,
    seats: list[str],
    lang: str,
    seed: int,
    path: Path,
    console: Console,
    ask: Callable[[str], str] = ask_terminal,
    force: bool = False,
) -> tuple[records.Record, bool]:
    """Play one game at the terminal, its record at `path` saved after every move (an existing record is
    refused unless `force`); returns (record, whether it was finished)."""
    terminal = definition.terminal
    game = definition.engine.Game.from_deck(deck, players=len(seats))
    cards = {c["id"]: c["fields"] for c in deck["cards"]}
    view = View(lang, tuple(terminal.seat_names(len(seats), lang)), cards, layouts.load(definition.name))
    recorder = Recorder(path, deck, seating.named(seats, list(view.names)), seed, force)
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    recorder.save(state)
    levels = seating.bots(definition)
    policies = {p: levels[seat[4:]](game, rng) for p, seat in enumerate(seats) if seat != "human"}
    humans = [p for p, seat in enumerate(seats) if seat == "human"]
    finished = True
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == core.CHANCE:
                action = core.sample_chance(state, rng)
            elif seats[player] == "human":
                action = _choose(state, player, terminal, view, ask, console)
            else:
                action = policies[player](core.policy_input(state, policies[player]), rng)
            who = view.say("Zufall", "chance") if player == core.CHANCE else view.names[player]
            own = player in humans and len(humans) == 1
            console.print(
                f"[bold]{escape(who)}[/]: {escape(terminal.label(state, action, view, own))}", highlight=False
            )
            state.apply_action(action)
            recorder.save(state)
    except (click.Abort, KeyboardInterrupt, EOFError, Left):
        finished = False
    record = recorder.save(state)
    if not finished:
        console.print(
            view.say(
                f"\nSpiel nach Zug {len(record.moves)} verlassen; der Spielbericht bis hierher: {path}",
                f"\nLeft the game after move {len(record.moves)}; the record so far: {path}",
            ),
            highlight=False,
            markup=False,
        )
        return record, False
    console.print(terminal.board(state, humans[0] if humans else 0, view))
    console.print(_result(state, record, view))
    console.print(view.say(f"Spielbericht: {path}", f"Record: {path}"), highlight=False, markup=False, soft_wrap=True)
    return record, True


def _choose(state, player: int, terminal, view: View, ask, console: Console) -> int:
    legal = state.legal_actions()
    labels = [terminal.label(state, action, view, True) for action in legal]
    console.rule(view.say(f"{view.names[player]} ist am Zug", f"{view.names[player]} to move"))
    console.print(terminal.board(state, player, view))
    grid = terminal.moves(state, legal, view) if hasattr(terminal, "moves") else None
    console.print(grid or Columns([f"[bold]{i}[/] {escape(text)}" for i, text in enumerate(labels, 1)]))
    prompt = view.say(f"Zug (1-{len(legal)}, ? Hilfe, q Ende)", f"Move (1-{len(legal)}, ? help, q quit)")
    while True:
        answer = ask(prompt).strip()
        if answer == "?":
            console.print(_help(terminal, view, len(legal)))
        elif answer.lower() in QUIT:
            raise Left
        elif answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        else:
            fits = _fitting(answer, labels)
            if len(fits) == 1:
                return legal[fits[0]]
            console.print(_wrong(answer, [labels[i] for i in fits], len(legal), view), highlight=False, markup=False)


def _fitting(text: str, labels: list[str]) -> list[int]:
    """The moves a typed text names: the one it spells out (any case), else those containing it."""
    wanted = text.casefold()
    exact = [i for i, label in enumerate(labels) if label.casefold() == wanted]
    return exact or [i for i, label in enumerate(labels) if wanted and wanted in label.casefold()]


def _wrong(answer: str, fits: list[str], moves: int, view: View) -> str:
    if fits:
        shown = "; ".join(fits[:5]) + (" …" if len(fits) > 5 else "")
        return view.say(
            f"{answer!r} passt zu {len(fits)} Zügen ({shown}): tippe mehr davon oder die Nummer.",
            f"{answer!r} fits {len(fits)} moves ({shown}): type more of it or the number.",
        )
    return view.say(
        f"{answer!r} ist kein Zug: gib eine Zahl von 1 bis {moves} oder den Zug selbst ein, ? für Hilfe oder q.",
        f"{answer!r} is not a move: enter a number from 1 to {moves} or the move itself, ? for help or q.",
    )


def _help(terminal, view: View, moves: int) -> str:
    return "\n".join(
        [
            terminal.rules(view),
            "",
            view.say(
                f"Eingabe: die Nummer eines Zugs (1-{moves}) oder der Zug selbst (genug davon, dass er eindeutig "
                "ist); ? diese Hilfe; q beendet das Spiel (der Spielbericht bis dahin wird gespeichert), Strg-C "
                "ebenso.",
                f"Input: the number of a move (1-{moves}) or the move itself (enough of it to name one move); ? this "
                "help; q leaves the game (the record so far is saved), Ctrl-C too.",
            ),
        ]
    )


def _result(state, record: records.Record, view: View) -> Table:
    table = Table(
        view.say("Spieler", "player"),
        view.say("spielt", "plays"),
        view.say("Punkte", "score"),
        "",
        title=view.say("Ergebnis", "Result"),
    )
    scores, winners = state.scores(), state.winners()
    for p, seat in enumerate(record.seats):
        won = view.say("gewinnt", "wins") if p in winners else ""
        table.add_row(seat.name, seat.plays, str(scores[p]), won)
    return table
