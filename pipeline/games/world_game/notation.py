"""The World Game in a game record (docs/records.md): the deal is the cards' order (20 per player, then
the cards set aside); a move is the leader's fact ("area_km2", "population", "highest_point_m",
"land_neighbours") or "challenge", an answer ("answer" or "pass"), or a chance outcome ("right", "wrong")."""

from pipeline.games.world_game.engine import ANSWER, CHALLENGE, FACTS, PASS, RIGHT, WRONG, Game, State

WORDS = {**{fact: i for i, fact in enumerate(FACTS)}, "challenge": CHALLENGE, "answer": ANSWER, "pass": PASS}
OUTCOMES = {"wrong": WRONG, "right": RIGHT}


def card_ids(game: Game) -> tuple[str, ...]:
    return game.ids


def start(game: Game, order: list[int]) -> State:
    return State(game, order)


def deal(state: State) -> list[str]:
    """Each player's stack from the top, player by player, then the cards set aside."""
    order = [card for stack in state.stacks for card in stack] + list(state.set_aside)
    return [state.game.ids[i] for i in order]


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


def why_illegal(state: State, action: int) -> str:
    """The rule an illegal action breaks (rulebook: Option A and Option B)."""
    if state.is_terminal():
        return "the game is over"
    if state.challenge:
        return "a challenge is being answered: the player asked answers or passes (rule: Option B)"
    if action == CHALLENGE:
        return "challenges are not played in this game (option challenges=false)"
    return "the leader names a fact of their top card or sets a challenge, nothing else (rule: Option A/B)"
