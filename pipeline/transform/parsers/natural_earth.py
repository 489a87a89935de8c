"""Natural Earth 4.1.0 admin-0 attributes (50m countries), one 10m label point per country and the names of its
capitals (10m populated places).

Countries are keyed by ADM0_A3, because ISO_A3 is -99 for France, Norway and Kosovo. ADM0_A3 differs
from ISO 3166 for a few entities (`pipeline.country_codes`, reviewed); entities with no ISO code (Northern Cyprus
CYN, Somaliland SOL, Siachen Glacier KAS, Baikonur KAB, the Cyprus bases ESB/WSB…) get iso3 None.
The 50m layer lacks Tuvalu, and the 110m layer lacks 29 small states, so map dots for tiny states use
the label points, which exist for every entity. The capitals' names (with their diacritics: "Reykjavík",
"Lomé") only cross-check the spelling of the card capital; they never choose it.
"""

import pandas as pd
import pycountry
from shapely.geometry import Point, shape

from pipeline.country_codes import ADM0_TO_ISO3
from pipeline.errors import ParseError
from pipeline.extract import names
from pipeline.transform import observations
from pipeline.transform.parsers.common import Complete, load_features

SOURCE = names.NATURAL_EARTH
COMPLETE = Complete(rows=230, countries=215)  # pinned file: 256 rows, 239 countries
ADMIN0 = "ne_50m_admin_0_countries.geojson"
LABEL_POINTS = "ne_10m_admin_0_label_points.geojson"
PLACES = "ne_10m_populated_places_simple.geojson"
# Populated places that are a country's capital: these classes, marked as the capital (adm0cap) or as an
# alternative capital (capalt); the class alone also holds former ones (Rangoon, Johannesburg).
CAPITAL_CLASSES = ("Admin-0 capital", "Admin-0 capital alt")
VINTAGE = "Natural Earth 4.1.0"
NO_ISO = "-99"

COLUMNS = [
    "adm0_a3",
    "iso3",
    "name",
    "name_long",
    "name_de",
    "continent",
    "type",
    "label_lon",
    "label_lat",
    "label_scalerank",
    "capitals",
]


def read(store, source) -> dict[str, bytes]:
    return {
        "admin0": store.read_source(source, ADMIN0),
        "label_points": store.read_source(source, LABEL_POINTS),
        "places": store.read_source(source, PLACES),
    }


def _require(props: dict, keys: set[str], where: str) -> None:
    missing = keys - set(props)
    if missing:
        raise ParseError(SOURCE, ", ".join(sorted(missing)), f"missing in {where}")


def iso3_of(adm0_a3: str, iso_a3: str | None) -> str | None:
    """ISO3 for an entity: the reviewed table, else ADM0_A3 when it equals ISO_A3, or ISO_A3 is -99 only
    because Natural Earth splits off overseas parts (France, Norway), or the entity is only in the label
    points (`iso_a3` None) and ADM0_A3 is an ISO code (Tuvalu, Gibraltar); None otherwise."""
    if adm0_a3 in ADM0_TO_ISO3:
        return ADM0_TO_ISO3[adm0_a3]
    if iso_a3 == adm0_a3 or (iso_a3 == NO_ISO and adm0_a3 in {"FRA", "NOR"}):
        return adm0_a3
    if iso_a3 is None and pycountry.countries.get(alpha_3=adm0_a3) is not None:
        return adm0_a3
    return None


def _label_points(features: list[dict]) -> dict[str, list[dict]]:
    """ADM0_A3 -> its label points in file order (lon, lat, scalerank, main, order)."""
    points: dict[str, list[dict]] = {}
    for i, f in enumerate(features):
        props = f.get("properties") or {}
        _require(props, {"sr_adm0_a3", "scalerank", "featurecla"}, f"{LABEL_POINTS} feature {i}")
        coords = (f.get("geometry") or {}).get("coordinates")
        if not isinstance(coords, list) or len(coords) != 2:
            raise ParseError(SOURCE, "geometry", f"{LABEL_POINTS} feature {i} is not a point")
        points.setdefault(props["sr_adm0_a3"], []).append(
            {
                "lon": float(coords[0]),
                "lat": float(coords[1]),
                "scalerank": int(props["scalerank"]),
                "main": props["featurecla"] == "Admin-0 scale ranks",
                "order": i,
            }
        )
    return points


def _capitals(features: list[dict]) -> dict[str, str]:
    """ADM0_A3 -> the names of its capitals, ';'-joined in file order."""
    names: dict[str, list[str]] = {}
    for i, f in enumerate(features):
        props = f.get("properties") or {}
        _require(props, {"adm0_a3", "featurecla", "adm0cap", "capalt", "name"}, f"{PLACES} feature {i}")
        if props["featurecla"] in CAPITAL_CLASSES and 1 in (props["adm0cap"], props["capalt"]):
            names.setdefault(props["adm0_a3"], []).append(props["name"])
    return {adm0: ";".join(n) for adm0, n in names.items()}


