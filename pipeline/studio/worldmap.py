"""The regions page's map of the world: each country's outline from the Natural Earth 50m admin-0 layer the
region builds read (`geography.countries`, by ISO3), simplified for a screen and drawn in the Equal Earth
projection (equal-area: no country looks larger than it is) as one SVG path per country. No tiles, no network:
the pinned layer from the store."""

import shapely
from shapely.geometry import box, shape

from pipeline.games.region import geography
from pipeline.render.maps import project

WIDTH = 1000.0  # the map's width in SVG units; its height follows from the projection
SOUTH, NORTH = -58.0, 84.0  # the latitudes shown: Antarctica left out, as on the cards' world map
TOLERANCE_DEG = 0.08  # outlines simplified to this (about 9 km): a 1000-unit map shows no finer detail
CRS = "+proj=eqearth +lon_0=0 +datum=WGS84 +units=m +no_defs"


def world(store) -> dict:
    """{"paths": {iso3: SVG path data}, "width", "height"}: every country the layer outlines within the shown
    latitudes, the north up and x from the antimeridian west to east."""
    to_plane = geography.from_lonlat(CRS)
    shown = box(-180.0, SOUTH, 180.0, NORTH)
    west, south, east, north = project(shapely.segmentize(shown, 1.0), to_plane).bounds  # the curved sides' too
    scale = WIDTH / (east - west)
    paths = {}
    for iso3, feature in sorted(geography.countries(store).items()):
        outline = shape(feature["geometry"]).intersection(shown)
        if outline.is_empty:
            continue
        simple = outline.simplify(TOLERANCE_DEG, preserve_topology=True)
        plane = project(simple, to_plane)
        drawn = shapely.transform(plane, lambda xy: (xy - (west, north)) * (scale, -scale))
        if data := path(drawn):
            paths[iso3] = data
    return {"paths": paths, "width": WIDTH, "height": round((north - south) * scale, 1)}


def path(geom) -> str:
    """SVG path data of a (multi)polygon: each ring a closed subpath, to a tenth of a unit."""
    rings = []
    for polygon in shapely.get_parts(geom):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in ring.coords[:-1])
            rings.append(f"M{points}Z")
    return "".join(rings)
