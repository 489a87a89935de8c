"""Where a point falls on the Deutschland map (`geodeck grid LAT LON`): its numbers on a grid, and whether
it lies inside Germany's outline."""

import geopandas as gpd
import numpy as np
from shapely.geometry import Point

from pipeline import paths
from pipeline.extract import SnapshotStore, load_sources, open_store
from pipeline.geo.grid import Grid, check_latlon, country_shape, off_map
from pipeline.transform.parsers import germany_boundaries
from pipeline.transform.parsers.common import parse_complete
from pipeline.validate.towns import METRIC_CRS, STATE_TOLERANCE_KM


def locate(lat: float, lon: float, grid: Grid, store: SnapshotStore | None = None) -> tuple[int, int, bool]:
    """(ns, we, on the map) for a point on `grid`: off the map means outside 0-150 / 0-90 or farther
    outside Germany's outline than the towns' state tolerance (`store` resolves the outline without a build)."""
    check_latlon(lat, lon)
    ns, we = grid.numbers(lat, lon)[0]
    on_map = not off_map(np.array([[ns, we]]))[0]
    country = gpd.GeoSeries([germany_outline(store)], crs="EPSG:4326")
    point = gpd.GeoSeries([Point(lon, lat)], crs="EPSG:4326")
    km = country.to_crs(METRIC_CRS).distance(point.to_crs(METRIC_CRS)).iloc[0] / 1000
    return int(ns), int(we), bool(on_map and km <= STATE_TOLERANCE_KM)


def germany_outline(store: SnapshotStore | None = None):
    """Germany's outline: the towns stage's boundaries table, or without a build the pinned
    `germany-boundaries` snapshot itself, resolved through the snapshot store like any map layer."""
    built = paths.build_dir() / "transform" / "germany_boundaries.parquet"  # the towns step's (pipeline.build.graph)
    if built.is_file():
        return country_shape(built)
    source = load_sources()[germany_boundaries.SOURCE]
    table = parse_complete(germany_boundaries, *germany_boundaries.read(store or open_store(), source))
    return table.loc[table["level"] == "country"].geometry.iloc[0]
