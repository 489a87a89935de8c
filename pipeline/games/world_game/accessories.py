"""The World Game's world map: every country of the deck coloured by continent with its map number.

A poster (size, main map and insets from `templates/cards/world-game.toml [accessories]`) is drawn in
poster millimetres: Natural Earth 50m countries in Robinson (Antarctica left out: it has no card), deck
countries in their (first) continent's colour at a lightness that contrasts with the sea and their
numbers, other land grey. A number stands at the
country's label point (the card's `label_lat`/`label_lon`, else Natural Earth's) when it fits inside the
country there, else at the pole of inaccessibility of its largest part; otherwise a dot marks the label point
and the number sits at the nearest free spot (sea first) with a leader line. Countries whose label point lies
in an inset's window are numbered in that inset only (the smallest window if several hold it). The poster is
one A3 landscape page, or two portrait A4/Letter pages (left half with a glue flap, right half with a cut line).
A recipe's deck (docs/recipes.md) is titled by the recipe; a region's (its countries span less than half the
world's width) gets a map of its own, zoomed to its countries, without insets.
"""

import json
from dataclasses import dataclass

import numpy as np
import shapely
import shapely.ops
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from shapely.geometry import Point
from shapely.geometry import box as rect

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.games.world_game.own_map import own_map
from pipeline.render import labels, text
from pipeline.render.context import CardContext
from pipeline.render.maps import (
    ANTARCTICA,
    DETAIL_LAYER,
    NE,
    Projected,
    draw_geometry,
    overlaps_none,
    project,
    stripes,
    to_box,
    visible_bounds,
)
from pipeline.render.pages import begin_page, clipped, end_page
from pipeline.render.text import PT_MM, Box

SOURCES: tuple[str, ...] = (NE,)  # what the poster draws from besides the deck (the kit credits it)
MARGIN_MM = 8.0
FLAP_MM = 10.0
DOT_MM = 0.55
STRIPE_MM = 1.6  # the second continent's stripes: every 1.6 mm, 0.8 mm wide
SEAM_MM = 3.2  # no number, leader or dot within this of the poster's middle, where A4 and Letter cut and glue
# it: 3 mm on the paper at the halves' 0.95 scale
SEA_COST = 4.0  # a moved number prefers the sea: the cost of a spot on land, in mm of leader
ZOOM_SHARE = 0.5  # a recipe's countries spanning less of the world's width get a map of their own, zoomed to them
ZOOM_MARGIN = 0.04  # the sea and land around them: this share of their span on each side


def rules_words(deck: dict, layout) -> dict[str, str]:
    """The kit's words for the deck's map (the `{placeholders}` of `[kit.words]`' rules, card legend and cover),
    in the layout's language: the world map, or a recipe's deck's own map (titled by the deck, `Poster.title`).
    A version published before these words pins a layout without them, and without their placeholders: none."""
    words = layout.data["kit"]["words"]
    own = "own_" if own_map(deck) else ""
    return {key: words[own + key] for key in ("map", "location", "number") if own + key in words}


@dataclass
class PanelModel:
    """What one map panel numbers where (poster mm): numbers inside their country, numbers placed with a
    dot (and maybe a leader), the dots."""

    bounds: tuple[float, float, float, float]
    inside: list[tuple[str, tuple[float, float, float, float]]]
    placed: list[labels.Placed]
    dots: list[tuple[float, float, float]]


def _window(world, lon: list[float], lat: list[float]) -> Projected:
    """The projected bounds of a lon/lat window (its edges densified, Robinson bends meridians)."""
    t = np.linspace(0, 1, 50)
    lons = np.r_[
        lon[0] + (lon[1] - lon[0]) * t, np.full(50, lon[1]), lon[1] - (lon[1] - lon[0]) * t, np.full(50, lon[0])
    ]
    lats = np.r_[
        np.full(50, lat[0]), lat[0] + (lat[1] - lat[0]) * t, np.full(50, lat[1]), lat[1] - (lat[1] - lat[0]) * t
    ]
    x, y = world.transformer.transform(lons, lats)
    return Projected((float(x.min()), float(y.min()), float(x.max()), float(y.max())))