def _choose_label(points: list[dict], outline: dict | None) -> dict:
    """One point: scale-rank points before claim/lease/disputed ones, the lowest scale rank, then the ones
    inside the largest part of the 50m outline (GeoJSON geometry; the mainland), of those the nearest to that
    part's centroid (the USA has three rank-0 points on its mainland: Washington State, Ohio, Colorado ->
    Colorado), then the first in file order. The outline is made a shape only for such a tie (a few
    countries of 258: shapely's constructors are most of the parser's time)."""
    if any(p["main"] for p in points):
        points = [p for p in points if p["main"]]
    lowest = min(p["scalerank"] for p in points)
    points = [p for p in points if p["scalerank"] == lowest]
    if outline and len(points) > 1:
        geometry = shape(outline)
        parts = getattr(geometry, "geoms", [geometry])
        largest = max(parts, key=lambda p: p.area)
        if inside := [p for p in points if largest.contains(Point(p["lon"], p["lat"]))]:
            centre = largest.centroid
            distance = [round(centre.distance(Point(p["lon"], p["lat"])), 9) for p in inside]
            points = [p for p, d in zip(inside, distance) if d == min(distance)]
    return min(points, key=lambda p: p["order"])


def parse(raw: dict[str, bytes]) -> pd.DataFrame:
    """One row per ADM0_A3 found in the 50m countries or the 10m label points, sorted by adm0_a3.

    Columns: `adm0_a3` (str), `iso3` (str, missing for non-ISO entities), `name`, `name_long` (str, missing for
    entities only in the label points, e.g. Tuvalu), `name_de` (str, missing: 4.1.0 has no NAME_DE),
    `continent` (str as in Natural Earth, incl. "Seven seas (open ocean)"), `type` (str, e.g.
    "Sovereign country"), `label_lon`, `label_lat` (float, degrees WGS84), `label_scalerank` (int, the
    smallest map scale rank at which the point shows; 0 = always), `capitals` (str, ';'-joined names of the
    populated places marked as its capital or alternative capital, missing when none).
    """
    admin = {}
    for i, f in enumerate(load_features(raw["admin0"], SOURCE, ADMIN0)):
        props = f.get("properties") or {}
        _require(props, {"ADM0_A3", "ISO_A3", "NAME", "NAME_LONG", "CONTINENT", "TYPE"}, f"{ADMIN0} feature {i}")
        admin[props["ADM0_A3"]] = (props, f.get("geometry"))
    points = _label_points(load_features(raw["label_points"], SOURCE, LABEL_POINTS))
    capitals = _capitals(load_features(raw["places"], SOURCE, PLACES))
    rows = []
    for adm0 in sorted(set(admin) | set(points) | set(capitals)):
        props, geometry = admin.get(adm0, ({}, None))
        label = _choose_label(points[adm0], geometry) if adm0 in points else None
        rows.append(
            {
                "adm0_a3": adm0,
                "iso3": iso3_of(adm0, props.get("ISO_A3")),
                "name": props.get("NAME"),
                "name_long": props.get("NAME_LONG"),
                "name_de": props.get("NAME_DE"),
                "continent": props.get("CONTINENT"),
                "type": props.get("TYPE"),
                "label_lon": label["lon"] if label is not None else float("nan"),
                "label_lat": label["lat"] if label is not None else float("nan"),
                "label_scalerank": label["scalerank"] if label is not None else -1,
                "capitals": capitals.get(adm0),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """Per ISO country: `continents` (Natural Earth's single continent, when it is one of the seven),
    `name_de` where the layer has NAME_DE, and the chosen label point (`label_lat`, `label_lon`: where a map
    prints the country's name, inside its main landmass) where it has one, and `capital_spelling` (its
    capitals' names) where it has capitals."""
    rows = []
    for r in parsed[parsed["iso3"].notna()].itertuples():
        base = {"iso3": r.iso3, "source": SOURCE, "vintage": VINTAGE, "note": ""}
        if r.continent in observations.CONTINENTS:
            rows.append({**base, "field": "continents", "value": r.continent})
        if isinstance(r.name_de, str) and r.name_de:
            rows.append({**base, "field": "name_de", "value": r.name_de})
        if pd.notna(r.label_lat) and pd.notna(r.label_lon):
            note = f"label point, scale rank {r.label_scalerank}"
            rows += [
                {**base, "field": "label_lat", "value": float(r.label_lat), "note": note},
                {**base, "field": "label_lon", "value": float(r.label_lon), "note": note},
            ]
        if isinstance(r.capitals, str):
            rows.append({**base, "field": "capital_spelling", "value": r.capitals, "note": "populated places"})
    return observations.frame(rows)
