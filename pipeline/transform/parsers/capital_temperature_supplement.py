"""Hand-collected capital climate normals for capitals the other temperature sources miss; each row cites a page.

A country can have several rows (Antarctica: South Pole and Vostok; Bolivia: Sucre and La Paz; proxy rows
such as Belize City for Belmopan) and rows without a value ("NOT FOUND").
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform import observations
from pipeline.transform.parsers.common import Complete, read_csv

SOURCE = "capital-temperature-supplement"
COMPLETE = Complete(rows=1, countries=1)  # pinned file: 48 reviewed rows; any subset is complete
FILE = "capital_temperature_supplement.csv"
COLUMNS = [
    "iso3",
    "capital",
    "station_or_city",
    "annual_mean_c",
    "method",
    "period",
    "source_url",
    "excerpt_snippet",
    "confidence",
]
CONFIDENCE = {"high", "medium", "regional", "low"}


def read(store, source) -> bytes:
    return store.read_source(source, FILE)


def parse(raw: bytes) -> pd.DataFrame:
    """Every row of the file, in file order.

    Columns: `iso3` (str), `capital` (str, as written, may carry remarks such as "(PROXY)"), `station`
    (str, station or city measured), `annual_mean_c` (float °C, NaN where the collector found none),
    `method` (str: annual_mean | maxmin_average), `period` (str, "" when not stated), `source_url` (str),
    `confidence` (str: high | medium | regional | low, "" when no value).
    """
    df = read_csv(raw, SOURCE, FILE, COLUMNS, exact=True)
    not_iso3 = df.loc[~df["iso3"].str.fullmatch(r"[A-Z]{3}"), "iso3"]
    if len(not_iso3):
        raise ParseError(SOURCE, "iso3", f"not ISO3: {', '.join(not_iso3[:5])}")
    temps = pd.to_numeric(df["annual_mean_c"].replace("", None), errors="coerce")
    bad = df.loc[(temps.isna() & (df["annual_mean_c"] != "")) | ~temps.between(-70, 45) & temps.notna(), "iso3"]
    if len(bad):
        raise ParseError(SOURCE, "annual_mean_c", f"not a plausible °C value for {', '.join(bad[:5])}")
    unknown = set(df.loc[temps.notna(), "confidence"]) - CONFIDENCE
    if unknown:
        raise ParseError(SOURCE, "confidence", f"unknown confidence {', '.join(sorted(unknown))}")
    return pd.DataFrame(
        {
            "iso3": df["iso3"],
            "capital": df["capital"],
            "station": df["station_or_city"],
            "annual_mean_c": temps.astype(float),
            "method": df["method"],
            "period": df["period"],
            "source_url": df["source_url"],
            "confidence": df["confidence"],
        }
    )


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """One `capital_temp_c` per country with a value: vintage = period ("not stated" if blank), note = station + URL.

    Choice among several rows of a country: the first row in file order, which is the capital the collector
    was asked for (Antarctica: South Pole before Vostok; Bolivia: Sucre; Burundi: Gitega), except that a
    "low" confidence row yields to any other (Palestine: East Jerusalem 18.0 before the Ramallah range
    midpoint). Rows without a value give no observation.
    """
    rows = parsed[parsed["annual_mean_c"].notna()].copy()
    rows["order"] = range(len(rows))
    rows["is_low"] = rows["confidence"] == "low"
    chosen = rows.sort_values(["iso3", "is_low", "order"], kind="stable").drop_duplicates("iso3")
    return observations.frame(
        [
            {
                "iso3": r.iso3,
                "field": "capital_temp_c",
                "value": r.annual_mean_c,
                "source": SOURCE,
                "vintage": r.period or "not stated",
                "note": f"station: {r.station} (capital: {r.capital}); {r.source_url}",
            }
            for r in chosen.itertuples()
        ]
    )
