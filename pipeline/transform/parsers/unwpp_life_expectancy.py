"""UN World Population Prospects 2024, life expectancy at birth (both sexes), as exported by Our World in
Data (`life-expectancy.csv`: Entity, Code, Year, value): the series the cards print, year 2023 (the last
estimate; WPP's later years are projections and are not in this file). Rows whose code is OWID's own
(OWID_WRL, regions) are aggregates; Kosovo's OWID_KOS is XKX.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import names
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, read_csv

SOURCE = names.UNWPP_LIFE_EXPECTANCY
COMPLETE = Complete(rows=230, countries=230)  # pinned file: 237 countries and territories in 2023
PATH = "life-expectancy.csv"
VALUE = "Life Expectancy, age 0"
YEAR = 2023  # WPP 2024's last estimate year: a newer release must be declared here before it is read
OWID_CODES = {"OWID_KOS": "XKX"}
NOTE = "UN WPP 2024 estimate"


def read(store, source) -> bytes:
    return store.read_source(source, PATH)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per country with a YEAR value: `iso3`, `entity`, `life_expectancy` (years)."""
    df = read_csv(raw, SOURCE, PATH, ["Entity", "Code", "Year", VALUE], empty_is_missing=True)
    numbers = df[["Year", VALUE]].apply(pd.to_numeric, errors="coerce")
    bad = (numbers.isna() & df[["Year", VALUE]].notna()).any(axis=1)
    if bad.any():
        raise ParseError(SOURCE, f"{PATH}: Year, {VALUE}", f"not numbers for {', '.join(df['Entity'][bad][:5])}")
    last = numbers["Year"].max()
    if last != YEAR:
        raise ParseError(
            SOURCE, f"{PATH}: Year", f"the last year is {last:g}, not the declared {YEAR} (declare the new release)"
        )
    df = df.assign(iso3=df["Code"].replace(OWID_CODES), year=numbers["Year"], life_expectancy=numbers[VALUE])
    df = df[df["iso3"].str.fullmatch(r"[A-Z]{3}", na=False) & (df["year"] == YEAR) & df["life_expectancy"].notna()]
    if df["iso3"].duplicated().any():
        raise ParseError(
            SOURCE, f"{PATH}: Code", f"listed twice for {YEAR}: {', '.join(df['iso3'][df['iso3'].duplicated()])}"
        )
    out = df[["iso3", "Entity", "life_expectancy"]].rename(columns={"Entity": "entity"})
    return out.sort_values("iso3", kind="stable").reset_index(drop=True)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """Each country's life expectancy in YEAR."""
    rows = [
        {
            "iso3": r.iso3,
            "field": "life_expectancy",
            "value": r.life_expectancy,
            "source": SOURCE,
            "vintage": str(YEAR),
            "note": NOTE,
        }
        for r in parsed.itertuples(index=False)
    ]
    return frame(rows)