class Poster:
    """Everything the poster needs, projected once: land polygons, deck countries, label points."""

    def __init__(self, deck: dict, ctx: CardContext):
        self.ctx, self.layout = ctx, ctx.layout
        self.cfg = self.layout.data["accessories"]
        world = ctx.world
        self.world = world
        features = json.loads(ctx.store.read_source(load_sources()[NE], DETAIL_LAYER))["features"]
        self.land = [
            (f["properties"]["ADM0_A3"], project(shapely.geometry.shape(f["geometry"]), world.transformer))
            for f in features
            if f["properties"]["CONTINENT"] != ANTARCTICA
        ]
        self.countries = []  # (number, adm0 of its feature or None, geometry, label point, fill colour)
        self.second: dict[int, object] = {}  # map number → the fill of its second continent
        for card in sorted(deck["cards"], key=lambda c: c["fields"]["map_number"]):
            f = card["fields"]
            if f.get("map_number") is None:
                raise GeodeckError(f"card {card['id']}: no map_number for the world map")
            geom, point = world.country(f["iso3"])
            if f.get("label_lat") is not None and f.get("label_lon") is not None:  # the deck's label point
                point = project(Point(f["label_lon"], f["label_lat"]), world.transformer)
            if geom is None and point is None:
                raise GeodeckError(f"card {card['id']}: no map geometry or label point for {f['iso3']!r} in {NE}")
            colour = self.layout.continent(f["continents"][0], ctx.lang)[1]
            if len(f["continents"]) > 1:  # striped with its second continent's colour
                self.second[int(f["map_number"])] = self.layout.continent(f["continents"][1], ctx.lang)[1]
            self.countries.append(
                (
                    int(f["map_number"]),
                    geom,
                    point if point is not None else geom.representative_point(),
                    colour,
                )
            )
        numbers = [n for n, *_ in self.countries]
        if len(set(numbers)) != len(numbers):
            raise GeodeckError("the deck has repeated map_number values; the world map needs each number once")
        self.main = Projected(tuple(shapely.total_bounds([g for _, g in self.land])))
        self.main_box = Box(*self.cfg["main_map"])
        self.panels: list[PanelModel] = []
        self.insets = [(inset, _window(world, inset["lon"], inset["lat"])) for inset in self.cfg.get("insets", [])]
        self.own = own_map(deck)  # a recipe's deck: titled by it, zoomed to its countries where they are a region
        countries = _extent(self.countries)
        if self.own and countries[2] - countries[0] < ZOOM_SHARE * (self.main.bounds[2] - self.main.bounds[0]):
            self.insets = []  # the region fills the poster: no inset repeats it
            self.main_box = Box(
                self.main_box.x, MARGIN_MM, self.main_box.w, self.main_box.y + self.main_box.h - MARGIN_MM
            )
            self.main = Projected(_around(countries, self.main_box))

    def title(self, w: dict) -> str:
        """The map's title: the World Game's, or a recipe's deck's with its own title."""
        return placeholders.fill(w["own_map_title"], title=self.ctx.words["title"]) if self.own else w["map_title"]

    def under(self, number: int):
        """What a number inside its country stands on: its fill, or for a striped country (no ink reads on both
        its colours) a patch of the sea colour."""
        if number in self.second:
            return HexColor(self.cfg["sea"])
        return next(colour for n, *_, colour in self.countries if n == number)

    def ink(self, number: int):
        """The ink of a number inside its country: 4.5:1 on what it stands on."""
        return self.layout.ink_on(self.under(number))

    def assignment(self) -> dict[int, int | None]:
        """map number → index of the inset that numbers it: of the insets whose window holds its label
        point, the most detailed (smallest window); None for the main map."""

        def area(i: int) -> float:
            x0, y0, x1, y1 = self.insets[i][1].bounds
            return (x1 - x0) * (y1 - y0)

        out = {}
        for number, _, point, _ in self.countries:
            holding = [
                i
                for i, (_, plane) in enumerate(self.insets)
                if plane.bounds[0] <= point.x <= plane.bounds[2] and plane.bounds[1] <= point.y <= plane.bounds[3]
            ]
            out[number] = min(holding, key=area) if holding else None
        return out

    def draw_panel(
        self, c, plane: Projected, panel: Box, numbered: list, font: str, size_pt: float, avoid: list | None = None
    ) -> None:
        """Land, deck countries and the numbers of `numbered` countries in one map panel (clipped to it);
        moved numbers keep out of the `avoid` boxes (x0, y0, x1, y1 in mm: the insets' windows)."""
        frame = plane.frame(panel)
        with clipped(c, panel):
            c.setFillColor(HexColor(self.cfg["sea"]))
            c.rect(panel.x, panel.y, panel.w, panel.h, stroke=0, fill=1)
            window = shapely.box(*plane.bounds).buffer((plane.bounds[2] - plane.bounds[0]) * 0.05)
            tolerance = 0.08 / frame[0]
            c.setStrokeColor(self.layout.colour("land_edge"))
            c.setLineWidth(0.12)
            other = HexColor(self.cfg["other_land"])
            for geom, colour in [(g, other) for _, g in self.land] + [(g, col) for _, g, _, col in self.countries]:
                if geom is not None and geom.intersects(window):
                    c.setFillColor(colour)
                    draw_geometry(c, to_box(shapely.simplify(geom.intersection(window), tolerance), frame), stroke=True)
            for number, geom, _, _ in self.countries:
                if number in self.second and geom is not None and geom.intersects(window):
                    shape = to_box(shapely.simplify(geom.intersection(window), tolerance), frame)
                    stripes(c, shape, self.second[number], STRIPE_MM, STRIPE_MM / 2)
            land = shapely.union_all(
                [to_box(g.intersection(window), frame) for _, g in self.land if g.intersects(window)]
            )
            c.setStrokeColor(self.layout.colour("text"))  # the coast: the land reads on the sea in any colour
            c.setLineWidth(0.15)
            draw_geometry(c, shapely.simplify(land, 0.08), fill=False, stroke=True)
            self._numbers(c, frame, panel, numbered, land, font, size_pt, avoid or [])

    def _numbers(self, c, frame, panel: Box, numbered: list, land, font: str, size_pt: float, avoid: list) -> None:
        """Numbers inside their country where one fits (at the label point or the pole of inaccessibility,
        off the seam), the rest placed by pipeline/render/labels.py with a dot and, where needed, a leader
        (preferring the sea); the result is kept in self.panels for the tests."""
        size = size_pt * PT_MM
        shapely.prepare(land)
        items = []
        for number, geom, point, _ in numbered:
            p = to_box(point, frame)
            label = str(number)
            w, h = stringWidth(label, font, size) + 0.6, size * 0.95
            placed = to_box(geom, frame) if geom is not None else None
            items.append((number, label, p.x, p.y, w, h, placed))
        bounds = (panel.x + 0.5, panel.y + 0.5, panel.x + panel.w - 0.5, panel.y + panel.h - 0.5)
        boxes, inside, outside = _fit_inside(items, bounds, avoid)
        outside = [(n, label, _clear_of(x, y, avoid, boxes), y, *rest) for n, label, x, y, *rest in outside]
        dots = [(x, y, DOT_MM) for _, _, x, y, *_ in outside]

        def sea_first(box) -> float:
            return SEA_COST if land.intersects(rect(*box)) else 0.0

        placed_labels = labels.place(
            [labels.Item(label, x, y, w, h) for _, label, x, y, w, h, _ in outside],
            bounds,
            dots,
            fixed=boxes,
            avoid=avoid,
            gap=DOT_MM + 0.3,
            prefer=sea_first,
        )
        self.panels.append(PanelModel(bounds, [(label, box) for label, box in inside], placed_labels, dots))
        self._draw_numbers(c, inside, placed_labels, font, size)

    def _draw_numbers(self, c, inside: list, placed_labels: list, font: str, size: float) -> None:
        """The numbers inside their countries, in the ink that reads on what they stand on; the others on the
        sea, each with its dot and leader."""
        c.setFont(font, size)
        for label, (x0, y0, x1, y1) in inside:  # in the ink that reads on what it stands on
            if int(label) in self.second:
                c.setFillColor(self.under(int(label)))
                c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
            c.setFillColor(self.ink(int(label)))
            c.drawCentredString((x0 + x1) / 2, y0 + 0.2 * size, label)
        c.setStrokeColor(self.layout.colour("text"))
        c.setLineWidth(0.12)
        for p in placed_labels:
            x0, y0, x1, y1 = p.box
            if p.leader:
                c.line(*p.anchor, *p.leader_end)
            c.setFillColor(self.layout.colour("sea"))
            c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
            c.setFillColor(self.layout.colour("text"))
            c.circle(*p.anchor, DOT_MM, stroke=0, fill=1)
            c.drawCentredString((x0 + x1) / 2, y0 + 0.2 * size, str(p.key))


