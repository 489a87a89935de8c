"""The World Game in a game record (docs/records.md): the deal is the cards' order (20 per player, then the
cards set aside). A move is the leader's fact ("area_km2", "population", "highest_point_m",
"land_neighbours") or a challenge call ("call +1": set by the player one seat to the left, "call +2" …);
the setter's choice ("set continent", "set flag", "set location", "set capital", "set location-reverse",
"set capital-reverse"); an answer ("answer capital: Paris", "answer continents: Asia and Europe",
"answer country: France", "answer map number: 57") or "pass"."""

import functools

from pipeline.games.world_game.engine import FACTS, KINDS, Game, State, answer_text


def card_ids(game: Game) -> tuple[str, ...]:
    """The ids of the cards a deal orders (`game.initial_state(deal)`): every card."""
    return game.ids


@functools.lru_cache(maxsize=16)
def _names(game: Game) -> tuple[str, ...]:
    """Every action's text, by action number."""
    names = [*FACTS, *(f"call +{k}" for k in range(1, game.call_actions + 1))]
    names += [f"set {kind}" for kind in KINDS] + ["pass"]
    names += [f"answer {kind}: {answer_text(value)}" for kind, value in game.answers]
    return tuple(names)


@functools.lru_cache(maxsize=16)
def _actions(game: Game) -> dict[str, int]:
    return {name: action for action, name in enumerate(_names(game))}


def write(state: State, action: int) -> str:
    return _names(state.game)[action]


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move of this game."""
    action = _actions(state.game).get(text)
    if action is None:
        kind, _, value = text.partition(": ")
        if kind.startswith("answer "):
            raise ValueError(f"{text!r}: no card of this deck has the {kind[7:]} {value!r}")
        raise ValueError(
            f"{text!r} is not a World Game move: a fact ({', '.join(FACTS)}), call +K, set KIND, pass or "
            "answer KIND: VALUE"
        )
    return action
