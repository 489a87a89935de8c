"""The World Game at the terminal (`geodeck play world-game`): your top card, everybody's card count, the
challenge being set and answered, the last round, in any registered language (fact labels from the card layout)."""

from rich.console import Group
from rich.table import Table

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.games.world_game import answers
from pipeline.games.world_game.engine import (
    ANSWERED_WITH,
    CALL,
    CHALLENGE,
    CONTINENTS,
    FACTS,
    RULEBOOK_CHALLENGES,
    State,
    Turn,
)
from pipeline.games.world_game.own_map import own_map
from pipeline.i18n import names, registry
from pipeline.i18n.catalogue import N_
from pipeline.i18n.language import Language
from pipeline.play import pictures, seats
from pipeline.play.ports import Variant
from pipeline.play.view import View


def _kinds(value: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in value.split(",") if k.strip())
    if not kinds:
        raise ValueError("name the challenges, e.g. continent,flag")
    return kinds


def _seats_left(value: str) -> dict:
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"{value!r} is not a number of seats to the caller's left")
    return {"fixed_setter": int(value)}


def _children(value: str) -> dict:
    own = value.split("/")
    if len(own) != 2:
        raise ValueError("give each of the two players' challenges, e.g. continent/flag")
    return {"player_challenges": [list(_kinds(k)) for k in own]}


VARIANTS: dict[
    str, Variant
] = {  # the rulebook's variants: geodeck play world-game --variant challenges=continent,flag …
    "challenges": Variant(
        "challenges=KIND,…: the challenges in play (continent, flag, location, capital, location-reverse, "
        "capital-reverse; the rulebook's four by default)",
        lambda value: {"challenges": _kinds(value)},
    ),
    "reverse": Variant(
        "reverse: the four challenges and the reverse location and capital challenges",
        lambda value: {"challenges": (*RULEBOOK_CHALLENGES, "location-reverse", "capital-reverse")},
    ),
    "setter": Variant(
        "setter=K: the setter determined in advance: the player K seats to the caller's left", _seats_left
    ),
    "children": Variant("children=KINDS/KINDS: two players, each with their own challenges", _children),
}

KINDS = {  # the challenges' names
    "continent": N_("continent"),
    "flag": N_("flag"),
    "location": N_("location"),
    "capital": N_("capital"),
    "location-reverse": N_("location reverse"),
    "capital-reverse": N_("capital reverse"),
}
QUESTIONS = {  # what the setter asks, about the country on their top card
    "continent": N_("On which continent is {name}? (both, if two)"),
    "flag": N_("Which country has this flag?"),
    "location": N_("Which number does {name} have on the world map?"),
    "capital": N_("What is the capital of {name}?"),
    "location-reverse": N_("Which country has number {number} on the world map?"),
    "capital-reverse": N_("Which country's capital is {capital}?"),
}
OWN_MAP_QUESTIONS = {  # a deck with a map of its own (`own_map`): its map, as its kit says
    "location": N_("Which number does {name} have on the map?"),
    "location-reverse": N_("Which country has number {number} on the map?"),
}
ANSWERED = {  # what a challenge is answered with (engine.ANSWERED_WITH)
    "continents": N_("continents"),
    "map number": N_("map number"),
    "capital": N_("capital"),
    "country": N_("country"),
}
M49 = dict(zip(CONTINENTS, ("003", "005", "150", "002", "142", "009")))  # the continents' UN M49 codes (CLDR)


def seat_names(players: int, lang: Language) -> list[str]:
    return seats.numbered(players, lang)


def fact_label(fact: int, view: View) -> str:
    return view.layout.data["facts"][fact]["words"]["label"]


def fact_value(fact: int, number, view: View) -> str:
    """A fact's value with its unit as the cards print it ("357.588 km²", "2.962 m")."""
    return (
        "–"
        if number is None
        else placeholders.fill(view.layout.data["facts"][fact]["words"]["unit"], n=view.number(number))
    )


def progress(state: State) -> int:
    """How many rounds have been played (the play loop shows each as it ends)."""
    return state.rounds()


def revealed(state: State, index: int, view: View) -> str:
    """Round `index`, shown as it ends: the fact and every top card with its value and who took the cards
    and why; a tie with the next cards that broke it; a challenge with the question and the answers."""
    text = _last(state, state.turns[index], view, tie_cards=index == state.rounds() - 1)
    return view.say("Round {index}: ", index=index + 1) + text.split(": ", 1)[1]


def refusal_words(state: State, fields: dict, view: View) -> dict[str, str]:
    """The words of an engine's refusal: the move, the challenges and what one is answered with."""
    words = {
        "action": lambda v: label(state, v, view, True),
        "kinds": lambda v: ", ".join(view.say(KINDS[k]) for k in v),
        "kind": lambda v: view.say(KINDS[v]),
        "answered": lambda v: view.say(ANSWERED[v]),
    }
    return {key: words[key](value) for key, value in fields.items() if key in words}