def _fit_inside(items: list, bounds: tuple, avoid: list) -> tuple[list, list, list]:
    """(boxes, inside, outside): the numbers that fit inside their country (at the label point, else the pole of
    inaccessibility of its largest part), largest country first, clear of each other and of `avoid`; the
    rest, as items, to be placed outside."""
    boxes: list[tuple[float, float, float, float]] = []
    inside, outside = [], []
    for item in sorted(items, key=lambda it: -(it[6].area if it[6] is not None else 0)):
        _number, label, x, y, w, h, placed = item
        centres = [(x, y)]
        if placed is not None:  # else the pole of inaccessibility of the largest part, with the most room
            largest = max(getattr(placed, "geoms", [placed]), key=lambda g: g.area)
            pole = shapely.ops.polylabel(largest, tolerance=0.2)
            centres.append((pole.x, pole.y))
        for cx, cy in centres:
            candidate = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if (
                placed is not None
                and _within(candidate, bounds)
                and placed.contains(rect(*candidate).buffer(0.25))
                and overlaps_none(candidate, boxes)
                and overlaps_none(candidate, avoid)
            ):
                boxes.append(candidate)
                inside.append((label, candidate))
                break
        else:
            outside.append(item)
    return boxes, inside, outside


def _touches(x: float, y: float, box) -> bool:
    x0, y0, x1, y1 = box
    return x0 - DOT_MM < x < x1 + DOT_MM and y0 - DOT_MM < y < y1 + DOT_MM


