"""Our World in Data's COVID-19 dataset, latest row per country (2021-01): the referee for GDP per capita
(`gdp_per_capita`: World Bank PPP in constant 2011 int$, 2019 or the latest year). A referee value never
becomes a card value (pipeline/fields.toml: referee); it decides between card sources that disagree.
Population and life expectancy each come from one declared series (World Bank 2024, UN WPP 2024), so this
file's older UN WPP 2019 columns are not read. Rows whose code is OWID's own (OWID_WRL, OWID_KOS) are
aggregates or have no ISO3 code; Kosovo's OWID_KOS is XKX.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import names
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, read_csv

SOURCE = names.OWID_COVID
COMPLETE = Complete(rows=170, countries=170)  # pinned file: 190 countries (and 2 OWID aggregates)
PATH = "owid-covid-latest.csv"
OWID_CODES = {"OWID_KOS": "XKX"}
# column -> (observation field, year the value describes, note)
ATTRIBUTES = {"gdp_per_capita": ("gdp_pcap_ppp", "2019", "World Bank PPP, constant 2011 int$")}


def read(store, source) -> bytes:
    return store.read_source(source, PATH)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per country code (OWID aggregates left out): `iso3`, `location` and one float column per
    ATTRIBUTES key (NaN where OWID has none)."""
    df = read_csv(raw, SOURCE, PATH, ["iso_code", "location", *ATTRIBUTES], empty_is_missing=True)
    df["iso3"] = df["iso_code"].replace(OWID_CODES)
    df = df[df["iso3"].str.fullmatch(r"[A-Z]{3}")]
    numbers = df[list(ATTRIBUTES)].apply(pd.to_numeric, errors="coerce")
    bad = (numbers.isna() & df[list(ATTRIBUTES)].notna()).any(axis=1)
    if bad.any():
        raise ParseError(
            SOURCE, f"{PATH}: {', '.join(ATTRIBUTES)}", f"not numbers for {', '.join(df['iso3'][bad][:5])}"
        )
    if df["iso3"].duplicated().any():
        raise ParseError(SOURCE, f"{PATH}: iso_code", f"listed twice: {', '.join(df['iso3'][df['iso3'].duplicated()])}")
    out = pd.concat([df[["iso3", "location"]], numbers.astype(float)], axis=1)
    return out.sort_values("iso3", kind="stable").reset_index(drop=True)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """The referee's gdp_pcap_ppp (in its own dollar base, see the note)."""
    rows = [
        {"iso3": r["iso3"], "field": field, "value": r[column], "source": SOURCE, "vintage": year, "note": note}
        for r in parsed.to_dict("records")
        for column, (field, year, note) in ATTRIBUTES.items()
        if pd.notna(r[column])
    ]
    return frame(rows)