def label(state: State, action: int, view: View, own: bool) -> str:
    """A fact, a challenge call, the setter's choice, an answer or a pass; another's answer or pass is sealed
    until every seat has answered (`own`: the player at the screen's own move)."""
    game = state.game
    if action >= game.pass_action and not own:
        return view.say("answers, sealed (or passes)")
    if action < CALL:
        return fact_label(action, view)
    if action < game.set_base:
        setter = view.names[(state.leader + action - CALL + 1) % state.players]
        return view.say("challenge, set by {setter}", setter=setter)
    if action < game.pass_action:
        kind = view.say(list(KINDS.values())[action - game.set_base])
        return view.say("set {kind}", kind=kind)
    if action == game.pass_action:
        return view.say("pass")
    return answer_label(*game.answers[action - game.answer_base], view)


def answer_label(answered: str, value, view: View) -> str:
    """An answer in the view's language: continents and countries by their printed names."""
    if answered == "continents":
        return view.say(" and ").join(view.layout.continent(c, view.lang)[0] for c in sorted(value))
    if answered == "country":
        return view.card(next((i for i, f in view.cards.items() if f.get("name_en") == value), value))
    if answered == "map number":
        return view.say("no. {value}", value=value)
    return str(value)


def right_answer(state: State, kind: str, card: int, view: View) -> str:
    """The answer to the `kind` challenge on `card`, shown after the challenge: every capital of a country
    with several (any one counts), in the view's language."""
    if kind == "capital":
        fields = view.cards.get(state.game.ids[card], {})
        capitals = fields.get(view.lang.field("capitals")) or []
        return view.say(" or ").join(capitals)
    return answer_label(*state.game.answers[state.game.right_answer(kind, card)], view)


def free_text(state: State, legal: list[int], view: View) -> str | None:
    """Answering a challenge is typed, not picked (the prompt); every other move is numbered (None)."""
    if state.game.pass_action not in legal:
        return None
    return view.say("Your answer (type it; - passes, ? help, q quit)")


def read(state: State, legal: list[int], text: str, view: View) -> int | str:
    """The answer action a typed text names (answers.py: any case, accents, any registered language, other
    common names, a small typo), the pass for "-", or one line saying the text names nothing (no candidates)."""
    game = state.game
    if answers.passes(text):
        return game.pass_action
    challenge = state.observation(state.current_player()).challenge
    answered = ANSWERED_WITH[challenge.kind] if challenge and challenge.kind else "country"
    offered = [a for a in legal if a != game.pass_action]
    if answered == "continents":
        one = {answers.normal(name): key for key in _continent_keys(game) for name in _continent_names(key, view)}
        action = _action(game, answered, answers.continent_sets(text, one))
    elif answered == "map number":
        digits = "".join(c for c in text if c.isascii() and c.isdigit())
        action = _action(game, answered, int(digits) if digits else None)
    else:
        names = {a: answers.names(answered, game.answers[a - game.answer_base][1], view.cards, {}) for a in offered}
        action = answers.Matcher(names).match(text)
    if action is not None and action in offered:
        return action
    what = {
        "continents": view.say("no continent"),
        "map number": view.say("no number on the map"),
        "capital": view.say("no capital on the cards"),
        "country": view.say("no country on the cards"),
    }[answered]
    return view.say("{text!r} names {what}: type the answer again (spelling) or - to pass.", text=text, what=what)


def _action(game, answered: str, value) -> int | None:
    index = game.answer_index.get((answered, value))
    return None if index is None else game.answer_base + index


def _continent_keys(game) -> list[str]:
    return sorted({c for (answered, value) in game.answers if answered == "continents" for c in value})


def _continent_names(key: str, view: View) -> list[str]:
    """A continent's names an answer may use: its key, its printed name and CLDR's name in every registered
    language."""
    if key not in CONTINENTS:
        return [key]
    named = (names.territory(M49[key], lang) for lang in registry.languages().values())
    return [key, view.layout.continent(key, view.lang)[0], *(name for name in named if name)]


def question(kind: str, card_id: str, view: View) -> str:
    """The setter's question; a flag's is asked with its picture (`board`), never its letters or code; a
    location on the deck's own map where it has one (as its kit says)."""
    fields = view.cards.get(card_id, {})
    capitals = fields.get("capitals") or ["–"]
    asked = (OWN_MAP_QUESTIONS if own_map(view.deck) else QUESTIONS).get(kind, QUESTIONS[kind])
    return view.say(asked, name=view.card(card_id), number=fields.get("map_number"), capital=capitals[0])


def refused(game, view: View) -> str | None:
    """Why a human cannot play this game here: the flag challenge in play, and a terminal that can draw no
    flag (no colours, or no flag files in the snapshot store); None when they can."""
    if not any("flag" in game.challenges_for(p) for p in range(game.num_players())):
        return None
    fix = view.say("play without it: --variant challenges=continent,location,capital")
    if view.flag is None and pictures.colours_off():
        return view.say("the flag challenge needs colours, which NO_COLOR turns off: unset NO_COLOR, or {fix}", fix=fix)
    if view.flag is None:
        return view.say(
            "the flag challenge needs a terminal that shows a flag as a picture (256 colours or more); {fix}", fix=fix
        )
    try:
        view.flag(game.card_fields[0]["flag"])
    except GeodeckError as exc:
        return view.say("cannot draw the flags ({exc}); {fix}", exc=exc, fix=fix)
    return None


