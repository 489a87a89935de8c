"""Wikipedia "List of elevation extremes by country", scraped from the saved page (a pinned HTML file).

One sortable wikitable: Country or region (with a flag icon), Highest point, Maximum elevation, Lowest
point, Minimum elevation. Elevations read "8,848 m (29,029 ft)" or carry a `data-sort-value`; lows below
sea level use U+2212 ("−28 m"); "sea level" without a number is 0 m. Footnote markers are dropped. A
country name resolves to ISO3 where country_converter knows it (None for regions such as "Akrotiri").

Not yet a card input: the cards' highest points come from the Factbook and 7summits until this page is
pinned (`geodeck fetch --refresh wikipedia-elevation-extremes`) and reviewed against them.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform.parsers import wikitable
from pipeline.transform.parsers.common import Complete
from pipeline.transform.parsers.iso3 import name_to_iso3

SOURCE = "wikipedia-elevation-extremes"
FILE = "List_of_elevation_extremes_by_country.html"
COMPLETE = Complete(rows=180, countries=160)  # the page lists about 250 countries and territories
# output column -> the page's header (matched case-insensitively as the start of the header)
HEADERS = {
    "country": "Country",
    "highest_point": "Highest point",
    "highest_m": "Maximum elevation",
    "lowest_point": "Lowest point",
    "lowest_m": "Minimum elevation",
}
PLAUSIBLE_M = (-500.0, 9000.0)
COLUMNS = ["country", "iso3", "highest_point", "highest_m", "lowest_point", "lowest_m"]


def read(store, source) -> bytes:
    return store.read_source(source, FILE)


def metres(cell: wikitable.Cell, country: str, column: str) -> float:
    """The elevation in metres of a cell: its number ("sea level" is 0), within PLAUSIBLE_M."""
    value = cell.number()
    if value is None and "sea level" in cell.text.lower():
        value = 0.0
    if value is None or not PLAUSIBLE_M[0] <= value <= PLAUSIBLE_M[1]:
        raise ParseError(SOURCE, column, f"{country}: {cell.text!r} is not an elevation in metres")
    return value


def parse(raw: bytes) -> pd.DataFrame:
    """One row per country or region, in page order; columns COLUMNS (elevations in metres)."""
    rows = []
    for table in wikitable.with_columns(wikitable.tables(raw, SOURCE, FILE), HEADERS, SOURCE, FILE):
        at = {name: table.column(name) for name in HEADERS}
        for cells in table.rows:
            get = {name: cells[i] for name, i in at.items()}
            country = get["country"].text
            if not country or not get["highest_point"].text:
                raise ParseError(SOURCE, "Country, Highest point", f"empty in a row ({country or 'no country'})")
            rows.append(
                {
                    "country": country,
                    "iso3": name_to_iso3(country),
                    "highest_point": get["highest_point"].text,
                    "highest_m": metres(get["highest_m"], country, HEADERS["highest_m"]),
                    "lowest_point": get["lowest_point"].text,
                    "lowest_m": metres(get["lowest_m"], country, HEADERS["lowest_m"]),
                }
            )
    return pd.DataFrame(rows, columns=COLUMNS)
