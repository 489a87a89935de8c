"""The grid game's map: a country on the game's grid, with a red dot and the name of every place of the deck
(Deutschland's and each region's map: each configuration's `accessories` hands it its divisions).

The map is drawn in grid units: lines of equal north-south number (orange, 0 at the top, 150 at the
bottom) and of equal west-east number (grey, 0 at the left, 90 at the right). The divisions' borders are
projected through the deck's grid (deck.json `grid`: the calibrated grid the place numbers were computed
with; `Grid.values`, unrounded), so the map is the grid's own projection; a place sits at the grid value of
its coordinates, which rounds to the numbers on its card (checked), or at its card numbers when it has no
coordinates.
"""

from dataclasses import dataclass

import numpy as np
import shapely
from pyproj import Geod, Transformer
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.games.grid.cards import place_name
from pipeline.geo.grid import NS_MAX, WE_MAX, Grid, whole_numbers
from pipeline.i18n.language import Language
from pipeline.render import labels, text
from pipeline.render.maps import draw_geometry, tint
from pipeline.render.numbers import number
from pipeline.render.pages import clipped
from pipeline.render.text import PT_MM, Box

DOT_MM = 0.6
SCALE_BAR_MM = 35  # the scale bar's greatest length: 100 km on the Deutschlandkarte, 500 km on Brazil's map
DOT_SLACK = 0.45  # grid units a dot may move from its card numbers to part from a neighbour's dot
LABEL_H, LABEL_BASE = 0.95, 0.22  # a label's box height and its baseline above the box, per font size
HALO_MM = 0.45
A4_WIDTH_MM = 210.0  # labels and grid numbers grow with the paper from their A4 sizes


def place_positions(cards: list[dict], grid: Grid, lang: Language | None = None) -> list[tuple[str, float, float]]:
    """(name in `lang`, ns, we) per place card: the grid value of its coordinates, or its card numbers without them.

    A card whose coordinates do not round to its printed numbers was built with another grid: an error.
    """
    places = []
    for card in cards:
        if card["kind"] != "place":
            continue
        f = card["fields"]
        ns, we = float(f["ns"]), float(f["we"])
        if f.get("lat") is not None and f.get("lon") is not None:
            ns, we = grid.values(f["lat"], f["lon"])[0]
            if tuple(grid.numbers(f["lat"], f["lon"])[0]) != (f["ns"], f["we"]):
                raise GeodeckError(
                    f"card {card['id']}: its coordinates give {ns:.2f}/{we:.2f} on the deck's grid but "
                    f"the card says {f['ns']}/{f['we']}; rebuild the deck with `geodeck build`"
                )
        places.append((place_name(f, lang), float(ns), float(we)))
    return sorted(places)


@dataclass(frozen=True)
class GridFrame:
    """Grid units → page mm: x = x0 + we · ux, y = top − ns · uy (north up)."""

    x0: float
    top: float
    ux: float
    uy: float

    def xy(self, ns, we) -> tuple:
        return self.x0 + np.asarray(we) * self.ux, self.top - np.asarray(ns) * self.uy

    def geometry(self, lonlat_geom, grid: Grid):
        """A lon/lat geometry on the page through the grid's unrounded transform."""

        def move(coords):
            values = grid.values(coords[:, 1], coords[:, 0])
            return np.column_stack(self.xy(values[:, 0], values[:, 1]))

        return shapely.transform(lonlat_geom, move)


def unit_lengths(grid: Grid) -> tuple[float, float]:
    """CRS metres per north-south unit and per west-east unit (the affine's inverse)."""
    linear = np.linalg.inv(np.array(grid.matrix)[:2, :])  # rows: (x, y) per ns unit, per we unit
    return float(np.hypot(*linear[0])), float(np.hypot(*linear[1]))


# A map may be drawn at most 8 % taller (or wider) than true to fill its page: a map a geography teacher shows
# keeps its country's shape. 5 % left no room on Letter for Mönchengladbach's name inside Deutschland's grid.
MAX_STRETCH = 1.08