def _clear_of(x: float, y: float, avoid: list, taken: list) -> float:
    """`x` of a dot moved sideways out of any `avoid` box (x0, y0, x1, y1) it would touch: a label point on the
    seam gets its dot beside it, on the nearer side that no number in `taken` covers."""
    for box in avoid:
        if _touches(x, y, box):
            sides = sorted((box[0] - DOT_MM, box[2] + DOT_MM), key=lambda side: abs(side - x))
            x = next((side for side in sides if not any(_touches(side, y, t) for t in taken)), sides[0])
    return x


def _within(candidate, bounds) -> bool:
    return (
        bounds[0] <= candidate[0]
        and candidate[2] <= bounds[2]
        and bounds[1] <= candidate[1]
        and candidate[3] <= bounds[3]
    )


def draw_poster(c, deck: dict, ctx: CardContext, w: dict) -> Poster:
    """The whole poster in poster mm (origin bottom-left); returns it with its panels' drawing model."""
    poster = Poster(deck, ctx)
    pw, ph = (float(v) for v in ctx.layout.data["accessories"]["poster_mm"])
    seam = (pw / 2 - SEAM_MM, 0.0, pw / 2 + SEAM_MM, ph)
    cfg, layout = poster.cfg, ctx.layout
    size_pt = float(cfg["number_pt"])
    assigned = poster.assignment()
    c.setFillColor(layout.colour("text"))
    text.draw(c, poster.title(w), ctx.bold, Box(*cfg["title"]), 14, 9)
    main = poster.main_box
    on_main = [item for item in poster.countries if assigned[item[0]] is None]
    main_frame = poster.main.frame(main)
    windows = [
        (
            *to_box(Point(plane.bounds[0], plane.bounds[1]), main_frame).coords[0],
            *to_box(Point(plane.bounds[2], plane.bounds[3]), main_frame).coords[0],
        )
        for _, plane in poster.insets
    ]
    legend = _legend_place(poster, main, ctx, w, [*windows, seam])
    poster.draw_panel(c, poster.main, main, on_main, ctx.bold, size_pt, avoid=[*windows, seam, legend.box])
    c.setLineWidth(0.3)
    for i, ((inset, plane), (x0, y0, x1, y1)) in enumerate(zip(poster.insets, windows)):
        c.setStrokeColor(layout.colour("text"))
        c.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
        c.setFillColor(layout.colour("text"))
        c.setFont(ctx.bold, 7 * PT_MM)
        c.drawString(x0 + 0.6, y1 - 2.4, inset["key"])
        panel = Box(*inset["box"])
        fitted = _fitted(plane, panel)
        label = f"{inset['key']}  {inset['words']['name']}"
        title_w = stringWidth(label, ctx.bold, 7 * PT_MM) + 2
        title_x = fitted.x  # at the inset's top left, or top right where the A4/Letter split would cut it
        if title_x < pw / 2 < title_x + title_w:
            title_x = fitted.x + fitted.w - title_w
        title = (title_x, fitted.y + fitted.h - 3.6, title_x + title_w, fitted.y + fitted.h)
        numbered = [item for item in poster.countries if assigned[item[0]] == i]
        poster.draw_panel(c, plane, fitted, numbered, ctx.bold, size_pt, avoid=[seam, title])
        c.setStrokeColor(layout.colour("text"))
        c.rect(fitted.x, fitted.y, fitted.w, fitted.h, stroke=1, fill=0)
        c.setFillColor(layout.colour("sea"))
        c.rect(title_x, fitted.y + fitted.h - 3.6, title_w, 3.6, stroke=1, fill=1)
        c.setFillColor(layout.colour("text"))
        c.drawString(title_x + 1, fitted.y + fitted.h - 2.8, label)
    _legend(c, ctx, legend)
    return poster


