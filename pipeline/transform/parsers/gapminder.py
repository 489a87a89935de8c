"""Gapminder Fast Track DDF: population, life expectancy and GDP per capita (PPP, constant 2021 int$).

The series run to 2100, mostly projections; a card takes an observation or estimate, never a projection.
The year of the latest estimate per indicator is the earlier of (a) the last year strictly before the
year of its release (`updated` in ddf--concepts.csv), since a release cannot hold observed data for its
own year, and (b) the year declared per release in LAST_ESTIMATE with its citation (lex v15 of April 2026 -> 2023,
not 2025; pop v8 of July 2024 -> 2023; gdp_pcap v32 of September 2025 -> 2024). Geo ids are lower-case
ISO3 mostly; the entity table's ISO3 column is the key, with Kosovo (`kos`, no ISO3 there) as XKX. A value
of exactly 0 is Gapminder's placeholder for a year it has no estimate for (Liechtenstein's life expectancy
reads 0 from 2024 on), never a measurement: it counts as missing, so the latest real year is used.
"""

import re

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import names
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, read_csv

SOURCE = names.GAPMINDER
COMPLETE = Complete(rows=245, countries=220)  # pinned file: 273 rows, 248 countries

CONCEPTS = "ddf--concepts.csv"
ENTITIES = "ddf--entities--geo--country.csv"
# measure -> observation field
MEASURES = {"pop": "population", "lex": "life_expectancy", "gdp_pcap": "gdp_pcap_ppp"}
# (measure, version) -> (last estimate year, citation): the years after it are projections. A release
# not listed here is a parse error, so a refresh cannot slip projections onto cards unreviewed.
LAST_ESTIMATE = {
    ("lex", "v15"): (
        2023,
        "Gapminder life expectancy v15 (gapm.io/dlex): estimates to 2023, then UN WPP 2024 medium-variant "
        "projections; the datapoints show the seam: every value to 2023 has one decimal, the projected ones two",
    ),
    ("pop", "v8"): (2023, "Gapminder population v8 (gapm.io/dpop): UN WPP 2024, estimates to 2023, projections after"),
    ("gdp_pcap", "v32"): (2024, "Gapminder GDP per capita v32 (gapm.io/dgdpcap_cppp): World Bank WDI (2025) to 2024"),
}
# geo ids without an ISO3 in the entity table that still have one
GEO_ISO3 = {"kos": "XKX"}

COLUMNS = {
    "geo": "Gapminder geo id",
    "name": "",
    "iso3": "ISO3 or <NA>",
    "un_state": "bool",
    "pop": "persons",
    "pop_year": "int",
    "pop_release": "version and date",
    "lex": "years",
    "lex_year": "int",
    "lex_release": "",
    "gdp_pcap": "int$ (PPP, constant 2021)",
    "gdp_pcap_year": "int",
    "gdp_pcap_release": "",
}


def read(store, source) -> dict[str, bytes]:
    """The concepts, the geo entities and the three datapoint files (path -> bytes)."""
    paths = [CONCEPTS, ENTITIES, *(datapoints(m) for m in MEASURES)]
    return {path: store.read_source(source, path) for path in paths}


def datapoints(measure: str) -> str:
    return f"ddf--datapoints--{measure}--by--country--time.csv"


def parse(raw: dict[str, bytes]) -> pd.DataFrame:
    """One row per geo id (entities and any id found in the datapoints), sorted by id; columns as in
    COLUMNS: per measure the value of the latest non-projected year, that year and the release."""
    concepts = _csv(raw, CONCEPTS, ["concept", "version", "updated"]).set_index("concept")
    geo = _csv(raw, ENTITIES, ["country", "name", "iso3166_1_alpha3", "un_state"]).rename(columns={"country": "geo"})
    geo = geo.assign(
        iso3=geo["iso3166_1_alpha3"].fillna(geo["geo"].map(GEO_ISO3)), un_state=geo["un_state"].str.upper().eq("TRUE")
    )[["geo", "name", "iso3", "un_state"]]
    table = geo.set_index("geo")
    for measure in MEASURES:
        cutoff = last_estimate_year(concepts, measure)
        path = datapoints(measure)
        points = _csv(raw, path, ["country", "time", measure])
        points = points.assign(
            time=_numbers(points["time"], f"{path}: time").astype("Int64"),
            **{measure: _numbers(points[measure], f"{path}: {measure}")},
        )
        points = points[(points["time"] <= cutoff) & points[measure].notna() & (points[measure] != 0)]
        latest = points.sort_values("time", kind="stable").groupby("country").last()
        table = table.join(latest[[measure]].assign(**{f"{measure}_year": latest["time"]}), how="outer")
        table[f"{measure}_release"] = f"{concepts.at[measure, 'version']}, {concepts.at[measure, 'updated']}"
    table = table.rename_axis("geo").reset_index()
    return table[list(COLUMNS)].sort_values("geo", kind="stable").reset_index(drop=True)


def last_estimate_year(concepts: pd.DataFrame, measure: str) -> int:
    """The last non-projected year of a measure (module docstring)."""
    release = release_year(concepts, measure)
    version = str(concepts.at[measure, "version"])
    if (measure, version) not in LAST_ESTIMATE:
        raise ParseError(
            SOURCE,
            f"{CONCEPTS}: {measure}.version",
            f"{version} has no declared last estimate year; add it with its citation to LAST_ESTIMATE "
            "in pipeline/transform/parsers/gapminder.py",
        )
    return min(release - 1, LAST_ESTIMATE[measure, version][0])


def release_year(concepts: pd.DataFrame, measure: str) -> int:
    """The year in the concept's `updated` date ("July 29, 2024" -> 2024)."""
    if measure not in concepts.index:
        raise ParseError(SOURCE, f"{CONCEPTS}: {measure}", "concept missing")
    m = re.search(r"\b(\d{4})\b", str(concepts.at[measure, "updated"]))
    if not m:
        raise ParseError(SOURCE, f"{CONCEPTS}: {measure}.updated", f"no year in {concepts.at[measure, 'updated']!r}")
    return int(m[1])


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """population, life_expectancy and gdp_pcap_ppp for every geo id with an ISO3 key and a value."""
    rows = []
    for _, r in parsed[parsed["iso3"].notna()].iterrows():
        for measure, field in MEASURES.items():
            if pd.notna(r[measure]):
                rows.append(
                    {
                        "iso3": r["iso3"],
                        "field": field,
                        "value": float(r[measure]),
                        "source": SOURCE,
                        "vintage": str(int(r[f"{measure}_year"])),
                        "note": f"Gapminder {measure} {r[f'{measure}_release']}; latest estimate year",
                    }
                )
    return frame(rows)


def _numbers(values: pd.Series, field: str) -> pd.Series:
    try:
        numbers = values.astype("float64")  # one vectorised cast of the text
    except (TypeError, ValueError):
        numbers = pd.to_numeric(values, errors="coerce")  # slower, but names the cells that are not numbers
    bad = values[numbers.isna() & values.notna()]
    if len(bad):
        raise ParseError(SOURCE, field, f"not numbers: {', '.join(bad.unique()[:5])}")
    return numbers


def _csv(raw: dict[str, bytes], path: str, columns: list[str]) -> pd.DataFrame:
    if path not in raw:
        raise ParseError(SOURCE, path, "file missing")
    return read_csv(raw[path], SOURCE, path, columns, empty_is_missing=True)
