"""Region cards: the grid game's cards (pipeline/games/grid/cards.py) for any country. The place front is the
rulebook's: the division in the header, the place's name and a picture of its division alone, filling its box,
with no dot and no number that would tell where the place lies. No open layer of first-level divisions is in
the mirror, so each division is drawn from the deck's places: the union of their Voronoi cells in the
country's mainland (pipeline/geo/divisions.py). Backs and guess cards are the grid game's.
"""

import hashlib
from functools import lru_cache

import pycountry
import shapely

from pipeline.errors import GeodeckError
from pipeline.extract import names
from pipeline.games.grid import cards as grid
from pipeline.games.grid.cards import back as back
from pipeline.games.region import geography
from pipeline.games.region.build import TITLE, default_title, inset, settings
from pipeline.geo import divisions
from pipeline.i18n import names as cldr
from pipeline.i18n import registry
from pipeline.i18n.catalogue import translate
from pipeline.i18n.language import Language
from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.maps import SIMPLIFY_MM, Projected, draw_alone, draw_geometry, to_box
from pipeline.render.text import Box

SOURCES: tuple[str, ...] = (names.NATURAL_EARTH,)  # the country's outline (the kit credits it)


def title(deck: dict, lang: Language) -> str:
    """The deck's title printed in `lang`: "<country>: The Card Game" with CLDR's name of the country, or the
    title the deck was built with (`geodeck region build --title`) as given."""
    region = deck["region"]
    if deck["title"] != default_title(region["iso3"], registry.language(region["lang"])):
        return deck["title"]
    iso2 = pycountry.countries.lookup(region["iso3"]).alpha_2
    return translate(lang, TITLE, country=cldr.territory(iso2, lang) or iso2)


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when a field is missing or unknown."""
    if card["kind"] != "place":
        grid.check(card, ctx)
        return
    for key in ("name", "state", "ns", "we", "country"):
        if card["fields"].get(key) is None:
            raise GeodeckError(f"card {card['id']}: place card without {key!r}; rebuild it with `geodeck region build`")


def _mainland(ctx: CardContext, country: str):
    """(the country's mainland in its own equal-area projection, that projection)."""
    land = geography.outline(ctx.store, country, settings()["outline"]["island_km"], inset(country))
    crs = geography.local_laea(land)
    return geography.to_crs(land, crs), crs


@lru_cache(maxsize=4)
def _divisions(land, places: tuple) -> dict:
    crs = geography.local_laea(land)
    return {name: geography.to_crs(geom, crs) for name, geom in divisions.voronoi(places, land, crs).items()}


def division_shapes(ctx: CardContext, country: str, cards: list[dict]) -> dict:
    """Each division of the deck, drawn from its place `cards` in the country's mainland (in the mainland's
    equal-area projection)."""
    land = geography.outline(ctx.store, country, settings()["outline"]["island_km"], inset(country))
    return _divisions(land, divisions.places(cards))


def _picture(c, card: dict, ctx: CardContext) -> None:
    """The place's division alone, filling the picture's box; one form XObject per division and document."""
    layout, fields = ctx.layout, card["fields"]
    geom = division_shapes(ctx, fields["country"], ctx.cards or [card]).get(fields["state"])
    if geom is None:
        raise GeodeckError(
            f"card {card['id']}: no place of the deck with coordinates lies in {fields['state']!r}, so its "
            "division cannot be drawn; rebuild it with `geodeck region build`"
        )
    form = "division_" + hashlib.sha256(shapely.to_wkb(geom)).hexdigest()[:16]
    draw_alone(c, form, layout.box("state_picture"), geom, layout.colour("state_fill"), layout.colour("state_edge"))


def _place_front(c, card: dict, ctx: CardContext) -> None:
    layout, words, fields = ctx.layout, ctx.words, card["fields"]
    grid.place_header(c, fields, ctx)
    mark = {"country": words["capital"], "division": words["division_capital"]}.get(fields.get("capital") or "")
    name = grid.place_name(fields, ctx.lang) + (f" {mark}" if mark else "")
    text.draw(c, name, ctx.bold, layout.box("place_name"), *layout.font("place_name"), max_lines=3, align="center")
    _picture(c, card, ctx)


def front(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_front(c, card, ctx)
    else:
        grid.front(c, card, ctx)


def art(c, cards: list[dict], box: Box, ctx: CardContext) -> None:
    """The kit cover's key art: the country's mainland in the game's light shade, every place of the deck as
    a dot."""
    design = ctx.layout.design
    places = [card["fields"] for card in cards if card["kind"] == "place"]
    projected, crs = _mainland(ctx, places[0]["country"])
    frame = Projected(projected.bounds).frame(box)
    c.setFillColor(design.colour("light"))
    c.setStrokeColor(design.colour("colour"))
    c.setLineWidth(0.3)
    draw_geometry(c, shapely.simplify(to_box(projected, frame), SIMPLIFY_MM), stroke=True)
    for fields in places:
        if fields.get("lat") is not None and fields.get("lon") is not None:
            point = to_box(geography.to_crs(shapely.Point(fields["lon"], fields["lat"]), crs), frame)
            grid.town_dot(c, point.x, point.y, ctx)
