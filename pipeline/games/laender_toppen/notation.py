"""Länder toppen! in a game record (docs/records.md): the deal is the cards' order (each hand in turn,
then the reserve from the top); a move names a card and where it goes: "lt-KAZ: area_km2 above" places a
hand card in a slot of the strip, "lt-BEL: Europe" or "lt-JAM: face down" puts a won card (or a joker back)
onto a pile. A choice at scoring (Russia or Turkey counted for the continent its owner names, not the
one best for them) is "lt-RUS: Asia"."""

import functools

from pipeline.games.laender_toppen.engine import Game, State


def card_ids(game: Game) -> tuple[str, ...]:
    """The ids of the cards a deal orders (`game.initial_state(deal)`): every card, jokers included."""
    return game.ids


@functools.lru_cache(maxsize=16)
def _positions(game: Game) -> dict[str, int]:
    """Each card id's position in the game's cards."""
    return {card: i for i, card in enumerate(game.ids)}


def write(state: State, action: int) -> str:
    game = state.game
    if state.pending:
        return f"{game.cards[state.pending[0][1]].id}: {game.pile_names[action]}"
    card, slot = divmod(action - game.place, game.slots)
    return f"{game.cards[card].id}: {game.slot_names[slot]}"


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move here."""
    game = state.game
    card, _, target = text.partition(": ")
    if target not in game.slot_names and target not in game.pile_names:
        raise ValueError(
            f"{text!r} is not a Länder toppen move: 'CARD: SLOT' (e.g. 'lt-KAZ: area_km2 above') or "
            f"'CARD: PILE' (a continent or 'face down')"
        )
    index = _positions(state.game).get(card)
    if index is None:
        raise ValueError(f"unknown card {card!r}: not a card of this deck")
    if target in game.slot_names:
        return game.place + index * game.slots + game.slot_names.index(target)
    if not state.pending:
        raise ValueError("no won card or joker is waiting for a pile; cards are being placed (rule: Placing cards)")
    waiting = state.pending[0][1]
    if waiting != index:
        raise ValueError(f"the card to put on a pile now is {state.game.cards[waiting].id}, not {card}")
    return game.pile_names.index(target)


def choices(state: State) -> list[str]:
    """The owners' own choices at scoring (Russia, Turkey), as text."""
    game = state.game
    return [f"{game.cards[card].id}: {game.groups[c]}" for card, c in sorted(state.continent_choices.items())]


def choose(state: State, text: str) -> None:
    """Apply a choice at scoring; ValueError for text that names no card and continent, IllegalAction (from
    the engine) for a choice the rules do not allow."""
    card, _, continent = text.partition(": ")
    index, groups = _positions(state.game).get(card), state.game.groups
    if index is None or continent not in groups:
        raise ValueError(f"{text!r} is no choice at scoring: 'CARD: CONTINENT', e.g. 'lt-RUS: Asia'")
    state.choose_continent(index, groups.index(continent))