def board(state: State, player: int, view: View) -> Group:
    """What `player` sees (their observation): the cards each player holds, the last round, a challenge
    being set or answered (the setter's question about their top card), their own top card."""
    seen = state.observation(player)
    counts = " · ".join(f"{name} {n}" for name, n in zip(view.names, seen.counts))
    parts: list = [view.say("Cards: ") + counts]
    if seen.last_turn:
        parts.append(_last(state, seen.last_turn, view))
    if seen.challenge:
        caller, setter = view.names[seen.challenge.caller], view.names[seen.challenge.setter]
        text = view.say("{caller} calls a challenge, {setter} sets it", caller=caller, setter=setter)
        if seen.challenge.kind:
            card = state.game.ids[state.stacks[seen.challenge.setter][0]]
            text += f": {question(seen.challenge.kind, card, view)}"
        parts.append(text)
        if seen.challenge.kind == "flag" and view.flag is not None:  # the picture, as the setter shows it
            parts.append(view.flag(view.cards[card]["flag"]))
    if seen.top is not None and seen.top_values is not None and not state.is_terminal():
        table = Table(
            *[fact_label(f, view) for f in range(len(FACTS))],
            title=view.say("{name}'s top card: ", name=view.names[player]) + view.card(state.game.ids[seen.top]),
        )
        table.add_row(*[fact_value(f, v, view) for f, v in enumerate(seen.top_values)])
        parts.append(table)
    return Group(*parts)


def _last(state: State, turn: Turn, view: View, tie_cards: bool = False) -> str:
    """The round `turn` ("Last round: …"); `tie_cards` (only right after the round, while the won cards lie
    at the bottom of the winner's stack in the order revealed) names the next cards that broke a tie."""
    leader, winner = view.names[turn.leader], view.names[turn.winner]
    if turn.action == CHALLENGE and turn.kind and turn.card is not None and turn.setter is not None:
        answers = ", ".join(
            view.names[p] + " " + (view.say("right") if right else view.say("wrong")) for p, right in turn.answers
        )
        asked = question(turn.kind, state.game.ids[turn.card], view)
        right = right_answer(state, turn.kind, turn.card, view)
        return view.say(
            "Last round: {leader} called a challenge, {setter} asked “{asked}” ({answers}; the answer: {right}) → "
            "{winner}",
            leader=leader,
            setter=view.names[turn.setter],
            asked=asked,
            right=right,
            winner=winner,
            answers=answers or view.say("nobody answered"),
        )
    fact = turn.action
    shown = ", ".join(f"{view.names[p]} {_card_value(state, c, fact, view)}" for p, c in turn.top)
    taken = sum(len(cards) for cards in _won(state, turn).values()) if tie_cards else len(turn.top)
    why = view.say("takes {taken} cards, highest value", taken=taken)
    if len(turn.best) > 1:
        tied = " & ".join(view.names[p] for p in turn.best)
        why = view.say("a tie of {tied}", tied=tied)
        if tie_cards:
            nexts = "; ".join(
                f"{view.names[p]} " + " / ".join(_card_value(state, c, fact, view) for c in cards[1:])
                for p, cards in _won(state, turn).items()
                if len(cards) > 1
            )
            why += view.say(
                ", the next cards: {nexts}; {winner} takes {taken} cards", nexts=nexts, winner=winner, taken=taken
            )
    return view.say(
        "Last round: {leader} chose {fact}: {shown} → {winner} ({why})",
        leader=leader,
        fact=fact_label(fact, view),
        shown=shown,
        winner=winner,
        why=why,
    )


def _card_value(state: State, card: int, fact: int, view: View) -> str:
    return f"{view.card(state.game.ids[card])} {fact_value(fact, state.game.values[card][fact], view)}"


def _won(state: State, turn: Turn) -> dict[int, list[int]]:
    """The cards each player revealed in the fact round just played, top card first: the winner took them
    to the bottom of their stack, their own first, then the others' clockwise, each in the order revealed."""
    stack = list(state.stacks[turn.winner])
    tops = {card: p for p, card in turn.top}
    own_top = next(card for p, card in turn.top if p == turn.winner)
    found: dict[int, list[int]] = {}
    for card in stack[stack.index(own_top) :]:
        if card in tops:
            found[tops[card]] = []
        found[list(found)[-1]].append(card)
    return found


def rules(view: View) -> str:
    return view.say(
        "The World Game: the player to move names a fact of their top card (area, population, highest point, "
        "neighbouring countries): the highest value takes every revealed card (a tie: the next card decides); or "
        "calls a challenge and chooses who sets it: the setter asks about their top card (continent, flag, "
        "location, capital). Everyone but the setter answers sealed (or passes), the caller first, then clockwise; "
        "then all are revealed: the first right answer clockwise from the caller wins, else the setter. To answer "
        "type the answer itself (any case, accents, any language; - passes). Won cards go under your stack. "
        "With 2 players whoever holds every card wins; otherwise the game ends when a player has no card left."
    )
