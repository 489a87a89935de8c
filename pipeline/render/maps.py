"""Maps for the cards, from the pinned Natural Earth snapshot, and the drawing helpers every map shares.

The world is projected once per process (Robinson); a card's map is the base map (a PDF form XObject
drawn once per document) plus the country in red. Every card's map has the same frame (`CARD_PLANE`: the
land down to 72° S, so Antarctica's coast is on it too), centred on the land that can be seen: islands of less
than BOUNDS_MIN_KM2 (Fiji's sliver east of the date line) do not widen it and are clipped. States too small
or too scattered to see at card scale (area under TINY_MM2 on the card, or no part TINY_MM wide) are marked
by a red circle at their Natural Earth label point. Coordinates handed to the canvas are millimetres.
"""

import json
from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np
import shapely
from pyproj import Transformer
from reportlab.lib.colors import Color
from shapely.geometry import MultiPolygon, Point, Polygon, shape

from pipeline.country_codes import natural_earth_code
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.render import pages
from pipeline.render.text import Box

NE = names.NATURAL_EARTH
BASE_LAYER = "ne_110m_admin_0_countries.geojson"
DETAIL_LAYER = "ne_50m_admin_0_countries.geojson"
LABEL_POINTS = "ne_10m_admin_0_label_points.geojson"
TINY_MM = 1.6  # a country whose largest part is narrower than this on the card's map gets a circle
TINY_MM2 = 1.5  # ... and so does one of less area than this (Cuba, the Netherlands, Portugal, Kiribati)
CIRCLE_MM = 1.5  # radius of that circle
INSET_MIN_KM = 110  # a circled country's inset shows at least this radius round it (its neighbours)
INSET_MAX_KM = 1500  # ... and at most this (a scattered state: its main island group)
INSET_FILL = 0.6  # the country's farthest part at this share of the inset's radius
INSET_RING_MM = 1.0  # radius of the ring marking a country still under TINY_MM wide in its inset
BOUNDS_MIN_KM2 = 1000  # land parts smaller than this do not widen a map's frame
CARD_SOUTH_LAT = -72.0  # the cards' maps reach this far south: Antarctica's coast, on every card alike
SIMPLIFY_MM = 0.06
SOUTH_POLAR = "+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +datum=WGS84"  # Antarctic polar stereographic
POLAR_FILL = 0.95  # the farthest coast from the pole, as a share of the polar disc's radius
ANTARCTICA = "Antarctica"
CARD_PLANE, FULL_PLANE = "card", "full"  # the frame of every card front's map; the whole world (backs)


def project(geom, transformer: Transformer):
    return shapely.transform(geom, lambda xy: np.column_stack(transformer.transform(xy[:, 0], xy[:, 1])))


def _polygons(geom) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return []


@dataclass
class Projected:
    """Geometries in a projected plane, with the frame that maps that plane into a box on a card."""

    bounds: tuple[float, float, float, float]
    shapes: dict[str, object] = field(default_factory=dict)

    def frame(self, box: Box) -> tuple[float, float, float]:
        """(scale, dx, dy): plane → mm, the whole plane centred in the box."""
        x0, y0, x1, y1 = self.bounds
        scale = min(box.w / (x1 - x0), box.h / (y1 - y0))
        dx = box.x + (box.w - (x1 - x0) * scale) / 2 - x0 * scale
        dy = box.y + (box.h - (y1 - y0) * scale) / 2 - y0 * scale
        return scale, dx, dy


def visible_bounds(geoms) -> tuple[float, float, float, float]:
    """Bounds of the land parts of at least BOUNDS_MIN_KM2 (projected metres)."""
    parts = [p for g in geoms for p in shapely.get_parts(g) if p.area >= BOUNDS_MIN_KM2 * 1e6]
    return tuple(float(v) for v in shapely.total_bounds(parts))  # type: ignore[return-value]


@dataclass(frozen=True)
class Marker:
    """How a country was marked on a locator map (mm on the page): its filled area and the circle's centre."""

    area_mm2: float
    circle: tuple[float, float] | None


def tint(colour, share: float) -> Color:
    """`colour` mixed with white: `share` of the colour."""
    return Color(*(1 - share * (1 - v) for v in (colour.red, colour.green, colour.blue)))


