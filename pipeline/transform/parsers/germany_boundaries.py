"""Germany's outline and its 16 states (deutschlandGeoJSON, GADM-derived), high detail.

`parse(country_raw, states_raw)` returns a GeoDataFrame (EPSG:4326), country first then states by name:
`level` ("country" or "state"), `name` ("Deutschland" or the German state name), `iso` ("DE" or
ISO 3166-2 such as "DE-BY"), `geometry` (Polygon/MultiPolygon).
"""

import geopandas as gpd
from shapely.geometry import shape

from pipeline.errors import ParseError
from pipeline.extract import SnapshotStore, Source
from pipeline.transform.german_states import BY_ISO
from pipeline.transform.parsers.common import Complete, load_features

SOURCE = "germany-boundaries"
COMPLETE = Complete(rows=17)  # pinned file: Germany and its 16 states
COUNTRY_FILE = "1_deutschland_2_hoch.geo.json"
STATES_FILE = "2_bundeslaender_2_hoch.geo.json"


def read(store: SnapshotStore, source: Source) -> tuple[bytes, bytes]:
    return store.read_source(source, COUNTRY_FILE), store.read_source(source, STATES_FILE)


def _features(raw: bytes, file: str) -> list[dict]:
    features = load_features(raw, SOURCE, file)
    for feature in features:
        if feature.get("geometry", {}).get("type") not in ("Polygon", "MultiPolygon"):
            raise ParseError(
                SOURCE, f"{file} geometry", f"expected (Multi)Polygons, got {feature.get('geometry')!r:.60}"
            )
    return features


def parse(country_raw: bytes, states_raw: bytes) -> gpd.GeoDataFrame:
    country = _features(country_raw, COUNTRY_FILE)
    if len(country) != 1 or country[0]["properties"].get("ISO") != "DEU":
        raise ParseError(SOURCE, f"{COUNTRY_FILE} ISO", "expected one feature with ISO 'DEU'")
    rows = [{"level": "country", "name": "Deutschland", "iso": "DE", "geometry": shape(country[0]["geometry"])}]
    for feature in _features(states_raw, STATES_FILE):
        iso = feature["properties"].get("id")
        if BY_ISO.get(iso) != feature["properties"].get("name"):
            raise ParseError(SOURCE, f"{STATES_FILE} id/name", f"unexpected state {feature['properties']!r}")
        rows.append({"level": "state", "name": BY_ISO[iso], "iso": iso, "geometry": shape(feature["geometry"])})
    if len(rows) != 17:
        raise ParseError(SOURCE, STATES_FILE, f"expected 16 states, got {len(rows) - 1}")
    states = sorted(rows[1:], key=lambda r: r["name"])
    return gpd.GeoDataFrame([rows[0], *states], geometry="geometry", crs="EPSG:4326")
