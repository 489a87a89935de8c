"""What every grid deck holds besides its places: the 24 guess cards (4 colours × 6 fronts, the W card with
M on its back), and the grid its place numbers were computed with (the deck's top-level `grid`)."""

from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.geo.grid import Grid

ASCII = str.maketrans({"ü": "ue", "ö": "oe", "ä": "ae", "ß": "ss"})  # the colours in the cards' ids


def guess_cards(spec: DeckSpec) -> list[Card]:
    """4 colours × 6 fronts; the W card carries M on its back."""
    backs = spec.options.get("backs", {})
    return [
        Card(
            f"{spec.id_prefix}-{colour.translate(ASCII)}-{front}",
            "guess",
            {"colour": colour, "front": front, "back": backs.get(front)},
        )
        for colour in spec.options["colours"]
        for front in spec.options["fronts"]
    ]


def deck_grid(deck: dict, made_by: str = "geodeck build") -> Grid:
    """The grid a deck's place numbers were computed with (its top-level `grid`, docs/deck-format.md)."""
    if "grid" not in deck:
        problem = "has no `grid`"
    else:
        try:
            return Grid.from_dict(deck["grid"])
        except (TypeError, ValueError) as exc:
            problem = f"has a bad `grid` ({exc})"
    raise GeodeckError(
        f"deck {deck['game']} {deck.get('version')} {problem}: the map needs the grid its place "
        f"numbers were computed with; rebuild it with `{made_by}` (docs/deck-format.md)"
    )