def overlaps_none(candidate: tuple, boxes: list[tuple]) -> bool:
    """Whether the box (x0, y0, x1, y1) overlaps none of `boxes` (touching edges do not overlap)."""
    if not boxes:
        return True
    b = np.asarray(boxes)
    x0, y0, x1, y1 = candidate
    return bool(((x1 <= b[:, 0]) | (x0 >= b[:, 2]) | (y1 <= b[:, 1]) | (y0 >= b[:, 3])).all())


def to_box(geom, frame: tuple[float, float, float]):
    scale, dx, dy = frame
    return shapely.transform(geom, lambda xy: xy * scale + (dx, dy))


def stripes(canvas, geom, colour, spacing: float, width: float) -> None:
    """Diagonal stripes of `colour` (`width` mm wide, every `spacing` mm) over the polygons `geom` (mm), clipped
    to them: the second continent of a country on two."""
    if geom.is_empty:
        return
    x0, y0, x1, y1 = geom.bounds
    canvas.saveState()
    path = canvas.beginPath()
    for polygon in _polygons(geom):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)
            path.moveTo(*coords[0])
            for x, y in coords[1:]:
                path.lineTo(x, y)
            path.close()
    canvas.clipPath(path, stroke=0, fill=0, fillMode=0)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    span = (x1 - x0) + (y1 - y0)
    start = x0 - (y1 - y0)
    canvas.lines(
        [(start + k * spacing, y0, start + k * spacing + (y1 - y0), y1) for k in range(int(span / spacing) + 2)]
    )
    canvas.restoreState()


def draw_geometry(canvas, geom, fill: bool = True, stroke: bool = False) -> None:
    """Fill and/or stroke polygons given in mm (one path, holes by the non-zero winding rule of their rings)."""
    path = canvas.beginPath()
    drawn = False
    for polygon in _polygons(geom):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)
            if len(coords) < 3:
                continue
            path.moveTo(*coords[0])
            for x, y in coords[1:]:
                path.lineTo(x, y)
            path.close()
            drawn = True
    if drawn:
        canvas.drawPath(path, fill=int(fill), stroke=int(stroke), fillMode=0)


def draw_alone(canvas, name: str, box: Box, geom, fill, edge) -> None:
    """A projected shape alone (a state, a division), filling `box` (its width or its height), centred,
    filled and outlined; recorded once per document as the form XObject `name`."""
    frame = Projected(geom.bounds).frame(Box(0, 0, box.w, box.h))

    def draw() -> None:
        canvas.setFillColor(fill)
        canvas.setStrokeColor(edge)
        canvas.setLineWidth(0.25)
        canvas.setLineJoin(1)
        draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)

    pages.form(canvas, name, box, draw)