def _extent(countries: list) -> tuple[float, float, float, float]:
    """The projected bounds of the deck's countries (their land parts that widen a map) and of the points their
    numbers stand at."""
    x0, y0, x1, y1 = visible_bounds([geom for _, geom, _, _ in countries if geom is not None])
    xs, ys = [point.x for _, _, point, _ in countries], [point.y for _, _, point, _ in countries]
    return min(x0, *xs), min(y0, *ys), max(x1, *xs), max(y1, *ys)


def _around(bounds: tuple[float, float, float, float], panel: Box) -> tuple[float, float, float, float]:
    """`bounds` with a margin of `ZOOM_MARGIN` of their size, widened to `panel`'s proportions (the land around
    the deck's countries fills the panel)."""
    x0, y0, x1, y1 = bounds
    w, h = (x1 - x0) * (1 + 2 * ZOOM_MARGIN), (y1 - y0) * (1 + 2 * ZOOM_MARGIN)
    w, h = max(w, h * panel.w / panel.h), max(h, w * panel.h / panel.w)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _fitted(plane: Projected, panel: Box) -> Box:
    """The part of `panel` the window fills (aspect kept, centred at the top)."""
    x0, y0, x1, y1 = plane.bounds
    scale = min(panel.w / (x1 - x0), panel.h / (y1 - y0))
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    return Box(panel.x + (panel.w - w) / 2, panel.y + panel.h - h, w, h)


LEGEND_PT, LEGEND_H_MM = 7.6, 2.6  # poster pt: 7 pt on the A4 halves


LEGEND_STEP_MM = 2.0  # the legend's candidate places along the main map's lower and upper edge
LEGEND_ROW_MM = LEGEND_H_MM + 1.2  # a legend row's height with the gap above it


@dataclass(frozen=True)
class Legend:
    """The legend's continents in rows (one, two or three) under the striped swatch's row, and its box (x0, y0,
    x1, y1 in poster mm)."""

    rows: list[list[str]]
    box: tuple[float, float, float, float]
    two: str  # the striped swatch's words


