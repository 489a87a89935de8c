"""Deutschland: Das Kartenspiel cards: the grid game's cards (pipeline/games/grid/cards.py) with Germany's
states. Place cards: the front is the rulebook's, "the name of the place and the region it lies in, with a
picture of that region": a header with the game's name and the state, the place's name and its state alone,
filling its box (no dot for the place, no map of Germany, no number: nothing that tells where in its state it
lies; in a kit for sale the state as the deck's places draw it, states.Drawn). Backs and guess cards are the
grid game's.

All drawing is in millimetres with the origin at the card's bottom-left trim corner.
"""

import shapely

from pipeline.errors import GeodeckError
from pipeline.games.deutschland.states import FOR_SALE as FOR_SALE  # stand-ins for a print for sale
from pipeline.games.deutschland.states import SOURCE as STATES
from pipeline.games.deutschland.states import germany
from pipeline.games.grid import cards as grid
from pipeline.games.grid.cards import back as back
from pipeline.games.grid.cards import printed as printed
from pipeline.games.grid.cards import steps as steps
from pipeline.render.context import CardContext
from pipeline.render.maps import SIMPLIFY_MM, Projected, draw_geometry, to_box
from pipeline.render.text import Box

SOURCES: tuple[str, ...] = (STATES,)  # what the cards draw from besides the deck (the kit credits them)


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when a field is missing or unknown."""
    grid.check(card, ctx)
    if card["kind"] == "place":
        fields = card["fields"]
        for key in ("name", "state", "ns", "we"):
            if fields.get(key) is None:
                raise GeodeckError(f"card {card['id']}: place card without {key!r}")
        germany(ctx.store).state_name(fields["state"], card["id"])


def _place_front(c, fields: dict, card_id: str, ctx: CardContext) -> None:
    layout = ctx.layout
    grid.place_header(c, fields, ctx)
    grid.draw_name(c, grid.place_name(fields, ctx.lang), "place_name", ctx)
    states = germany(ctx.store, ctx.for_sale, ctx.cards or [{"kind": "place", "fields": fields}])
    states.draw_state(
        c,
        layout.box("state_picture"),
        fields["state"],
        card_id,
        layout.colour("state_fill"),
        layout.colour("state_edge"),
    )


def front(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_front(c, card["fields"], card["id"], ctx)
    else:
        grid.front(c, card, ctx)


def art(c, cards: list[dict], box: Box, ctx: CardContext) -> None:
    """The kit cover's key art: the states in the game's light shade and every place of the deck as a dot."""
    design, states = ctx.layout.design, germany(ctx.store, ctx.for_sale, cards)
    frame = Projected(shapely.union_all(list(states.states.values())).bounds).frame(box)
    scale, dx, dy = frame
    c.setFillColor(design.colour("light"))
    c.setStrokeColor(design.colour("colour"))
    c.setLineWidth(0.3)
    c.setLineJoin(1)
    for name in sorted(states.states):
        draw_geometry(c, shapely.simplify(to_box(states.states[name], frame), SIMPLIFY_MM), stroke=True)
    for card in cards:
        fields = card["fields"]
        if card["kind"] == "place" and fields.get("lat") is not None:
            x, y = states.utm.transform(fields["lon"], fields["lat"])
            grid.town_dot(c, x * scale + dx, y * scale + dy, ctx)
