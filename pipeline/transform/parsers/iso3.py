"""Country names and codes to ISO 3166-1 alpha-3 (Kosovo `XKX`), with country_converter's name patterns."""

import re
from functools import cache

import pandas as pd
import pycountry
from country_converter.country_converter import COUNTRY_DATA_FILE

KOSOVO = "XKX"
KOSOVO_ISO2 = "XK"  # user-assigned, as the EU and flag-icons use it


@cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    # country_converter 1.3.2 loads this table with pandas' default NA markers, which under pandas 3 turn
    # Namibia's ISO2 "NA" into a missing value and crash CountryConverter(); read it with only empty cells
    # as missing and use its name patterns directly.
    table = pd.read_csv(COUNTRY_DATA_FILE, sep="\t", dtype=str, keep_default_na=False, na_values=[""])
    current = table[table["obsolete"].isna()]
    return tuple((re.compile(rx, re.IGNORECASE), iso3) for rx, iso3 in zip(current["regex"], current["ISO3"]))


@cache
def name_to_iso3(name: str) -> str | None:
    """The ISO3 code whose country_converter pattern matches `name`; None when none or several match."""
    hits = {iso3 for pattern, iso3 in _patterns() if pattern.search(name)}
    return hits.pop() if len(hits) == 1 else None


def iso2_to_iso3(code: str) -> str | None:
    """ISO3 for an ISO 3166-1 alpha-2 code in any case (Kosovo's XK -> XKX); None for a code ISO does not know."""
    if code.upper() == KOSOVO_ISO2:
        return KOSOVO
    country = pycountry.countries.get(alpha_2=code.upper()) if len(code) == 2 else None
    return country.alpha_3 if country else None


def is_iso3(code: str) -> bool:
    """Whether `code` is an ISO 3166-1 alpha-3 country code, or Kosovo's user-assigned XKX."""
    return code == KOSOVO or pycountry.countries.get(alpha_3=code) is not None
