"""The grid game in a game record (docs/records.md): the deal is the place cards' order, a move is a guess
and the place card it goes under: "W de-03402000" (guesses N, S, W, O, most, fewest, M)."""

from pipeline.games.grid.engine import GUESSES, Game, State


def card_ids(game: Game) -> tuple[str, ...]:
    """The ids of the cards a deal orders (`game.initial_state(deal)`): the place cards; guess cards are not dealt."""
    return tuple(place.id for place in game.places)


def write(state: State, action: int) -> str:
    guess, position = divmod(action, len(state.places))
    return f"{GUESSES[guess]} {state.game.places[state.places[position]].id}"


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move on this table."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in GUESSES:
        raise ValueError(
            f"{text!r} is not a {state.game.title} move: a guess ({', '.join(GUESSES)}) and a place card id"
        )
    guess, card = parts
    if all(place.id != card for place in state.game.places):
        raise ValueError(f"unknown card {card!r}: not a place card of this deck")
    laid_out = [state.game.places[i].id for i in state.places]
    if card not in laid_out:
        raise ValueError(f"{card} is not laid out in this round (the places are {', '.join(laid_out)})")
    return GUESSES.index(guess) * len(state.places) + laid_out.index(card)
