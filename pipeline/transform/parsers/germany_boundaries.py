"""Germany's outline and its 16 states (isellsoap's GeoJSON of GADM boundaries), high detail: the files
that sources/germany-boundaries.toml declares as its `country` and `states` layers.

`parse(country, states)`, each a (file, bytes) pair from `read`, returns a GeoDataFrame (EPSG:4326),
country first then states by name: `level` ("country" or "state"), `name` ("Deutschland" or the German
state name), `iso` ("DE" or ISO 3166-2 such as "DE-BY"), `geometry` (Polygon/MultiPolygon).
"""

import geopandas as gpd
from shapely.geometry import shape

from pipeline.errors import ParseError
from pipeline.extract import SnapshotStore, Source
from pipeline.transform.german_states import BY_ISO
from pipeline.transform.parsers.common import Complete, load_features

SOURCE = "germany-boundaries"
COMPLETE = Complete(rows=17)  # pinned files: Germany and its 16 states
LAYERS = ("country", "states")


def read(store: SnapshotStore, source: Source) -> list[tuple[str, bytes]]:
    """(file, bytes) of the country layer, then of the states layer."""
    return [(entry.path, store.read(entry)) for entry in map(source.layer, LAYERS)]


def _features(raw: bytes, file: str) -> list[dict]:
    features = load_features(raw, SOURCE, file)
    for feature in features:
        if feature.get("geometry", {}).get("type") not in ("Polygon", "MultiPolygon"):
            raise ParseError(
                SOURCE, f"{file} geometry", f"expected (Multi)Polygons, got {feature.get('geometry')!r:.60}"
            )
    return features


def parse(country_layer: tuple[str, bytes], states_layer: tuple[str, bytes]) -> gpd.GeoDataFrame:
    country_file, states_file = country_layer[0], states_layer[0]
    country = _features(country_layer[1], country_file)
    if len(country) != 1 or country[0]["properties"].get("ISO") != "DEU":
        raise ParseError(SOURCE, f"{country_file} ISO", "expected one feature with ISO 'DEU'")
    rows = [{"level": "country", "name": "Deutschland", "iso": "DE", "geometry": shape(country[0]["geometry"])}]
    for feature in _features(states_layer[1], states_file):
        iso = feature["properties"].get("id")
        if BY_ISO.get(iso) != feature["properties"].get("name"):
            raise ParseError(SOURCE, f"{states_file} id/name", f"unexpected state {feature['properties']!r}")
        rows.append({"level": "state", "name": BY_ISO[iso], "iso": iso, "geometry": shape(feature["geometry"])})
    if len(rows) != 17:
        raise ParseError(SOURCE, states_file, f"expected 16 states, got {len(rows) - 1}")
    states = sorted(rows[1:], key=lambda r: r["name"])
    return gpd.GeoDataFrame([rows[0], *states], geometry="geometry", crs="EPSG:4326")
