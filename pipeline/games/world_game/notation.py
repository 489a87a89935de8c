"""The World Game in a game record (docs/records.md): the deal is the cards' order (20 per player, then
the cards set aside); a move is the leader's fact ("area_km2", "population", "highest_point_m",
"land_neighbours") or "challenge", an answer ("answer" or "pass"), or a chance outcome ("right", "wrong")."""

from pipeline.games.world_game.engine import ANSWER, CHALLENGE, FACTS, PASS, RIGHT, WRONG, Game, State

WORDS = {**{fact: i for i, fact in enumerate(FACTS)}, "challenge": CHALLENGE, "answer": ANSWER, "pass": PASS}
OUTCOMES = {"wrong": WRONG, "right": RIGHT}


def card_ids(game: Game) -> tuple[str, ...]:
    """The ids of the cards a deal orders (`game.initial_state(deal)`): every card."""
    return game.ids


def _chance(state: State) -> bool:
    return bool(state.challenge and state.challenge["chance"])


def write(state: State, action: int) -> str:
    words = OUTCOMES if _chance(state) else WORDS
    return next(word for word, value in words.items() if value == action)


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move here."""
    if _chance(state):
        if text not in OUTCOMES:
            raise ValueError(f"{text!r} is not a chance outcome here: right or wrong")
        return OUTCOMES[text]
    if text not in WORDS:
        raise ValueError(f"{text!r} is not a World Game move: {', '.join(WORDS)}")
    return WORDS[text]
