"""Region cards: Deutschland's cards for any country. The place front shows the division (Deutschland's
state) in the header, the place's name and the country's mainland with the place marked (no open layer of
first-level divisions is in the mirror, so no division picture); backs and guess cards are Deutschland's.
"""

import shapely

from pipeline.errors import GeodeckError
from pipeline.extract import names
from pipeline.games.deutschland import cards as deutschland
from pipeline.games.region import geography
from pipeline.games.region.build import settings
from pipeline.render import pages, text
from pipeline.render.context import CardContext
from pipeline.render.maps import SIMPLIFY_MM, draw_geometry, to_box
from pipeline.render.text import Box

KINDS = deutschland.KINDS
SOURCES = (names.NATURAL_EARTH,)  # the country's outline (the kit credits it)
TOWN_MM = deutschland.TOWN_MM


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when a field is missing or unknown."""
    if card["kind"] != "place":
        deutschland.check(card, ctx)
        return
    for key in ("name", "state", "ns", "we", "country"):
        if card["fields"].get(key) is None:
            raise GeodeckError(f"card {card['id']}: place card without {key!r}; rebuild it with `geodeck region build`")


def _frame(geom, box: Box) -> tuple[float, float, float]:
    x0, y0, x1, y1 = geom.bounds
    scale = min(box.w / (x1 - x0), box.h / (y1 - y0))
    return (
        scale,
        box.x + (box.w - (x1 - x0) * scale) / 2 - x0 * scale,
        box.y + (box.h - (y1 - y0) * scale) / 2 - y0 * scale,
    )


def _mainland(ctx: CardContext, country: str):
    """(the country's mainland in its own equal-area projection, that projection)."""
    land = geography.outline(ctx.store, country, settings()["outline"]["island_km"])
    crs = geography.local_laea(land)
    return geography.to_crs(land, crs), crs


def _picture(c, fields: dict, ctx: CardContext) -> None:
    """The country's mainland in its own equal-area projection, the place marked."""
    layout, box = ctx.layout, ctx.layout.box("state_picture")
    projected, crs = _mainland(ctx, fields["country"])
    frame = _frame(projected, Box(0, 0, box.w, box.h))

    def draw() -> None:
        c.setFillColor(layout.colour("state_fill"))
        c.setStrokeColor(layout.colour("state_edge"))
        c.setLineWidth(0.25)
        c.setLineJoin(1)
        draw_geometry(c, shapely.simplify(to_box(projected, frame), SIMPLIFY_MM), stroke=True)

    pages.form(c, f"country_{fields['country']}", box, draw)
    if fields.get("lat") is not None and fields.get("lon") is not None:
        point = to_box(geography.to_crs(shapely.Point(fields["lon"], fields["lat"]), crs), frame)
        x, y = point.x + box.x, point.y + box.y
        c.setFillColor(layout.colour("sea"))
        c.circle(x, y, TOWN_MM + 0.4, stroke=0, fill=1)
        c.setFillColor(layout.colour("town"))
        c.circle(x, y, TOWN_MM, stroke=0, fill=1)


def _place_front(c, fields: dict, ctx: CardContext) -> None:
    layout, words = ctx.layout, ctx.words
    deutschland.place_header(c, fields, ctx)
    name = fields["name"] + (f" {words['capital']}" if fields.get("capital") == "country" else "")
    text.draw(c, name, ctx.bold, layout.box("place_name"), *layout.font("place_name"), max_lines=3, align="center")
    _picture(c, fields, ctx)


def front(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_front(c, card["fields"], ctx)
    else:
        deutschland.front(c, card, ctx)


def back(c, card: dict, ctx: CardContext) -> None:
    deutschland.back(c, card, ctx)


def art(c, cards: list[dict], box: Box, ctx: CardContext) -> None:
    """The kit cover's key art: the country's mainland in the game's light shade, every place of the deck as
    a dot."""
    design = ctx.layout.design
    places = [card["fields"] for card in cards if card["kind"] == "place"]
    projected, crs = _mainland(ctx, places[0]["country"])
    frame = _frame(projected, box)
    c.setFillColor(design.colour("light"))
    c.setStrokeColor(design.colour("colour"))
    c.setLineWidth(0.3)
    draw_geometry(c, shapely.simplify(to_box(projected, frame), SIMPLIFY_MM), stroke=True)
    for fields in places:
        if fields.get("lat") is not None and fields.get("lon") is not None:
            point = to_box(geography.to_crs(shapely.Point(fields["lon"], fields["lat"]), crs), frame)
            c.setFillColor(ctx.layout.colour("sea"))
            c.circle(point.x, point.y, TOWN_MM + 0.4, stroke=0, fill=1)
            c.setFillColor(design.colour("colour"))
            c.circle(point.x, point.y, TOWN_MM, stroke=0, fill=1)