def fit_frame(grid: Grid, box: Box) -> GridFrame:
    """The 0-150 × 0-90 grid filling `box`, centred: true to the grid's aspect where that fills the box,
    otherwise stretched along one axis, by at most MAX_STRETCH (the grid's numbers stay where they are: a
    place's numbers find it as on a true map)."""
    per_ns, per_we = unit_lengths(grid)
    ux, uy = box.w / WE_MAX, box.h / NS_MAX
    stretch = (uy / ux) / (per_ns / per_we)  # how much taller than true the filling grid would be
    if stretch > MAX_STRETCH:
        uy = ux * per_ns / per_we * MAX_STRETCH
    elif stretch < 1 / MAX_STRETCH:
        ux = uy * per_we / per_ns * MAX_STRETCH
    x0 = box.x + (box.w - WE_MAX * ux) / 2
    top = box.y + box.h - (box.h - NS_MAX * uy) / 2
    return GridFrame(x0, top, ux, uy)


def stretch(grid: Grid, frame: GridFrame) -> float:
    """How much taller than true the grid is drawn (1: true to its aspect)."""
    per_ns, per_we = unit_lengths(grid)
    return (frame.uy / frame.ux) / (per_ns / per_we)


def ground_km(grid: Grid, ns: float, we: float) -> tuple[float, float, float]:
    """(km per north-south unit, km per west-east unit, latitude) at a grid position, on the ellipsoid."""
    geod = Geod(ellps="WGS84")
    to_lonlat = Transformer.from_crs(grid.crs, "EPSG:4326", always_xy=True)
    linear = np.linalg.inv(np.array(grid.matrix)[:2, :])
    origin = np.linalg.solve(np.array(grid.matrix)[:2, :].T, np.array([ns, we]) - np.array(grid.matrix)[2])
    points = [origin, origin + linear[0], origin + linear[1]]
    lon, lat = to_lonlat.transform([p[0] for p in points], [p[1] for p in points])
    km = [geod.inv(lon[0], lat[0], lon[i], lat[i])[2] / 1000 for i in (1, 2)]
    return km[0], km[1], float(lat[0])


def spread(points: list[tuple[float, float]], boxes: list[tuple[float, float, float, float]], apart: float):
    """The points moved apart until no two are nearer than `apart` mm (or 200 rounds), each kept inside its
    box (x0, y0, x1, y1): dots that would overlap (Mannheim and Ludwigshafen) part within their numbers."""
    xy = np.array(points, dtype=float).reshape(-1, 2)
    lo, hi = np.array(boxes)[:, :2], np.array(boxes)[:, 2:]
    for _ in range(200):
        delta = xy[:, None, :] - xy[None, :, :]
        dist = np.hypot(delta[..., 0], delta[..., 1]) + np.eye(len(xy)) * 1e9
        close = dist < apart
        if not close.any():
            break
        push = np.where(close[..., None], delta / np.maximum(dist, 1e-6)[..., None] * (apart - dist)[..., None] / 2, 0)
        xy = np.clip(xy + push.sum(axis=1), lo, hi)
    return [tuple(p) for p in xy]


def dot_positions(places: list, frame: GridFrame) -> list[tuple[float, float]]:
    """Each place's dot in page mm: at its grid position, moved apart from a too-near neighbour by at most
    DOT_SLACK grid units from its card numbers."""
    boxes = []
    for _, ns, we in places:
        card_ns, card_we = whole_numbers([ns, we])
        (x0, x1), (y1, y0) = (
            frame.xy(card_ns, [card_we - DOT_SLACK, card_we + DOT_SLACK])[0],
            frame.xy([card_ns - DOT_SLACK, card_ns + DOT_SLACK], card_we)[1],
        )
        boxes.append((float(x0), float(y0), float(x1), float(y1)))
    start = [(float(x), float(y)) for x, y in (frame.xy(ns, we) for _, ns, we in places)]
    return spread(start, boxes, 2 * DOT_MM + 0.15)


