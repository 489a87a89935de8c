"""The Deutschlandkarte: Germany on the game's grid, with a red dot and the name of every place of the deck.

The map is drawn in grid units: lines of equal north-south number (orange, 0 at the top, 150 at the
bottom) and of equal west-east number (grey, 0 at the left, 90 at the right). State borders are the
`germany-boundaries` states projected through the deck's grid (deck.json `grid`: the geo stage's calibrated
grid the place numbers were computed with; `Grid.values`, unrounded), so the map is the grid's own projection;
a place sits at the grid value of its coordinates, which rounds to the numbers on its card (checked), or at
its card numbers when it has no coordinates.
"""

from dataclasses import dataclass

import numpy as np
import shapely
from pyproj import Geod, Transformer
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.errors import GeodeckError
from pipeline.games.deutschland.deck import deck_grid
from pipeline.games.deutschland.states import germany
from pipeline.geo.grid import NS_MAX, WE_MAX, Grid, round_half_up
from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.maps import draw_geometry, overlaps_none, tint
from pipeline.render.numbers import number
from pipeline.render.pages import begin_page, clipped, end_page
from pipeline.render.text import PT_MM, Box

DOT_MM = 0.75
SCALE_BAR_KM = 100


def place_positions(cards: list[dict], grid: Grid) -> list[tuple[str, float, float]]:
    """(name, ns, we) per place card: the grid value of its coordinates, or its card numbers without them.

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
            if tuple(round_half_up([ns, we])) != (f["ns"], f["we"]):
                raise GeodeckError(
                    f"card {card['id']}: its coordinates give {ns:.2f}/{we:.2f} on the deck's grid but "
                    f"the card says {f['ns']}/{f['we']}; rebuild the deck with `geodeck build`"
                )
        places.append((f["name"], float(ns), float(we)))
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


def fit_frame(grid: Grid, box: Box) -> GridFrame:
    """The largest frame whose 0-150 × 0-90 grid fits `box` with the grid's own aspect, centred."""
    per_ns, per_we = unit_lengths(grid)
    scale = min(box.w / (WE_MAX * per_we), box.h / (NS_MAX * per_ns))
    ux, uy = per_we * scale, per_ns * scale
    x0 = box.x + (box.w - WE_MAX * ux) / 2
    top = box.y + box.h - (box.h - NS_MAX * uy) / 2
    return GridFrame(x0, top, ux, uy)


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


def _place_labels(c, font: str, size_pt: float, places: list, frame: GridFrame) -> None:
    """Each name next to its dot, at the first of eight positions that overlaps no other name or dot."""
    size = size_pt * PT_MM
    dots = [(x - DOT_MM, y - DOT_MM, x + DOT_MM, y + DOT_MM) for _, ns, we in places for x, y in [frame.xy(ns, we)]]
    placed = list(dots)
    c.setFont(font, size)
    for name, ns, we in places:
        x, y = frame.xy(ns, we)
        w, h, gap = stringWidth(name, font, size), size * 0.8, DOT_MM + 0.4
        options = [
            (x + gap, y - h / 2),
            (x - gap - w, y - h / 2),
            (x - w / 2, y + gap),
            (x - w / 2, y - gap - h),
            (x + gap, y + 0.3),
            (x + gap, y - h - 0.3),
            (x - gap - w, y + 0.3),
            (x - gap - w, y - h - 0.3),
        ]
        boxes = [(ox, oy, ox + w, oy + h) for ox, oy in options]
        own = (x - DOT_MM, y - DOT_MM, x + DOT_MM, y + DOT_MM)
        others = [b for b in placed if b != own]
        chosen = next((b for b in boxes if overlaps_none(b, others)), boxes[0])
        placed.append(chosen)
        c.drawString(chosen[0], chosen[1] + 0.15 * size, name)


