"""Länder toppen! at the terminal (`geodeck play laender-toppen`): your hand and strip, the last trick, the
piles and points of every player, in any registered language (labels from the card layout)."""

from rich.console import Group
from rich.table import Table
from rich.text import Text

from pipeline.games.laender_toppen.engine import CONTINENTS, State, Trick
from pipeline.i18n.catalogue import N_
from pipeline.i18n.language import Language
from pipeline.play import seats
from pipeline.play.ports import Variant
from pipeline.play.view import View
from pipeline.render.numbers import with_unit

VARIANTS: dict[str, Variant] = {  # the rulebook's variants: geodeck play laender-toppen --variant fast
    "fast": Variant("fast: the faster game: no splitting, the most cards won wins", lambda value: {"fast": True}),
}

SHORT = (  # pile headings of the piles table: the continents, then the face-down pile
    N_("N Am."),
    N_("S Am."),
    N_("Eur."),
    N_("Afr."),
    N_("Asia"),
    N_("Oce."),
    N_("Antarc."),
    N_("down"),
)


def seat_names(players: int, lang: Language) -> list[str]:
    return seats.numbered(players, lang)


def category(index: int, view: View) -> str:
    return view.layout.data["categories"][index]["words"]["label"]


def value(index: int, number, view: View) -> str:
    """A category's value with its unit as the cards print it, in the category's pattern ("1.285.216 km²",
    "US$45,000", "77,0 Jahre")."""
    row = view.layout.data["categories"][index]
    return "–" if number is None else with_unit(number, view.lang, row["pattern"], row["words"]["unit"])


def slot_label(slot: int, view: View) -> str:
    index, below = divmod(slot, 2)
    side = view.say("below") if below else view.say("above")
    return f"{category(index, view)} {side}"


def pile_label(state: State, pile: int, view: View) -> str:
    """A pile: face down, or a group's (a continent by its printed name, another group as the deck names it)."""
    groups = state.game.groups
    if pile == len(groups):
        return view.say("face down")
    return view.layout.continent(groups[pile], view.lang)[0] if groups[pile] in CONTINENTS else groups[pile]


def card_label(state: State, card: int, view: View) -> str:
    found = state.game.cards[card]
    if found.joker:
        joker = view.layout.words(view.lang)["joker"]
        return f"{joker} " + "/".join(pile_label(state, c, view) for c in found.continents)
    return view.card(found.id)


def refusal_words(state: State, fields: dict, view: View) -> dict[str, str]:
    """The words of an engine's refusal: the cards, slot, pile, move and continents it names."""
    words = {
        "card": lambda v: card_label(state, v, view),
        "held": lambda v: card_label(state, v, view),
        "slot": lambda v: slot_label(v, view),
        "pile": lambda v: pile_label(state, v, view),
        "action": lambda v: label(state, v, view, True),
        "continents": lambda v: ", ".join(pile_label(state, c, view) for c in v),
    }
    return {key: words[key](value) for key, value in fields.items() if key in words}


def label(state: State, action: int, view: View, own: bool) -> str:
    """A card onto a pile (public), or a hand card into a slot (face down: only its owner sees which)."""
    if state.pending:
        return f"{card_label(state, state.pending[0][1], view)} → {pile_label(state, action, view)}"
    card, slot = divmod(action - state.game.place, state.game.slots)
    if not own:
        return view.say("places a card face down at the strip")
    return f"{card_label(state, card, view)} → {slot_label(slot, view)}"