def halo_text(c, x: float, y: float, label: str, font: str, size: float, ink, halo_mm: float) -> None:
    """`label` with a white halo (a stroked copy underneath), so lines behind it do not run through it."""
    c.saveState()
    t = c.beginText(x, y)
    t.setFont(font, size)
    t.setTextRenderMode(1)
    c.setStrokeColor(HexColor("#FFFFFF"))
    c.setLineWidth(halo_mm)
    c.setLineJoin(1)
    t.textOut(label)
    c.drawText(t)
    c.restoreState()
    c.setFillColor(ink)
    c.setFont(font, size)
    c.drawString(x, y, label)


def place_labels(
    font: str, size: float, places: list, dots: list, frame_box, spacing: float, fixed=(), rings=labels.RINGS_MM
) -> list[labels.Placed]:
    """Every place name placed next to its dot inside `frame_box`, no two names closer than `spacing` mm, none on
    the `fixed` boxes (pipeline/render/labels.py)."""
    items = [
        labels.Item(name, x, y, stringWidth(name, font, size), size * LABEL_H)
        for (name, _, _), (x, y) in zip(places, dots)
    ]
    points = [(x, y, DOT_MM) for x, y in dots]
    return labels.place(items, frame_box, points, fixed, gap=DOT_MM + 0.3, spacing=spacing, rings=rings)


def _draw_labels(c, font: str, size: float, placed: list, ink) -> None:
    c.setStrokeColor(ink)
    c.setLineWidth(0.15)
    for p in placed:
        if p.leader:
            c.line(*p.anchor, *p.leader_end)
    for p in placed:
        halo_text(c, p.box[0], p.box[1] + LABEL_BASE * size, str(p.key), font, size, ink, HALO_MM)


@dataclass(frozen=True)
class MapModel:
    """What the map draws where (page mm): the grid frame, the places, their dots and their labels."""

    frame: GridFrame
    places: list[tuple[str, float, float]]
    dots: list[tuple[float, float]]
    labels: list[labels.Placed]
    name_size: float  # mm
    numbers: tuple = ()  # the grid numbers printed around the map (AxisNumber)
    area: tuple[float, float, float, float] | None = None  # where names may go: the grid's box unless beside it

    @property
    def label_box(self) -> tuple[float, float, float, float]:
        return self.area or self.box

    @property
    def box(self) -> tuple[float, float, float, float]:
        (x0, x1), (y1, y0) = self.frame.xy([0, NS_MAX], [0, WE_MAX])
        return float(x0), float(y0), float(x1), float(y1)


MARGIN_MM, LEGEND_MM, LABEL_ROOM_MM, TITLE_MM = 8.0, 16.0, 6.0, 11.0
STEPS = (1, 2, 5, 10)  # the grid numbers printed: every one, else every 2nd, 5th or 10th, the first that do not touch
DIGIT_H = 0.73  # a digit's height per font size
APART_MM = 0.15  # the least gap between two printed grid numbers
WE_GAP = 0.45  # between the map and its west-east numbers, per font size: clear of the north-south 0 and 150
NS_GAP = 0.5  # between the map and its north-south numbers, per font size: clear of the corner's west-east 0 and 90
BESIDE_MM = 20.0  # a grid leaving this much of the page free on each side puts the names there too (`beside`)
BESIDE_RINGS_MM = (27.0, 33.0, 40.0, 48.0)  # ... and its names may stand this far from their dots, on a leader


@dataclass(frozen=True)
class AxisNumber:
    """A grid line's number as printed: its box (x0, y0 at the baseline, x1, y1) in page mm."""

    axis: str  # "ns" or "we"
    text: str
    font: str
    size: float  # mm
    box: tuple[float, float, float, float]


def _numbers(model: "MapModel", size: float, fonts: tuple, steps: tuple[int, int]) -> list[AxisNumber]:
    """Every `steps`th north-south number (alternately left and right of the map) and west-east number (two
    staggered rows above and below), each 10th bold."""
    regular, bold = fonts
    x_left, y_bottom, x_right, y_top = model.box
    out = []

    def put(axis: str, k: int, x: float, y: float, align: float) -> None:
        font = bold if k % 10 == 0 else regular
        w = stringWidth(str(k), font, size)
        x0 = x - align * w
        out.append(AxisNumber(axis, str(k), font, size, (x0, y, x0 + w, y + DIGIT_H * size)))

    for i, k in enumerate(range(0, NS_MAX + 1, steps[0])):
        y = float(model.frame.xy(k, 0)[1]) - 0.36 * size
        put("ns", k, *((x_left - NS_GAP * size, y, 1.0) if i % 2 == 0 else (x_right + NS_GAP * size, y, 0.0)))
    for i, k in enumerate(range(0, WE_MAX + 1, steps[1])):
        x, row = float(model.frame.xy(0, k)[0]), (i % 2) * size * 1.1
        put("we", k, x, y_top + WE_GAP * size + row, 0.5)
        put("we", k, x, y_bottom - (WE_GAP + 0.8) * size - row, 0.5)
    return out