def draw_map(
    c, deck: dict, states_lonlat: dict, grid: Grid, page: tuple[float, float], words: dict, fonts: tuple
) -> None:
    """One page: title, grid with numbered lines, states, places, legend and scale."""
    regular, bold = fonts
    pw, ph = page
    margin = 8.0
    ink = HexColor(words["ink"])
    c.setFillColor(ink)
    text.draw(c, words["map_title"], bold, Box(margin, ph - margin - 9, pw - 2 * margin, 9), 18, 12, align="center")
    legend_h = 16.0
    label_room = 6.0
    area = Box(
        margin + label_room,
        margin + legend_h + label_room,
        pw - 2 * (margin + label_room),
        ph - 2 * margin - 11 - legend_h - 2 * label_room,
    )
    frame = fit_frame(grid, area)
    x_left, y_top = frame.xy(0, 0)
    x_right, y_bottom = frame.xy(NS_MAX, WE_MAX)
    orange, grey = HexColor(words["ns_colour"]), HexColor(words["we_colour"])

    with clipped(c, Box(x_left, y_bottom, x_right - x_left, y_top - y_bottom)):
        c.setFillColor(HexColor(words["paper_colour"]))
        c.rect(x_left, y_bottom, x_right - x_left, y_top - y_bottom, stroke=0, fill=1)
        c.setStrokeColor(HexColor(words["border_colour"]))
        c.setLineWidth(0.3)
        c.setLineJoin(1)
        for name in sorted(states_lonlat):
            c.setFillColor(HexColor(words["land_colour"]))
            draw_geometry(c, shapely.simplify(frame.geometry(states_lonlat[name], grid), 0.1), stroke=True)
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
        country = shapely.union_all([frame.geometry(g, grid) for g in states_lonlat.values()])
        outline = shapely.polygons(shapely.get_exterior_ring(shapely.get_parts(country)))  # without inner rings
        draw_geometry(c, shapely.MultiPolygon(list(outline)), fill=False, stroke=True)
        places = place_positions(deck["cards"], grid)
        c.setFillColor(HexColor(words["dot_colour"]))
        for _, ns, we in places:
            c.circle(*frame.xy(ns, we), DOT_MM, stroke=0, fill=1)
        c.setFillColor(ink)
        _place_labels(c, regular, float(words["place_pt"]), places, frame)

    size = float(words["grid_label_pt"]) * PT_MM
    c.setFillColor(orange)
    for k in range(NS_MAX + 1):
        y = frame.xy(k, 0)[1] - 0.36 * size
        c.setFont(bold if k % 10 == 0 else regular, size)
        c.drawRightString(x_left - 0.8, y, str(k))
        c.drawString(x_right + 0.8, y, str(k))
    c.setFillColor(grey)
    for k in range(WE_MAX + 1):  # two staggered rows, so neighbouring numbers never touch
        x = frame.xy(0, k)[0]
        c.setFont(bold if k % 10 == 0 else regular, size)
        row = (k % 2) * size * 1.1
        c.drawCentredString(x, y_top + 0.8 + row, str(k))
        c.drawCentredString(x, y_bottom - 0.8 - size * 0.8 - row, str(k))

    per_ns_km, per_we_km, lat = ground_km(grid, NS_MAX / 2, WE_MAX / 2)
    legend = Box(margin, margin, pw - 2 * margin, legend_h - 2)
    c.setFillColor(HexColor(words["dot_colour"]))
    c.circle(legend.x + 1.5, legend.y + legend.h - 1.6, DOT_MM, stroke=0, fill=1)
    c.setFillColor(ink)
    lines = [
        words["map_dots"].format(n=len(places)),
        words["map_ns"],
        words["map_we"],
        words["map_scale"].format(
            ns=number(per_ns_km, words["lang"], "0.0"), we=number(per_we_km, words["lang"], "0.0"), lat=round(lat)
        ),
    ]
    for i, line in enumerate(lines):
        c.setFillColor(orange if i == 1 else grey if i == 2 else ink)
        text.draw(
            c, line, regular, Box(legend.x + 3.5, legend.y + legend.h - 3.3 * (i + 1), legend.w * 0.72, 3.2), 6.5, 5
        )
    bar = SCALE_BAR_KM / per_we_km * frame.ux  # mm of SCALE_BAR_KM west-east at the map's centre
    bx, by = legend.x + legend.w - bar - 2, legend.y + legend.h / 2
    c.setStrokeColor(ink)
    c.setLineWidth(0.4)
    c.line(bx, by, bx + bar, by)
    for tick in (0, bar / 2, bar):
        c.line(bx + tick, by - 0.8, bx + tick, by + 0.8)
    c.setFillColor(ink)
    c.setFont(regular, 6 * PT_MM)
    c.drawCentredString(bx, by + 1.5, "0")
    c.drawCentredString(bx + bar / 2, by + 1.5, str(SCALE_BAR_KM // 2))
    c.drawCentredString(bx + bar, by + 1.5, f"{SCALE_BAR_KM} km")
    c.drawCentredString(bx + bar / 2, by - 3.5, words["map_bar"].format(lat=round(lat)))


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """The Deutschlandkarte on one portrait page, on the deck's own grid (a card from another grid fails
    before anything is drawn)."""
    grid = deck_grid(deck)
    place_positions(deck["cards"], grid)
    begin_page(c, paper)
    draw_map(c, deck, germany(ctx.store).lonlat, grid, paper, w, (ctx.regular, ctx.bold))
    end_page(c)
