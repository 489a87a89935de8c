"""World Bank population (SP.POP.TOTL via datasets/population): the latest year per country.

The file mixes countries with regional and income aggregates ("World", "Euro area", "High income").
A code is an aggregate when it is neither an ISO 3166-1 alpha-3 code (pycountry) nor Kosovo's XKX nor
one of NON_ISO_ENTITIES, the World Bank's own codes for single territories.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, read_csv
from pipeline.transform.parsers.iso3 import is_iso3

SOURCE = "worldbank-population"
COMPLETE = Complete(rows=240, countries=195)  # pinned file: 265 codes, 216 countries
PATH = "population.csv"
# World Bank codes for territories that are not aggregates but have no ISO3 code of their own.
NON_ISO_ENTITIES = {"CHI": "Channel Islands (Jersey and Guernsey together)"}

COLUMNS = {
    "code": "World Bank country code",
    "name": "",
    "iso3": "ISO3 or <NA>",
    "kind": "'country', 'territory' (non-ISO, see NON_ISO_ENTITIES) or 'aggregate'",
    "population": "persons, latest year with a value",
    "year": "int",
}


def read(store, source) -> bytes:
    return store.read_source(source, PATH)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per code in the file, aggregates included and flagged; columns as in COLUMNS."""
    df = read_csv(raw, SOURCE, PATH, ["Country Name", "Country Code", "Year", "Value"], empty_is_missing=True)
    numbers = df[["Year", "Value"]].apply(pd.to_numeric, errors="coerce")
    bad = df[(numbers.isna() & df[["Year", "Value"]].notna()).any(axis=1)]
    if len(bad) or numbers["Year"].isna().any():
        raise ParseError(
            SOURCE,
            f"{PATH}: Year, Value",
            f"not numbers in {len(bad)} row(s), e.g. "
            f"{bad[['Country Code', 'Year', 'Value']].head(1).to_dict('records')}",
        )
    df = df.assign(year=numbers["Year"].astype("Int64"), population=numbers["Value"])
    codes = df.drop_duplicates("Country Code")[["Country Code", "Country Name"]]
    latest = df[df["population"].notna()].sort_values("year").groupby("Country Code")[["population", "year"]].last()
    out = codes.set_index("Country Code").join(latest).rename_axis("code").reset_index()
    out = out.rename(columns={"Country Name": "name"})
    iso = out["code"].map(is_iso3)
    out["iso3"] = out["code"].where(iso)
    out["kind"] = "aggregate"
    out.loc[iso, "kind"] = "country"
    out.loc[out["code"].isin(NON_ISO_ENTITIES), "kind"] = "territory"
    return out[list(COLUMNS)].sort_values("code", kind="stable").reset_index(drop=True)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """population for every ISO3 country with a value; aggregates and non-ISO territories left out."""
    countries = parsed[(parsed["kind"] == "country") & parsed["population"].notna()]
    return frame(
        [
            {
                "iso3": r.iso3,
                "field": "population",
                "value": float(r.population),
                "source": SOURCE,
                "vintage": str(r.year),
                "note": "",
            }
            for r in countries.itertuples()
        ]
    )