def touching(numbers: list[AxisNumber]) -> list[tuple[str, str]]:
    """The pairs of printed numbers closer than APART_MM (their texts)."""
    if len(numbers) < 2:
        return []
    boxes = np.array([n.box for n in numbers]) + np.array((-APART_MM / 2, -APART_MM / 2, APART_MM / 2, APART_MM / 2))
    a, b = boxes[:, None, :], boxes[None, :, :]
    hit = ~((a[..., 2] <= b[..., 0]) | (a[..., 0] >= b[..., 2]) | (a[..., 3] <= b[..., 1]) | (a[..., 1] >= b[..., 3]))
    return [(numbers[i].text, numbers[j].text) for i, j in zip(*np.nonzero(np.triu(hit, 1)))]


def axis_numbers(model: "MapModel", size: float, fonts: tuple) -> list[AxisNumber]:
    """The grid numbers printed around the map: on each axis every one where they do not touch, else every
    2nd, 5th or 10th (a long country's narrow axis: Chile's west-east numbers); the sparsest when none fits."""

    def step(axis: int) -> int:
        for n in STEPS:
            steps = (n, 1) if axis == 0 else (1, n)
            numbers = [x for x in _numbers(model, size, fonts, steps) if x.axis == ("ns", "we")[axis]]
            if not touching(numbers):
                return n
        return STEPS[-1]

    return _numbers(model, size, fonts, (step(0), step(1)))


def map_area(page: tuple[float, float]) -> Box:
    """Where the grid may go on the page: below the title, above the legend, room for the numbers around."""
    pw, ph = page
    room = MARGIN_MM + LABEL_ROOM_MM
    return Box(
        room,
        MARGIN_MM + LEGEND_MM + LABEL_ROOM_MM,
        pw - 2 * room,
        ph - 2 * MARGIN_MM - TITLE_MM - LEGEND_MM - 2 * LABEL_ROOM_MM,
    )


def beside(box: tuple[float, float, float, float], page: tuple[float, float]) -> tuple | None:
    """Where names may go beside the grid (the layout for long countries): the page's width between its
    margins, the grid's height, when the grid leaves BESIDE_MM of it free on each side (Chile's and Norway's
    map on A4, Canada's on its landscape page); None when the grid fills the page (Deutschland's)."""
    x0, y0, x1, y1 = box
    if min(x0, page[0] - x1) - MARGIN_MM < BESIDE_MM:
        return None
    return MARGIN_MM, y0, page[0] - MARGIN_MM, y1


def map_model(deck: dict, grid: Grid, page: tuple[float, float], words: dict, fonts: tuple) -> MapModel:
    """The grid frame on the page (below the title, above the legend), the dots, the grid numbers printed and
    the placed names: inside the grid; when they do not fit there (pipeline.render.labels.problems) and the
    page has room beside the grid (`beside`: a long country), placed again with that room too, on leaders
    up to BESIDE_RINGS_MM long, on no grid number and no leader through one."""
    pw = page[0]
    frame = fit_frame(grid, map_area(page))
    places = place_positions(deck["cards"], grid, words.get("lang"))
    dots = dot_positions(places, frame)
    size = float(words["place_pt"]) * pw / A4_WIDTH_MM * PT_MM
    model = MapModel(frame, places, dots, [], size)
    numbers = tuple(axis_numbers(model, float(words["grid_label_pt"]) * pw / A4_WIDTH_MM * PT_MM, fonts))
    spacing = float(words["label_gap_mm"])
    placed = place_labels(fonts[0], size, places, dots, model.box, spacing)
    area = beside(model.box, page)
    if area is None or not any(labels.problems(placed, model.box, [(x, y, DOT_MM) for x, y in dots]).values()):
        return MapModel(frame, places, dots, placed, size, numbers)
    rings = labels.RINGS_MM + BESIDE_RINGS_MM
    placed = place_labels(fonts[0], size, places, dots, area, spacing, [n.box for n in numbers], rings)
    return MapModel(frame, places, dots, placed, size, numbers, area)


