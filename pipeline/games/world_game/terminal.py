"""The World Game at the terminal (`geodeck play world-game`): your top card, everybody's card count, the
challenge being answered and the last round, in German or English (fact labels from the card layout)."""

from rich.console import Group
from rich.table import Table

from pipeline.games.world_game.engine import ANSWER, CHALLENGE, FACTS, RIGHT, State, Turn
from pipeline.play.view import View


def seat_names(players: int, lang: str) -> list[str]:
    return [f"{'Spieler' if lang == 'de' else 'Player'} {p + 1}" for p in range(players)]


def fact_label(fact: int, view: View) -> str:
    return view.layout.data["facts"][fact][view.lang]["label"]


def label(state: State, action: int, view: View, own: bool) -> str:
    """The leader's fact or challenge, an answer or a pass, or the outcome of an answer (all public)."""
    if state.challenge and state.challenge["chance"]:
        answering, right = view.names[state.challenge["answering"]], action == RIGHT
        return view.say(
            f"{answering} antwortet {'richtig' if right else 'falsch'}",
            f"{answering} answers {'right' if right else 'wrong'}",
        )
    if state.challenge:
        return view.say("antworten", "answer") if action == ANSWER else view.say("passen", "pass")
    return view.say("Herausforderung", "challenge") if action == CHALLENGE else fact_label(action, view)


def board(state: State, player: int, view: View) -> Group:
    """What `player` sees (their observation): the cards each player holds, the last round, a challenge
    being answered (its setter names their country, as the rulebook says), their own top card."""
    seen = state.observation(player)
    counts = " · ".join(f"{name} {n}" for name, n in zip(view.names, seen.counts))
    parts: list = [view.say("Karten: ", "Cards: ") + counts]
    if seen.turns:
        parts.append(_last(state, seen.turns[-1], view))
    if seen.challenge:
        setter = seen.challenge[0]
        country = view.card(state.game.ids[state.stacks[setter][0]])
        parts.append(
            view.say(
                f"Herausforderung von {view.names[seen.leader]}: {view.names[setter]} fragt nach {country}",
                f"Challenge called by {view.names[seen.leader]}: {view.names[setter]} asks about {country}",
            )
        )
    if seen.top is not None and seen.top_values is not None and not state.is_terminal():
        table = Table(
            *[fact_label(f, view) for f in range(len(FACTS))],
            title=view.say(f"Oberste Karte von {view.names[player]}: ", f"{view.names[player]}'s top card: ")
            + view.card(state.game.ids[seen.top]),
        )
        table.add_row(*[view.number(v) for v in seen.top_values])
        parts.append(table)
    return Group(*parts)


def _last(state: State, turn: Turn, view: View) -> str:
    leader, winner = view.names[turn.leader], view.names[turn.winner]
    if turn.action == CHALLENGE:
        answers = ", ".join(
            f"{view.names[p]} {view.say('richtig', 'right') if right else view.say('falsch', 'wrong')}"
            for p, right in turn.answers
        )
        return view.say(
            f"Letzte Runde: {leader} rief eine Herausforderung ({answers or 'niemand antwortete'}) → {winner}",
            f"Last round: {leader} called a challenge ({answers or 'nobody answered'}) → {winner}",
        )
    shown = ", ".join(
        f"{view.names[p]} {view.card(state.game.ids[c])} {view.number(state.game.values[c][turn.action])}"
        for p, c in turn.top
    )
    return view.say(
        f"Letzte Runde: {leader} wählte {fact_label(turn.action, view)}: {shown} → {winner}",
        f"Last round: {leader} chose {fact_label(turn.action, view)}: {shown} → {winner}",
    )


def rules(view: View) -> str:
    return view.say(
        "The World Game: Wer am Zug ist, nennt einen Fakt seiner obersten Karte (Fläche, Einwohner, höchster "
        "Punkt, Nachbarländer): der höchste Wert nimmt alle aufgedeckten Karten (Gleichstand: die nächste Karte "
        "entscheidet); oder ruft eine Herausforderung: der Spieler links stellt sie, wer zuerst richtig "
        "antwortet, gewinnt, sonst der Steller. Gewonnene Karten kommen unter den eigenen Stapel. Zu zweit "
        "gewinnt, wer alle Karten hat; sonst endet das Spiel, sobald jemand keine Karte mehr hat.",
        "The World Game: the player to move names a fact of their top card (area, population, highest point, "
        "neighbouring countries): the highest value takes every revealed card (a tie: the next card decides); "
        "or calls a challenge: the player to the left sets it, the first right answer wins, else the setter. "
        "Won cards go under your stack. With 2 players whoever holds every card wins; otherwise the game ends "
        "when a player has no card left.",
    )
