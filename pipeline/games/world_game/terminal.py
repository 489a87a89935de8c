"""The World Game at the terminal (`geodeck play world-game`): your top card, everybody's card count, the
challenge being set and answered, the last round, in German or English (fact labels from the card layout)."""

from rich.console import Group
from rich.table import Table

from pipeline.games.world_game.engine import CALL, CHALLENGE, FACTS, State, Turn
from pipeline.play.view import View

KINDS = {
    "de": {
        "continent": "Kontinent",
        "flag": "Flagge",
        "location": "Lage",
        "capital": "Hauptstadt",
        "location-reverse": "Lage rückwärts",
        "capital-reverse": "Hauptstadt rückwärts",
    },
    "en": {
        "continent": "continent",
        "flag": "flag",
        "location": "location",
        "capital": "capital",
        "location-reverse": "location reverse",
        "capital-reverse": "capital reverse",
    },
}
QUESTIONS = {  # what the setter asks, about the country on their top card
    "de": {
        "continent": "Auf welchem Kontinent liegt {name}? (zwei, wenn es zwei sind)",
        "flag": "Welches Land hat diese Flagge? {flag}",
        "location": "Welche Nummer hat {name} auf der Weltkarte?",
        "capital": "Wie heißt die Hauptstadt von {name}?",
        "location-reverse": "Welches Land hat auf der Weltkarte die Nummer {number}?",
        "capital-reverse": "Welches Land hat die Hauptstadt {capital}?",
    },
    "en": {
        "continent": "On which continent is {name}? (both, if two)",
        "flag": "Which country has this flag? {flag}",
        "location": "Which number does {name} have on the world map?",
        "capital": "What is the capital of {name}?",
        "location-reverse": "Which country has number {number} on the world map?",
        "capital-reverse": "Which country's capital is {capital}?",
    },
}


def seat_names(players: int, lang: str) -> list[str]:
    return [f"{'Spieler' if lang == 'de' else 'Player'} {p + 1}" for p in range(players)]


def fact_label(fact: int, view: View) -> str:
    return view.layout.data["facts"][fact][view.lang]["label"]


def label(state: State, action: int, view: View, own: bool) -> str:
    """A fact, a challenge call, the setter's choice, an answer or a pass (every move is public)."""
    game = state.game
    if action < CALL:
        return fact_label(action, view)
    if action < game.set_base:
        setter = view.names[(state.leader + action - CALL + 1) % state.players]
        return view.say(f"Herausforderung, gestellt von {setter}", f"challenge, set by {setter}")
    if action < game.pass_action:
        kind = KINDS[view.lang][list(KINDS["en"])[action - game.set_base]]
        return view.say(f"{kind} stellen", f"set {kind}")
    if action == game.pass_action:
        return view.say("passen", "pass")
    return answer_label(*game.answers[action - game.answer_base], view)


def answer_label(answered: str, value, view: View) -> str:
    """An answer in the view's language: continents and countries by their printed names."""
    if answered == "continents":
        return view.say(" und ", " and ").join(view.layout.continent(c, view.lang)[0] for c in sorted(value))
    if answered == "country":
        return view.card(next((i for i, f in view.cards.items() if f.get("name_en") == value), value))
    if answered == "map number":
        return view.say(f"Nr. {value}", f"no. {value}")
    return str(value)


def question(kind: str, card_id: str, view: View) -> str:
    fields = view.cards.get(card_id, {})
    iso2 = fields.get("iso2") or ""
    flag = "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in iso2.upper() if "A" <= c <= "Z")
    capitals = fields.get("capitals") or ["–"]
    return QUESTIONS[view.lang][kind].format(
        name=view.card(card_id), flag=flag, number=fields.get("map_number"), capital=capitals[0]
    )


def board(state: State, player: int, view: View) -> Group:
    """What `player` sees (their observation): the cards each player holds, the last round, a challenge
    being set or answered (the setter's question about their top card), their own top card."""
    seen = state.observation(player)
    counts = " · ".join(f"{name} {n}" for name, n in zip(view.names, seen.counts))
    parts: list = [view.say("Karten: ", "Cards: ") + counts]
    if seen.last_turn:
        parts.append(_last(state, seen.last_turn, view))
    if seen.challenge:
        caller, setter = view.names[seen.challenge.caller], view.names[seen.challenge.setter]
        text = view.say(
            f"{caller} ruft eine Herausforderung, {setter} stellt sie", f"{caller} calls a challenge, {setter} sets it"
        )
        if seen.challenge.kind:
            card = state.game.ids[state.stacks[seen.challenge.setter][0]]
            text += f": {question(seen.challenge.kind, card, view)}"
        parts.append(text)
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
    if turn.action == CHALLENGE and turn.kind and turn.card is not None and turn.setter is not None:
        answers = ", ".join(
            f"{view.names[p]} {view.say('richtig', 'right') if right else view.say('falsch', 'wrong')}"
            for p, right in turn.answers
        )
        asked = question(turn.kind, state.game.ids[turn.card], view)
        return view.say(
            f"Letzte Runde: {leader} rief eine Herausforderung, {view.names[turn.setter]} fragte „{asked}“ "
            f"({answers or 'niemand antwortete'}) → {winner}",
            f"Last round: {leader} called a challenge, {view.names[turn.setter]} asked “{asked}” "
            f"({answers or 'nobody answered'}) → {winner}",
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
        "entscheidet); oder ruft eine Herausforderung und wählt, wer sie stellt: der stellt eine Frage zu "
        "seiner obersten Karte (Kontinent, Flagge, Lage, Hauptstadt). Der Rufer antwortet zuerst, dann die "
        "anderen im Uhrzeigersinn (oder passen); die erste richtige Antwort gewinnt, sonst der Steller. "
        "Antworten: Nummer des Zugs oder die Antwort selbst eintippen. Gewonnene Karten kommen unter den "
        "eigenen Stapel. Zu zweit gewinnt, wer alle Karten hat; sonst endet das Spiel, sobald jemand keine "
        "Karte mehr hat.",
        "The World Game: the player to move names a fact of their top card (area, population, highest point, "
        "neighbouring countries): the highest value takes every revealed card (a tie: the next card decides); "
        "or calls a challenge and chooses who sets it: the setter asks about their top card (continent, flag, "
        "location, capital). The caller answers first, then the others clockwise (or pass); the first right "
        "answer wins, else the setter. To answer type the move's number or the answer itself. Won cards go "
        "under your stack. With 2 players whoever holds every card wins; otherwise the game ends when a "
        "player has no card left.",
    )