def draw_map(
    c, deck: dict, states_lonlat: dict, grid: Grid, page: tuple[float, float], words: dict, fonts: tuple
) -> None:
    """One page: title, grid with numbered lines, states, places, legend and scale."""
    regular, bold = fonts
    pw, ph = page
    margin = MARGIN_MM
    ink = HexColor(words["ink"])
    c.setFillColor(ink)
    text.draw(c, words["map_title"], bold, Box(margin, ph - margin - 9, pw - 2 * margin, 9), 18, 12, align="center")
    model = map_model(deck, grid, page, words, fonts)
    _draw_field(c, model, states_lonlat, grid, words)
    _draw_labels(c, regular, model.name_size, model.labels, ink)
    grey = HexColor(words["we_colour"])
    for n in model.numbers:
        c.setFillColor(HexColor(words["ns_text"]) if n.axis == "ns" else grey)
        c.setFont(n.font, n.size)
        c.drawString(n.box[0], n.box[1], n.text)
    _draw_legend(c, model, grid, page, words, regular)


def _draw_field(c, model: MapModel, states_lonlat: dict, grid: Grid, words: dict) -> None:
    """The map's field, clipped to its box: the states' land, the grid's lines (every 10th strong, every 5th
    medium), the country's outline and the places' dots."""
    frame, dots = model.frame, model.dots
    x_left, y_bottom, x_right, y_top = model.box
    orange, grey = HexColor(words["ns_colour"]), HexColor(words["we_colour"])
    with clipped(c, Box(x_left, y_bottom, x_right - x_left, y_top - y_bottom)):
        c.setFillColor(HexColor(words["paper_colour"]))
        c.rect(x_left, y_bottom, x_right - x_left, y_top - y_bottom, stroke=0, fill=1)
        c.setStrokeColor(HexColor(words["border_colour"]))
        c.setLineWidth(0.3)
        c.setLineJoin(1)
        inside = shapely.box(x_left, y_bottom, x_right, y_top)  # cut, not only clipped: no land under the numbers
        # on the page, made valid: a division's edge may touch itself after the grid's projection (Norway's)
        paged = {name: shapely.make_valid(frame.geometry(g, grid)) for name, g in states_lonlat.items()}
        for name in sorted(states_lonlat):
            c.setFillColor(HexColor(words["land_colour"]))
            land = paged[name].intersection(inside)
            draw_geometry(c, shapely.simplify(land, 0.1), stroke=True)
        for k in range(NS_MAX + 1):  # lines of equal north-south number: every 10th strong, every 5th medium
            c.setStrokeColor(orange if k % 5 == 0 else tint(orange, 0.3))
            c.setLineWidth(0.3 if k % 10 == 0 else 0.12 if k % 5 == 0 else 0.08)
            y = frame.xy(k, 0)[1]
            c.line(x_left, y, x_right, y)
        for k in range(WE_MAX + 1):  # lines of equal west-east number
            c.setStrokeColor(grey if k % 5 == 0 else tint(grey, 0.3))
            c.setLineWidth(0.3 if k % 10 == 0 else 0.12 if k % 5 == 0 else 0.08)
            x = frame.xy(0, k)[0]
            c.line(x, y_bottom, x, y_top)
        c.setStrokeColor(HexColor(words["outline_colour"]))
        c.setLineWidth(0.45)
        country = shapely.union_all(list(paged.values()))
        outline = shapely.polygons(shapely.get_exterior_ring(shapely.get_parts(country)))  # without inner rings
        draw_geometry(c, shapely.MultiPolygon(list(outline)), fill=False, stroke=True)
        if grid.inset is not None:  # the inset's frame, as atlases draw far islands beside the mainland
            c.setLineWidth(0.3)
            draw_geometry(c, inset_frame(states_lonlat, grid, frame, model.box), fill=False, stroke=True)
        c.setFillColor(HexColor(words["dot_colour"]))
        for x, y in dots:
            c.circle(x, y, DOT_MM, stroke=0, fill=1)


