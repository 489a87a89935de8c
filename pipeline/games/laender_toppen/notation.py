"""Länder toppen! in a game record (docs/records.md): the deal is the cards' order (each hand in turn,
then the reserve from the top); a move names a card and where it goes: "lt-KAZ: area_km2 above" places a
hand card in a slot of the strip, "lt-BEL: Europe" or "lt-JAM: face down" puts a won card (or a joker back)
onto a pile."""

from pipeline.games.laender_toppen.engine import (
    CONTINENTS,
    FACE_DOWN,
    JOKER,
    PLACE,
    SLOTS,
    Game,
    State,
    _Split,
    slot_name,
)

PILES = (*CONTINENTS, "face down")
SLOT_NAMES = tuple(slot_name(s) for s in range(SLOTS))
SPLITTING, ANTARCTICA = "rule: Splitting the tricks", "rule: Card notes, Antarctica"


def card_ids(game: Game) -> tuple[str, ...]:
    return tuple(card.id for card in game.cards)


def start(game: Game, order: list[int]) -> State:
    return State(game, order)


def deal(state: State) -> list[str]:
    """The hands of a fresh state, seat by seat, then the reserve from the top."""
    order = [card for hand in state.hands for card in hand] + state.reserve[::-1]
    return [state.game.cards[i].id for i in order]


def write(state: State, action: int) -> str:
    cards = state.game.cards
    if state.pending:
        return f"{cards[state.pending[0][1]].id}: {PILES[action]}"
    card, slot = divmod(action - PLACE, SLOTS)
    return f"{cards[card].id}: {SLOT_NAMES[slot]}"


def read(state: State, text: str) -> int:
    """The action of a move; ValueError naming the problem for text that is no move here."""
    card, _, target = text.partition(": ")
    if target not in SLOT_NAMES and target not in PILES:
        raise ValueError(
            f"{text!r} is not a Länder toppen move: 'CARD: SLOT' (e.g. 'lt-KAZ: area_km2 above') or "
            f"'CARD: PILE' (a continent or 'face down')"
        )
    index = next((i for i, c in enumerate(state.game.cards) if c.id == card), None)
    if index is None:
        raise ValueError(f"unknown card {card!r}: not a card of this deck")
    if target in SLOT_NAMES:
        return PLACE + index * SLOTS + SLOT_NAMES.index(target)
    if not state.pending:
        raise ValueError("no won card or joker is waiting for a pile; cards are being placed (rule: Placing cards)")
    waiting = state.pending[0][1]
    if waiting != index:
        raise ValueError(f"the card to put on a pile now is {state.game.cards[waiting].id}, not {card}")
    return PILES.index(target)


def why_illegal(state: State, action: int) -> str:
    """The rule an illegal action breaks (rulebook: Placing cards, Splitting the tricks, Joker cards, Card notes)."""
    if state.is_terminal():
        return "the game is over"
    game = state.game
    if state.pending:
        player, card, rule = state.pending[0]
        if rule == JOKER:
            return "a joker goes back face up onto one of its two continents (rule: Joker cards)"
        if action != FACE_DOWN and action not in game.cards[card].continents:
            return f"{game.cards[card].id} may go only onto a pile of its continent or face down ({SPLITTING})"
        if isinstance(rule, _Split):
            return f"a trick of 2+ cards puts at least one card face down and one on a continent pile ({SPLITTING})"
        return f"player {player} decides where this card goes"
    if action < PLACE:
        return "the cards are being placed; no trick is being split (rule: Placing cards)"
    card, slot = divmod(action - PLACE, SLOTS)
    player = state.current_player()
    if card not in state.hands[player]:
        return f"{game.cards[card].id} is not in player {player}'s hand"
    if state.strips[player][slot] is not None:
        return f"player {player} has a card in {SLOT_NAMES[slot]} already (rule: one card per category above and below)"
    if slot not in game.allowed[card]:
        return f"{game.cards[card].id} may not be placed in {SLOT_NAMES[slot]}: it has no value there ({ANTARCTICA})"
    return f"then a card without a value in some categories (Antarctica) would have no slot left ({ANTARCTICA})"