def moves(state: State, legal: list[int], view: View) -> Table | None:
    """Placing: the numbered moves as a grid, a row per hand card and a column per slot (None otherwise)."""
    if state.pending:
        return None
    number = {action: i for i, action in enumerate(legal, 1)}
    place, slots = state.game.place, state.game.slots
    up, down = view.say("▲ above"), view.say("▼ below")
    table = Table(
        view.say("card"),
        *[f"{category(s // 2, view)}\n{down if s % 2 else up}" for s in range(slots)],
        title=view.say("Moves: a card into a slot"),
    )
    for card in sorted({(a - place) // slots for a in legal}):  # the hand's order: numbers grow row by row
        cells = [str(number.get(place + card * slots + s, "")) for s in range(slots)]
        table.add_row(card_label(state, card, view), *cells)
    return table


def board(state: State, player: int, view: View) -> Group:
    """What `player` sees (their observation): the last trick, everybody's piles and points, their own hand
    and strip."""
    seen = state.observation(player)
    rounds = state.game.rounds
    shown = min(seen.round + 1, rounds)
    parts: list = [Text(view.say("Round {round} of {rounds}", round=shown, rounds=rounds), style="bold")]
    if seen.tricks:
        parts.append(view.say("Last: ") + _trick(state, seen.tricks[-1], view))
    parts.append(_piles(state, seen.piles, view))
    if seen.hand:
        parts.append(_hand(state, seen.hand, player, view))
    placed = [
        view.labelled(slot_label(s, view), card_label(state, c, view))
        for s, c in enumerate(seen.strip)
        if c is not None
    ]
    if placed:
        parts.append(view.say("Your strip: ") + "; ".join(placed))
    return Group(*parts)


def progress(state: State) -> int:
    """How many tricks have been revealed (the play loop shows each as it is revealed)."""
    return len(state.tricks)


def revealed(state: State, index: int, view: View) -> str:
    """Trick `index` as revealed: every card with its value and unit, who took it and why (highest above,
    lowest below; a tie: each tied player keeps their own card, the others' cards leave the game)."""
    trick = state.tricks[index]
    return view.say("Round {round}: ", round=trick.round + 1) + _trick(state, trick, view)


def _trick(state: State, trick: Trick, view: View) -> str:
    index, below = divmod(trick.slot, 2)
    played = ", ".join(
        f"{view.names[p]} {card_label(state, c, view)} {value(index, state.game.cards[c].values[index], view)}"
        for p, c in trick.played
    )
    winners = " & ".join(view.names[p] for p in trick.winners)
    why = view.say("lowest value") if below else view.say("highest value")
    if len(trick.winners) > 1:
        why = view.say("a tie for the {why}: each keeps their own card, the others leave the game", why=why)
    elif len(trick.played) == 1:
        why = view.say("the only country card")
    return view.say(
        "Trick {slot}: {played} → {winners} ({why})",
        slot=slot_label(trick.slot, view),
        played=played,
        winners=winners,
        why=why,
    )


def cards_seen(state: State, player: int, view: View) -> list[tuple[str, list[tuple[str, str]]]]:
    """The cards `player` sees, as a page draws them (the studio): their hand, the last trick and their strip."""

    def named(cards) -> list[tuple[str, str]]:
        return [(state.game.cards[card].id, card_label(state, card, view)) for card in cards]

    seen = state.observation(player)
    places = [
        (view.say("Your hand"), named(seen.hand)),
        (view.say("The last trick"), named(card for _player, card in seen.tricks[-1].played) if seen.tricks else []),
        (view.say("Your strip"), named(card for card in seen.strip if card is not None)),
    ]
    return [(heading, cards) for heading, cards in places if cards]


def _piles(state: State, piles, view: View) -> Table:
    """Every player's piles and points, scored as `scores()` does (Russia and Turkey count for the continent
    best for their owner)."""
    table = Table(
        "",
        *[view.say(SHORT[CONTINENTS.index(g)]) if g in CONTINENTS else g for g in state.game.groups],
        view.say(SHORT[-1]),
        view.say("points"),
        title=view.say("Piles"),
    )
    points = state.scores()
    for p, own in enumerate(piles):
        table.add_row(view.names[p], *[str(len(pile)) for pile in own], str(points[p]))
    return table


def _hand(state: State, hand: tuple[int, ...], player: int, view: View) -> Table:
    table = Table(
        view.say("card"),
        view.say("continent"),
        *[category(i, view) for i in range(len(state.game.fields))],
        title=view.say("{name}'s hand", name=view.names[player]),
    )
    for card in hand:
        found = state.game.cards[card]
        table.add_row(
            card_label(state, card, view),
            "/".join(pile_label(state, c, view) for c in found.continents),
            *["" if found.joker else value(i, v, view) for i, v in enumerate(found.values)],
        )
    return table


def rules(view: View) -> str:
    return view.say(
        "Länder toppen!: place each hand card face down in a free slot of your strip, above for the highest, below "
        "for the lowest value of a category (Antarctica not in inhabitants, life expectancy, GDP). Then slot by "
        "slot is revealed: the highest (above) or lowest (below) value takes every country card; a trick of 2+ "
        "cards puts at least one face down and at least one on a matching continent pile. Jokers go back onto one "
        "of their continents. At the end each continent's majority scores 1 point per card (ties split, rounded "
        "up), plus 1 point per face-down card."
    )