class World:
    """Natural Earth countries, projected once."""

    def __init__(self, store):
        self._store = store
        source = load_sources()[NE]
        to_robinson = Transformer.from_crs("EPSG:4326", "+proj=robin +lon_0=0 +datum=WGS84", always_xy=True)
        self.transformer = to_robinson
        base = json.loads(store.read_source(source, BASE_LAYER))["features"]
        self.base = [(f["properties"]["CONTINENT"], project(shape(f["geometry"]), to_robinson)) for f in base]
        x0, _, x1, y1 = visible_bounds([g for c, g in self.base if c != ANTARCTICA])
        south = float(to_robinson.transform(0.0, CARD_SOUTH_LAT)[1])
        self.planes = {
            FULL_PLANE: Projected(visible_bounds([g for _, g in self.base])),
            CARD_PLANE: Projected((x0, south, x1, y1)),
        }
        self.detail = self._index(base)
        self.detail.update(self._index(json.loads(store.read_source(source, DETAIL_LAYER))["features"]))
        self.labels = self._label_points(json.loads(store.read_source(source, LABEL_POINTS))["features"])

    @staticmethod
    def _index(features) -> dict[str, dict]:
        """Raw features by ADM0_A3, also reachable by ISO_A3 / ISO_A3_EH where those are real codes."""
        index: dict[str, dict] = {}
        for f in features:
            p = f["properties"]
            for key in (p.get("ISO_A3_EH"), p.get("ISO_A3"), p["ADM0_A3"]):
                if key and key != "-99":
                    index[key] = f
        return index

    @staticmethod
    def _label_points(features) -> dict[str, tuple[float, float]]:
        """One label point per country: its main subunit's, lowest scalerank first."""
        ranked = sorted(
            features,
            key=lambda f: (f["properties"]["sr_su_a3"] != f["properties"]["sr_adm0_a3"], f["properties"]["scalerank"]),
        )
        points: dict[str, tuple[float, float]] = {}
        for f in ranked:
            points.setdefault(f["properties"]["sr_adm0_a3"], tuple(f["geometry"]["coordinates"]))
        return points

    @cache  # noqa: B019 (one World per store and process: the cache lives as long as the store)
    def country(self, iso3: str):
        """(projected geometry or None, projected label point or None) for a card's ISO3 code."""
        key = natural_earth_code(iso3)
        feature = self.detail.get(iso3) or self.detail.get(key)
        geom = project(shape(feature["geometry"]), self.transformer) if feature else None
        point = self.labels.get(key) or self.labels.get(iso3)
        if point is not None:
            point = project(Point(point), self.transformer)
        elif geom is not None:
            point = geom.representative_point()
        return geom, point

    @cached_property
    def neighbours(self) -> tuple[list, shapely.STRtree]:
        """Every country of the detail layer projected, with a search tree: the insets' surroundings."""
        source = load_sources()[NE]
        raw = json.loads(self._store.read_source(source, DETAIL_LAYER))["features"]
        geoms = [project(shape(f["geometry"]), self.transformer) for f in raw]
        return geoms, shapely.STRtree(geoms)

    def draw_inset(self, canvas, disc: Box, iso3: str, colour, land, edge, sea) -> float:
        """A circled country enlarged in a disc (`disc`: its bounding square, mm): centred on its label point,
        its farthest part at INSET_FILL of the radius (INSET_MIN_KM to INSET_MAX_KM round it), its
        neighbours in `land`; a ring marks it where it is still under TINY_MM wide. Returns the width (mm)
        of its mark: the widest red part or the ring's diameter."""
        geom, point = self.country(iso3)
        centre = point if point is not None else geom.representative_point()
        reach = 0.0 if geom is None else float(shapely.hausdorff_distance(centre, geom))
        metres = min(max(reach / INSET_FILL, INSET_MIN_KM * 1000), INSET_MAX_KM * 1000)
        radius = disc.w / 2
        cx, cy = disc.x + radius, disc.y + radius
        scale = radius / metres
        frame = (scale, cx - centre.x * scale, cy - centre.y * scale)
        window = shapely.buffer(centre, metres)
        geoms, tree = self.neighbours
        canvas.saveState()
        clip = canvas.beginPath()
        clip.circle(cx, cy, radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.setFillColor(sea)
        canvas.rect(disc.x, disc.y, disc.w, disc.h, stroke=0, fill=1)
        canvas.setStrokeColor(edge)
        canvas.setLineWidth(0.08)
        canvas.setFillColor(land)
        for i in sorted(int(i) for i in tree.query(window)):
            draw_geometry(
                canvas, shapely.simplify(to_box(geoms[i].intersection(window), frame), SIMPLIFY_MM), stroke=True
            )
        widest = 0.0
        if geom is not None:
            placed = shapely.simplify(to_box(geom.intersection(window), frame), SIMPLIFY_MM / 2)
            canvas.setFillColor(colour)
            draw_geometry(canvas, placed)
            widest = max(
                (max(p.bounds[2] - p.bounds[0], p.bounds[3] - p.bounds[1]) for p in _polygons(placed)), default=0.0
            )
        canvas.restoreState()
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(0.3)
        canvas.circle(cx, cy, radius, stroke=1, fill=0)
        if widest >= TINY_MM:
            return widest
        canvas.setLineWidth(0.35)
        canvas.circle(cx, cy, INSET_RING_MM, stroke=1, fill=0)
        return 2 * INSET_RING_MM

    def has(self, iso3: str) -> bool:
        geom, point = self.country(iso3)
        return geom is not None or point is not None

    def draw_base(
        self, canvas, name: str, box: Box, land, edge, continents: dict | None = None, plane: str = CARD_PLANE
    ) -> None:
        """The world map in `box`, drawn once per document as the form XObject `name` (clipped to its box)
        and reused. `continents` (name → colour) colours those continents' countries instead of the land
        grey; `plane` is CARD_PLANE (every front alike) or FULL_PLANE (the whole world, for backs)."""

        def draw() -> None:
            frame = self.planes[plane].frame(Box(0, 0, box.w, box.h))
            canvas.setStrokeColor(edge)
            canvas.setLineWidth(0.08)
            for continent, geom in self.base:
                canvas.setFillColor((continents or {}).get(continent, land))
                draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)

        pages.form(canvas, name, box, draw)

    def draw_fills(self, canvas, box: Box, fills: dict, land, edge) -> None:
        """The whole world (FULL_PLANE) in `box` in `land`, each country of `fills` (ISO3 → colour) in its
        colour: a deck's key art on the kit's cover."""
        frame = self.planes[FULL_PLANE].frame(box)
        canvas.setStrokeColor(edge)
        canvas.setLineWidth(0.12)
        canvas.setLineJoin(1)
        canvas.setFillColor(land)
        for _, geom in self.base:
            draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)
        for iso3, colour in sorted(fills.items()):
            geom = self.country(iso3)[0]
            if geom is not None:
                canvas.setFillColor(colour)
                draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)

    @cache  # noqa: B019 (one World per store and process)
    def polar(self, diameter: float):
        """Antarctica (Natural Earth 50m) in south-polar stereographic, in mm in a disc of `diameter` mm whose
        origin is its bottom-left corner: the pole at the centre, the farthest coast at POLAR_FILL of the radius."""
        feature = self.detail["ATA"]
        geom = project(shape(feature["geometry"]), Transformer.from_crs("EPSG:4326", SOUTH_POLAR, always_xy=True))
        farthest = float(np.max(np.hypot(*shapely.get_coordinates(geom).T)))
        scale = diameter / 2 * POLAR_FILL / farthest
        return shapely.simplify(to_box(geom, (scale, diameter / 2, diameter / 2)), SIMPLIFY_MM)

    def draw_polar(self, canvas, name: str, box: Box, fill, sea, edge) -> None:
        """Antarctica whole, in `fill`, on a disc of `sea` in `box` (its card and joker: the world map shows
        only its coast), as the form XObject `name`."""
        diameter = min(box.w, box.h)

        def draw() -> None:
            canvas.setFillColor(sea)
            canvas.setStrokeColor(edge)
            canvas.setLineWidth(0.15)
            canvas.circle(diameter / 2, diameter / 2, diameter / 2, stroke=1, fill=1)
            canvas.setFillColor(fill)
            draw_geometry(canvas, self.polar(diameter))

        pages.form(canvas, name, Box(box.x, box.y, diameter, diameter), draw)

    def draw_country(self, canvas, box: Box, iso3: str, colour, card_id: str) -> Marker:
        """The country in `colour` on the card map in `box` (framed as draw_base's CARD_PLANE, clipped to
        the box); a circle at its label point where it is too small or too scattered to see."""
        geom, point = self.country(iso3)
        if geom is None and point is None:
            raise GeodeckError(
                f"card {card_id}: no map geometry or label point for {iso3!r} in {NE}; "
                f"fix the card's iso3 or add an alias in pipeline/render/maps.py"
            )
        frame = self.planes[CARD_PLANE].frame(box)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        area, widest = 0.0, 0.0
        with pages.clipped(canvas, box):
            if geom is not None:
                placed = shapely.simplify(to_box(geom, frame), SIMPLIFY_MM / 2)
                draw_geometry(canvas, placed)
                area = float(placed.intersection(shapely.box(box.x, box.y, box.x + box.w, box.y + box.h)).area)
                widest = max(
                    (max(p.bounds[2] - p.bounds[0], p.bounds[3] - p.bounds[1]) for p in _polygons(placed)), default=0.0
                )
        if area >= TINY_MM2 and widest >= TINY_MM:
            return Marker(area, None)
        centre = to_box(point if point is not None else geom.representative_point(), frame)
        x = min(max(centre.x, box.x + CIRCLE_MM), box.x + box.w - CIRCLE_MM)  # the whole circle on the map
        y = min(max(centre.y, box.y + CIRCLE_MM), box.y + box.h - CIRCLE_MM)
        canvas.setLineWidth(0.35)
        canvas.circle(x, y, CIRCLE_MM, stroke=1, fill=0)
        canvas.circle(x, y, 0.45, stroke=0, fill=1)
        return Marker(area, (x, y))


_LOADED: dict[tuple, object] = {}


def per_store(kind: type, store):
    """One projected map per process and store (the store itself is not hashable)."""
    key = (kind.__name__, store.root, store.mirror)
    if key not in _LOADED:
        _LOADED[key] = kind(store)
    return _LOADED[key]


def world(store) -> World:
    return per_store(World, store)