def _legend_rows(ctx: CardContext, w: dict, count: int) -> tuple[list[list[str]], float, float]:
    """(the continents in `count` rows, the legend's width, its height)."""
    names = [name for name in ctx.layout.common["continents"] if name != ANTARCTICA]
    per = -(-len(names) // count)
    rows = [names[i : i + per] for i in range(0, len(names), per)]

    def row_width(row: list[str]) -> float:
        return sum(10 + stringWidth(ctx.layout.continent(n, ctx.lang)[0], ctx.regular, LEGEND_PT * PT_MM) for n in row)

    width = 2 + max(
        *(row_width(row) for row in rows), 10 + stringWidth(w["two_continents"], ctx.regular, LEGEND_PT * PT_MM)
    )
    return rows, width, 2 + (len(rows) + 1) * LEGEND_ROW_MM + 0.5


def _legend_place(poster: Poster, main: Box, ctx: CardContext, w: dict, avoid: list) -> Legend:
    """The legend on the main map: in one row of continents, else two, else three, at the first place along
    the map's lower edge, then its upper edge (from the left), whose box, 1 mm round it, touches no land and
    none of `avoid` (the inset windows, the A4 seam), as the map labels are kept off what they would cover
    (pipeline/render/labels.py); in one row at the lower left corner where none is clear."""
    frame = poster.main.frame(main)
    tree = shapely.STRtree([to_box(geom, frame) for _, geom in poster.land])
    blocked = [rect(*box) for box in avoid]
    for count in (1, 2, 3):
        rows, width, height = _legend_rows(ctx, w, count)
        for y in (main.y, main.y + main.h - height):
            for i in range(max(int((main.w - width) // LEGEND_STEP_MM) + 1, 1)):
                x = main.x + i * LEGEND_STEP_MM
                clear = rect(x - 1, y - 1, x + width + 1, y + height + 1)
                if not len(tree.query(clear, predicate="intersects")) and not any(clear.intersects(b) for b in blocked):
                    return Legend(rows, (x, y, x + width, y + height), w["two_continents"])
    rows, width, height = _legend_rows(ctx, w, 1)
    return Legend(rows, (main.x, main.y, main.x + width, main.y + height), w["two_continents"])


def _legend(c, ctx: CardContext, legend: Legend) -> None:
    """A swatch per continent in the legend's rows, then above them a striped one for the countries on two
    continents."""
    layout = ctx.layout
    c.setFont(ctx.regular, LEGEND_PT * PT_MM)
    y = legend.box[1] + 2
    for row in reversed(legend.rows):
        x = legend.box[0] + 2
        for name in row:
            label, colour = layout.continent(name, ctx.lang)
            c.setFillColor(colour)
            c.setStrokeColor(colour)
            c.setLineWidth(0.2)
            c.rect(x, y, 4, 2.6, stroke=1, fill=1)
            c.setFillColor(layout.colour("text"))
            c.drawString(x + 5, y + 0.6, label)
            x += 7 + stringWidth(label, ctx.regular, LEGEND_PT * PT_MM) + 3
        y += LEGEND_ROW_MM
    first, second = (layout.continent(name, ctx.lang)[1] for name in ("Europe", "Asia"))
    x = legend.box[0] + 2  # a row above the continents
    c.setFillColor(first)
    c.rect(x, y, 4, 2.6, stroke=0, fill=1)
    stripes(c, rect(x, y, x + 4, y + 2.6), second, STRIPE_MM, STRIPE_MM / 2)
    c.setFillColor(layout.colour("text"))
    c.drawString(x + 5, y + 0.6, legend.two)


HINT_PT = 7.5  # the glue and cut hints beside the halves


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """A3: the poster on one landscape page. A4/Letter: two portrait pages, glued at the middle."""
    pw, ph = ctx.layout.data["accessories"]["poster_mm"]
    form = "world_poster"
    if paper_name == "a3":
        page = (max(paper), min(paper))
        scale = min((page[0] - 2 * MARGIN_MM) / pw, (page[1] - 2 * MARGIN_MM) / ph)
        begin_page(c, page)
        c.translate((page[0] - pw * scale) / 2, (page[1] - ph * scale) / 2)
        c.scale(scale, scale)
        draw_poster(c, deck, ctx, w)
        end_page(c)
        return
    page = (min(paper), max(paper))
    half = pw / 2
    scale = min((page[0] - 2 * MARGIN_MM - FLAP_MM) / half, (page[1] - 2 * MARGIN_MM) / ph)
    y0 = (page[1] - ph * scale) / 2
    c.beginForm(form, 0, 0, pw, ph)
    draw_poster(c, deck, ctx, w)
    c.endForm()
    for side in (0, 1):
        begin_page(c, page)
        x0 = MARGIN_MM if side == 0 else page[0] - MARGIN_MM - half * scale  # where the visible half starts
        with clipped(c, Box(x0, y0, half * scale, ph * scale)):
            c.translate(x0 - side * half * scale, y0)
            c.scale(scale, scale)
            c.doForm(form)
        c.setStrokeColor(ctx.layout.colour("muted"))
        c.setLineWidth(0.2)
        c.setFont(ctx.regular, HINT_PT * PT_MM)
        if side == 0:  # the glue flap right of the cut
            flap_x = x0 + half * scale
            c.setDash(1.5, 1.2)
            c.rect(flap_x, y0, FLAP_MM, ph * scale, stroke=1, fill=0)
            c.setDash()
            c.saveState()
            c.translate(flap_x + FLAP_MM / 2 + 0.8, y0 + ph * scale / 2)
            c.rotate(90)
            c.setFillColor(ctx.layout.colour("muted"))
            c.drawCentredString(0, 0, w["glue"])
            c.restoreState()
        else:
            c.line(x0, 0, x0, page[1])
            c.saveState()
            c.translate(x0 - 1.5, y0 + ph * scale / 2)
            c.rotate(90)
            c.setFillColor(ctx.layout.colour("muted"))
            c.drawCentredString(0, 0, "✂ " + w["cut"])
            c.restoreState()
        end_page(c)
