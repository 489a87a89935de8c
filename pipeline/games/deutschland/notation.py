"""Deutschland in a game record (docs/records.md): the deal is the place cards' order, a move is a guess
and the place card it goes under: "W de-03402000" (guesses N, S, W, O, most, fewest, M)."""

from pipeline.games.deutschland.engine import GUESSES, Game, State, _card


def card_ids(game: Game) -> tuple[str, ...]:
    """The ids a deal orders: the place cards (the guess cards are not dealt)."""
    return tuple(place.id for place in game.places)


def start(game: Game, order: list[int]) -> State:
    return State(game, order)


def deal(state: State) -> list[str]:
    """The place cards of a fresh state in the order they are laid out."""
    order = [*state.places, *state.stack[::-1]]
    return [state.game.places[i].id for i in order]


def write(state: State, action: int) -> str:
    guess, position = divmod(action, len(state.places))
    return f"{GUESSES[guess]} {state.game.places[state.places[position]].id}"


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move on this table."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in GUESSES:
        raise ValueError(f"{text!r} is not a Deutschland move: a guess ({', '.join(GUESSES)}) and a place card id")
    guess, card = parts
    if all(place.id != card for place in state.game.places):
        raise ValueError(f"unknown card {card!r}: not a place card of this deck")
    laid_out = [state.game.places[i].id for i in state.places]
    if card not in laid_out:
        raise ValueError(f"{card} is not laid out in this round (the places are {', '.join(laid_out)})")
    return GUESSES.index(guess) * len(state.places) + laid_out.index(card)


def why_illegal(state: State, action: int) -> str:
    """The rule an illegal action breaks (rulebook: Playing guess cards)."""
    if state.is_terminal():
        return "the game is over"
    guess = action // len(state.places)
    player = state.current_player()
    if _card(guess) in state.used[player]:
        return (
            f"player {player} has played the {GUESSES[_card(guess)]} card already this round "
            "(rule: 3 guess cards per round, each card once; W and M are one card)"
        )
    return "with 2 players a guess the other player placed this round may not be placed (rule: two players)"
