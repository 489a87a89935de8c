"""Maps for the cards, from the pinned Natural Earth snapshot, and the drawing helpers every map shares.

The world is projected once per process (Robinson); a card's map is the base map (a PDF form XObject
drawn once per document) plus the country in red. States too small to see at card scale are marked by a
red circle at their Natural Earth label point. Coordinates handed to the canvas are millimetres.
"""

import json
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import shapely
from pyproj import Transformer
from reportlab.lib.colors import Color
from shapely.geometry import MultiPolygon, Point, Polygon, shape

from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.render import pages
from pipeline.render.text import Box

NE = "natural-earth"
BASE_LAYER = "ne_110m_admin_0_countries.geojson"
DETAIL_LAYER = "ne_50m_admin_0_countries.geojson"
LABEL_POINTS = "ne_10m_admin_0_label_points.geojson"
ISO3_ALIASES = {"XKX": "KOS", "UNK": "KOS", "SSD": "SDS", "PSE": "PSX", "ESH": "SAH"}  # ISO → NE ADM0_A3
TINY_MM = 1.6  # a country smaller than this on the card's map gets a circle
SIMPLIFY_MM = 0.06
ANTARCTICA = "Antarctica"


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


class World:
    """Natural Earth countries, projected once."""

    def __init__(self, store):
        source = load_sources()[NE]
        to_robinson = Transformer.from_crs("EPSG:4326", "+proj=robin +lon_0=0 +datum=WGS84", always_xy=True)
        self.transformer = to_robinson
        base = json.loads(store.read_source(source, BASE_LAYER))["features"]
        self.base = [(f["properties"]["CONTINENT"], project(shape(f["geometry"]), to_robinson)) for f in base]
        self.planes = {
            True: Projected(tuple(shapely.total_bounds([g for _, g in self.base]))),
            False: Projected(tuple(shapely.total_bounds([g for c, g in self.base if c != ANTARCTICA]))),
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
        key = ISO3_ALIASES.get(iso3, iso3)
        feature = self.detail.get(iso3) or self.detail.get(key)
        geom = project(shape(feature["geometry"]), self.transformer) if feature else None
        point = self.labels.get(key) or self.labels.get(iso3)
        if point is not None:
            point = project(Point(point), self.transformer)
        elif geom is not None:
            point = geom.representative_point()
        return geom, point

    def has(self, iso3: str) -> bool:
        geom, point = self.country(iso3)
        return geom is not None or point is not None

    def draw_base(
        self, canvas, name: str, box: Box, land, edge, continents: dict | None = None, antarctica: bool = True
    ) -> None:
        """The world map in `box`, drawn once per document as the form XObject `name` and reused.

        `continents` (name → colour) colours those continents' countries instead of the land grey;
        `antarctica=False` leaves Antarctica out, so the rest of the world fills a wider box.
        """

        def draw() -> None:
            frame = self.planes[antarctica].frame(Box(0, 0, box.w, box.h))
            canvas.setStrokeColor(edge)
            canvas.setLineWidth(0.08)
            for continent, geom in self.base:
                if continent == ANTARCTICA and not antarctica:
                    continue
                canvas.setFillColor((continents or {}).get(continent, land))
                draw_geometry(canvas, shapely.simplify(to_box(geom, frame), SIMPLIFY_MM), stroke=True)

        pages.form(canvas, name, box, draw)

    def draw_country(self, canvas, box: Box, iso3: str, colour, card_id: str, antarctica: bool = True) -> None:
        """The country in `colour` on the map in `box` (framed as draw_base with the same `antarctica`);
        a circle where it would be too small to see."""
        geom, point = self.country(iso3)
        if geom is None and point is None:
            raise GeodeckError(
                f"card {card_id}: no map geometry or label point for {iso3!r} in {NE}; "
                f"fix the card's iso3 or add an alias in pipeline/render/maps.py"
            )
        frame = self.planes[antarctica].frame(box)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        tiny = True
        if geom is not None:
            placed = shapely.simplify(to_box(geom, frame), SIMPLIFY_MM / 2)
            draw_geometry(canvas, placed)
            x0, y0, x1, y1 = placed.bounds
            tiny = max(x1 - x0, y1 - y0) < TINY_MM
        if tiny:
            centre = to_box(point if point is not None else geom.representative_point(), frame)
            canvas.setLineWidth(0.35)
            canvas.circle(centre.x, centre.y, 1.5, stroke=1, fill=0)
            canvas.circle(centre.x, centre.y, 0.45, stroke=0, fill=1)


_LOADED: dict[tuple, object] = {}


def per_store(kind: type, store):
    """One projected map per process and store (the store itself is not hashable)."""
    key = (kind.__name__, store.root, store.mirror)
    if key not in _LOADED:
        _LOADED[key] = kind(store)
    return _LOADED[key]


def world(store) -> World:
    return per_store(World, store)