INSET_PAD_MM = 3  # room between an inset's islands and its frame


def inset_frame(states_lonlat: dict, grid: Grid, frame, box: tuple[float, float, float, float]):
    """The frame around the inset's islands on the page (`Grid.inset`): their land's bounds, INSET_PAD_MM
    around, within the map's box."""
    i = grid.inset
    assert i is not None
    land = shapely.union_all(list(states_lonlat.values())).intersection(shapely.box(i.west, i.south, i.east, i.north))
    x0, y0, x1, y1 = frame.geometry(land, grid).bounds
    pad = INSET_PAD_MM
    return shapely.box(max(x0 - pad, box[0]), max(y0 - pad, box[1]), min(x1 + pad, box[2]), min(y1 + pad, box[3]))


def _draw_legend(c, model: MapModel, grid: Grid, page: tuple[float, float], words: dict, regular: str) -> None:
    """The legend below the map: the dots, the two kinds of lines, the ground a step covers at the map's
    centre, and the scale bar."""
    pw, _ = page
    ink, grey = HexColor(words["ink"]), HexColor(words["we_colour"])
    per_ns_km, per_we_km, lat = ground_km(grid, NS_MAX / 2, WE_MAX / 2)
    latitude = {"lat": round(lat), "degrees": abs(round(lat)), "hemisphere": "N" if round(lat) >= 0 else "S"}
    legend = Box(MARGIN_MM, MARGIN_MM, pw - 2 * MARGIN_MM, LEGEND_MM - 2)
    c.setFillColor(HexColor(words["dot_colour"]))
    c.circle(legend.x + 1.5, legend.y + legend.h - 1.6, DOT_MM, stroke=0, fill=1)
    c.setFillColor(ink)
    lines = [
        placeholders.fill(words["map_dots"], n=len(model.places)),
        words["map_ns"],
        words["map_we"],
        placeholders.fill(
            words["map_scale"],
            ns=number(per_ns_km, words["lang"], "0.0"),
            we=number(per_we_km, words["lang"], "0.0"),
            **latitude,
        ),
    ]
    for i, line in enumerate(lines):
        c.setFillColor(HexColor(words["ns_text"]) if i == 1 else grey if i == 2 else ink)
        text.draw(
            c, line, regular, Box(legend.x + 3.5, legend.y + legend.h - 3.3 * (i + 1), legend.w * 0.72, 3.2), 7.5, 7
        )
    bar_km = scale_bar_km(SCALE_BAR_MM * pw / A4_WIDTH_MM * per_we_km / model.frame.ux)
    bar = bar_km / per_we_km * model.frame.ux  # mm of bar_km west-east at the map's centre
    bx, by = legend.x + legend.w - bar - 2, legend.y + legend.h / 2
    c.setStrokeColor(ink)
    c.setLineWidth(0.4)
    c.line(bx, by, bx + bar, by)
    for tick in (0, bar / 2, bar):
        c.line(bx + tick, by - 0.8, bx + tick, by + 0.8)
    c.setFillColor(ink)
    c.setFont(regular, 7 * PT_MM)
    c.drawCentredString(bx, by + 1.5, "0")
    c.drawCentredString(bx + bar / 2, by + 1.5, number(bar_km / 2, words["lang"], "#,##0.#"))
    c.drawCentredString(bx + bar, by + 1.5, f"{number(bar_km, words['lang'], '#,##0')} km")
    c.drawCentredString(bx + bar / 2, by - 3.5, placeholders.fill(words["map_bar"], **latitude))


def scale_bar_km(most_km: float) -> int:
    """The longest of 1, 2, 5, 10, 20, 50 … km not above `most_km` (at least 1)."""
    return max((n * 10**e for e in range(7) for n in (1, 2, 5) if n * 10**e <= most_km), default=1)
