"""First-level divisions drawn from a deck's own places, where no outline of them may be printed (no open
admin-1 layer is in the mirror; Germany's GADM-derived states may not be sold): each division is the union of
its places' Voronoi cells, clipped to the country's outline. Made from Natural Earth's public-domain outline
and the deck's coordinates, it may be printed in every kit, for sale too (docs/printing.md)."""

from collections.abc import Iterable

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry.base import BaseGeometry

DENSE_DEG = 0.1  # the land's edges get a point at least this often before they are projected
NEAR_LAND_M = 10_000  # cells are cut this near the land before they go back to lon/lat
DIVISION = "state"  # the card field naming a place's division, printed in the card's header


def places(cards: Iterable[dict]) -> tuple[tuple[str, float, float], ...]:
    """(division, lon, lat) of every place card with coordinates, sorted: what `voronoi` draws from."""
    return tuple(
        sorted(
            (str(f[DIVISION]), float(f["lon"]), float(f["lat"]))
            for f in (card["fields"] for card in cards if card["kind"] == "place")
            if f.get(DIVISION) is not None and f.get("lon") is not None and f.get("lat") is not None
        )
    )


def _move(geom, transformer: Transformer, inverse: bool = False):
    direction = "INVERSE" if inverse else "FORWARD"
    return shapely.transform(
        geom, lambda xy: np.column_stack(transformer.transform(xy[:, 0], xy[:, 1], direction=direction))
    )


def voronoi(places: Iterable[tuple[str, float, float]], land: BaseGeometry, crs: str) -> dict[str, BaseGeometry]:
    """{division: its lon/lat (multi)polygon} from (division, lon, lat) places and the country's lon/lat
    outline `land`: the places' Voronoi cells in `crs` (metres, so a cell is what is nearest on the ground),
    unioned per division and clipped to the land. Every part of the land belongs to one division; a point
    shared by places of two divisions goes to the first division by name. Same inputs, same shapes."""
    first: dict[tuple[float, float], str] = {}
    for division, lon, lat in sorted(places):
        first.setdefault((float(lon), float(lat)), division)
    if not first:
        return {}
    points = sorted(first)
    transformer = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
    metric = np.column_stack(transformer.transform([p[0] for p in points], [p[1] for p in points]))
    if len(points) == 1:
        return {first[points[0]]: land}
    sites = shapely.multipoints(metric)
    metric_land = _move(shapely.segmentize(land, DENSE_DEG), transformer)  # its edges as curved as on the ground
    reach = shapely.envelope(shapely.union(metric_land, sites))  # the cells cover land and places
    cells = shapely.get_parts(shapely.voronoi_polygons(sites, extend_to=reach, ordered=True))
    parts: dict[str, list] = {}
    for point, cell in zip(points, cells, strict=True):
        parts.setdefault(first[point], []).append(cell)
    near_land = shapely.buffer(metric_land, NEAR_LAND_M)
    return {  # cut near the land (a cell reaching past the pole turns invalid in lon/lat), back in lon/lat, made
        # valid (a cell edge along the land's, back in lon/lat, may touch itself: Chile's Andes), then clipped:
        # every division lies in the land, and they cover it
        division: shapely.intersection(
            shapely.make_valid(
                _move(shapely.intersection(shapely.union_all(pieces), near_land), transformer, inverse=True)
            ),
            land,
        )
        for division, pieces in sorted(parts.items())
    }
