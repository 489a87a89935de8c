"""The world-temperature-data package: CHELSA v2.1 monthly normals 1981-2010 for ~270 cities, with ISO2."""

from importlib import resources

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform import city_names, observations
from pipeline.transform.parsers.common import Complete, read_csv
from pipeline.transform.parsers.iso3 import iso2_to_iso3

SOURCE = "world-temperature-data"
COMPLETE = Complete(rows=240, countries=105)  # pinned file: 270 capitals of 116 countries
DATA_FILE = "world-temperature.csv"
VINTAGE = "1981-2010"
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTH_COLUMNS = [f"{m}_c" for m in MONTHS]
# the package's own rounded annual value may differ from the mean of its rounded months by rounding only
ANNUAL_TOLERANCE_C = 0.1


def read(store, source) -> bytes:
    """The package's data file, after checking that the installed version is the pinned one."""
    source.installed_version()
    return resources.files(source.package.replace("-", "_")).joinpath(DATA_FILE).read_bytes()


def parse(raw: bytes) -> pd.DataFrame:
    """One row per city record, in file order.

    Columns: `city` (str), `iso2` (str), `iso3` (str, missing when ISO2 is unknown), `lat`, `lon` (float,
    degrees), `jan_c` … `dec_c` (float, °C, monthly mean normals), `annual_mean_c` (float, °C, the mean of
    the 12 monthly normals).
    """
    df = read_csv(raw, SOURCE, DATA_FILE, ["city", "country_iso2", "lat", "lon", "annual_c", *MONTH_COLUMNS])
    numbers = df[["lat", "lon", "annual_c", *MONTH_COLUMNS]].apply(pd.to_numeric, errors="coerce")
    broken = df.loc[numbers.isna().any(axis=1), "city"]
    if len(broken):
        raise ParseError(SOURCE, "monthly normals", f"non-numeric values for {', '.join(broken[:5])}")
    annual = numbers[MONTH_COLUMNS].mean(axis=1)
    off = df.loc[(annual - numbers["annual_c"]).abs() > ANNUAL_TOLERANCE_C + 1e-9, "city"]
    if len(off):
        raise ParseError(SOURCE, "annual_c", f"disagrees with the monthly normals for {', '.join(off[:5])}")
    if not df["country_iso2"].str.fullmatch(r"[A-Z]{2}").all():
        raise ParseError(SOURCE, "country_iso2", "not a two-letter code in every row")
    out = pd.DataFrame({"city": df["city"], "iso2": df["country_iso2"], "iso3": df["country_iso2"].map(iso2_to_iso3)})
    out[["lat", "lon", *MONTH_COLUMNS]] = numbers[["lat", "lon", *MONTH_COLUMNS]].astype(float)
    out["annual_mean_c"] = annual.astype(float)
    return out


def to_observations(parsed: pd.DataFrame, capitals: pd.DataFrame) -> pd.DataFrame:
    """`capital_temp_c` (mean of 12 monthly normals, rounded to 0.1 °C) per country whose capital is listed.

    `capitals`: iso3, capital (';'-joined; only the first, the card capital, is matched). A city only
    matches its own country's capital (the package gives ISO2), so same-named cities elsewhere never match.
    """
    cities = parsed[["city", "iso3"]]
    chosen = city_names.best_match(city_names.match_capitals(capitals, cities))
    temps = {(c, i): t for c, i, t in zip(parsed["city"], parsed["iso3"], parsed["annual_mean_c"])}
    return observations.frame(
        [
            {
                "iso3": m["iso3"],
                "field": "capital_temp_c",
                "value": round(temps[(m["city"], m["iso3"])], 1),
                "source": SOURCE,
                "vintage": VINTAGE,
                "note": city_names.match_note(m),
            }
            for _, m in chosen.iterrows()
        ]
    )
