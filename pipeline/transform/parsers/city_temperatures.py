"""Wikipedia's "List of cities by average temperature" (2023-12): annual mean per city name, no country.

Reviewed: names in the list that are NOT the capital of the same name (`NOT_CAPITALS`), so the matcher
never hands them to that capital's country.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform import city_names, observations
from pipeline.transform.parsers.common import Complete, read_csv

SOURCE = "wikipedia-city-temperatures"
COMPLETE = Complete(rows=370)  # pinned file: 413 cities
FILE = "city_mean_temperatures.csv"
VINTAGE = "Wikipedia 2023-12"

# Reviewed: list entry -> the place it describes (checked against the value).
NOT_CAPITALS = {
    "San Jose": "San Jose, California (16.4 °C); Costa Rica's capital is the separate entry 'San José'",
    "St. John's": "St. John's, Newfoundland (5.0 °C), not St. John's, Antigua and Barbuda",
    "La Paz": "La Paz, Baja California Sur, Mexico (23.7 °C), not La Paz, Bolivia (~3,600 m, about 9-11 °C)",
}


def read(store, source) -> bytes:
    return store.read_source(source, FILE)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per list entry, in file order.

    Columns: `city` (str, as written, e.g. "Washington, D.C."), `mean_temp_c` (float, °C, annual mean).
    """
    df = read_csv(raw, SOURCE, FILE, ["city", "mean_temp_c"], exact=True)
    temps = pd.to_numeric(df["mean_temp_c"], errors="coerce")
    bad = df.loc[temps.isna() | ~temps.between(-60, 45) | (df["city"].str.strip() == ""), "city"]
    if len(bad):
        raise ParseError(SOURCE, "mean_temp_c", f"missing or implausible value for {', '.join(bad[:5])}")
    return pd.DataFrame({"city": df["city"].str.strip(), "mean_temp_c": temps.astype(float)})


def to_observations(parsed: pd.DataFrame, capitals: pd.DataFrame) -> pd.DataFrame:
    """`capital_temp_c` per country whose capital (or a reviewed alias/proxy) is in the list.

    `capitals`: iso3, capital (';'-joined when several; only the first, the card capital, is matched). The
    note names the matched city.
    """
    usable = parsed[~parsed["city"].isin(NOT_CAPITALS)]
    chosen = city_names.best_match(city_names.match_capitals(capitals, usable))
    temps = dict(zip(usable["city"], usable["mean_temp_c"]))
    rows = [
        {
            "iso3": m["iso3"],
            "field": "capital_temp_c",
            "value": temps[m["city"]],
            "source": SOURCE,
            "vintage": VINTAGE,
            "note": city_names.match_note(m),
        }
        for _, m in chosen.iterrows()
    ]
    return observations.frame(rows)
