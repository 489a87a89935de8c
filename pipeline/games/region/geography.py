"""A region's map: its mainland outline from Natural Earth, a projection suited to its shape, and the grid.

Outline: the country's Natural Earth 50m admin-0 polygon; its largest part is kept, then every part within
`island_km` of the land kept so far (a chain: Kyushu, the Ryukyu islands, Okinawa); farther parts
(overseas departments, Alaska and Hawaii, Svalbard) are left out. Projection (`+proj=` string, centred on
the outline's centroid): north-south extent / west-east extent above `elongated` gives a transverse
Mercator (conformal along the meridian: Chile), below 1/`elongated` a Lambert conformal conic with
standard parallels at 1/6 and 5/6 of the latitude range (the United States), else a Lambert azimuthal
equal-area (France, Japan, Brazil). Grid: each axis is scaled so the outline's extreme points lie
`margin` units inside 0-150 (north-south, 0 in the north) and 0-90 (west-east), as the box's map fills its
grid; the map is drawn true to scale on the grid's own aspect, so cells are rectangles (Germany's are
5.6 km × 7.0 km) and nothing is distorted.
"""

import json
from functools import cache

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import shape

from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.geo.grid import NS_MAX, WE_MAX, Grid, Inset, significant
from pipeline.render.maps import DETAIL_LAYER, project

LAEA = "+proj=laea +lat_0={lat:.4f} +lon_0={lon:.4f} +datum=WGS84 +units=m +no_defs"
TMERC = "+proj=tmerc +lat_0={lat:.4f} +lon_0={lon:.4f} +k=1 +datum=WGS84 +units=m +no_defs"
LCC = "+proj=lcc +lat_0={lat:.4f} +lon_0={lon:.4f} +lat_1={lat1:.4f} +lat_2={lat2:.4f} +datum=WGS84 +units=m +no_defs"


_FEATURES: dict[str, list[dict]] = {}  # a layer's features by its pinned sha256 (the same bytes), two layers here


def features(store, layer: str) -> list[dict]:
    """A Natural Earth layer's GeoJSON features, parsed once per process (a region build reads two layers
    more than once; a test builds several regions): callers read them, never change them."""
    entry = load_sources()[names.NATURAL_EARTH].file(layer)
    if entry.sha256 not in _FEATURES:
        _FEATURES[entry.sha256] = json.loads(store.read(entry))["features"]
    return _FEATURES[entry.sha256]


def countries(store) -> dict[str, dict]:
    """Natural Earth 50m admin-0 features by ISO3 (ISO_A3, ISO_A3_EH or ADM0_A3: France's ISO_A3 is -99)."""
    index: dict[str, dict] = {}
    for f in sorted(features(store, DETAIL_LAYER), key=lambda f: f["properties"]["ADM0_A3"]):
        p = f["properties"]
        for key in (p["ADM0_A3"], p.get("ISO_A3_EH"), p.get("ISO_A3")):
            if key and key != "-99":
                index.setdefault(key, f)
    return index


def local_laea(geom) -> str:
    c = geom.centroid
    return LAEA.format(lat=c.y, lon=c.x)


@cache
def from_lonlat(crs: str) -> Transformer:
    """The transformer from lon/lat to `crs` (made once per CRS: making one costs more than using it)."""
    return Transformer.from_crs("EPSG:4326", crs, always_xy=True)


def to_crs(geom, crs: str):
    return project(geom, from_lonlat(crs))


def mainland(geom, island_km: float):
    """The largest part of a lon/lat (multi)polygon and every part chained to it within `island_km`."""
    parts = list(shapely.get_parts(geom))
    equal_area = local_laea(geom)  # areas are true anywhere in an equal-area projection, distances near its centre
    largest = max(parts, key=lambda p: to_crs(p, equal_area).area)
    metric = [to_crs(p, local_laea(largest)) for p in parts]
    kept = {max(range(len(parts)), key=lambda i: metric[i].area)}
    grown = True
    while grown:
        land = shapely.union_all([metric[i] for i in kept])
        near = {i for i in range(len(parts)) if i not in kept and metric[i].distance(land) <= island_km * 1000}
        kept |= near
        grown = bool(near)
    return shapely.MultiPolygon([parts[i] for i in sorted(kept)])


def projection(outline, elongated: float) -> tuple[str, str]:
    """(proj string, shape) for a lon/lat outline: its shape decides the projection (module docstring)."""
    x0, y0, x1, y1 = to_crs(outline, local_laea(outline)).bounds
    ratio = (y1 - y0) / (x1 - x0)
    c = outline.centroid
    if ratio > elongated:
        return TMERC.format(lat=c.y, lon=c.x), "tall"
    if ratio < 1 / elongated:
        south, north = outline.bounds[1], outline.bounds[3]
        span = north - south
        return LCC.format(lat=c.y, lon=c.x, lat1=south + span / 6, lat2=north - span / 6), "wide"
    return LAEA.format(lat=c.y, lon=c.x), "compact"


def fitted_grid(outline, crs: str, margin: float) -> Grid:
    """The grid putting the outline's extreme points `margin` units inside 0-150 × 0-90 (north at 0)."""
    x0, y0, x1, y1 = to_crs(outline, crs).bounds
    if x1 <= x0 or y1 <= y0:
        raise GeodeckError("the country's outline has no extent; it cannot be put on a grid")
    ns_per_m = (NS_MAX - 2 * margin) / (y1 - y0)
    we_per_m = (WE_MAX - 2 * margin) / (x1 - x0)
    matrix = ((0.0, we_per_m), (-ns_per_m, 0.0), (margin + y1 * ns_per_m, margin - x0 * we_per_m))
    return Grid(crs, tuple((significant(a), significant(b)) for a, b in matrix))


_OUTLINES: dict[tuple, object] = {}


def outline(store, iso3: str, island_km: float, inset: Inset | None = None):
    """The country's mainland (lon/lat) from the pinned Natural Earth layer, once per process and store, with
    the parts within the `inset`'s box (Spain's Canary Islands) where they lie: the grid moves them
    (`moved`)."""
    key = (store.root, store.mirror, iso3, island_km, inset)
    if key not in _OUTLINES:
        feature = countries(store).get(iso3)
        if feature is None:
            raise GeodeckError(f"{iso3}: Natural Earth's 50m countries have no outline for it (`geodeck region list`)")
        land = shape(feature["geometry"])
        kept = list(mainland(land, island_km).geoms)
        if inset is not None:
            box = shapely.box(inset.west, inset.south, inset.east, inset.north)
            kept += [p for p in shapely.get_parts(land) if box.contains(p) and not any(p.equals(k) for k in kept)]
        _OUTLINES[key] = shapely.MultiPolygon(kept)
    return _OUTLINES[key]


def moved(geom, inset: Inset | None):
    """A lon/lat geometry as the grid places it: the inset's islands beside the mainland (`Inset`)."""
    if inset is None:
        return geom
    return shapely.transform(geom, lambda xy: np.column_stack(inset.moved(xy[:, 1], xy[:, 0])[::-1]))
