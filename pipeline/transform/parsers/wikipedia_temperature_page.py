"""Wikipedia "List of cities by average temperature", scraped from the saved page (a pinned HTML file).

The page has one wikitable per continent: Country, City, twelve months, Year, Ref.; each temperature cell
reads °C with °F in parentheses ("−3.7 (25.3)"), countries span several rows (rowspan), country cells
carry flag icons, and numbers may carry footnotes. `parse` keeps country, city and the Year column's °C.
A country name resolves to ISO3 where country_converter knows it (None otherwise).

Not yet a card input: the cards' capital temperatures come from `city_temperatures` (the same page,
transcribed by gunnarmorling/1brc) until this page is pinned (`geodeck fetch --refresh
wikipedia-temperature-page`) and reviewed against it.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform.parsers import wikitable
from pipeline.transform.parsers.common import Complete
from pipeline.transform.parsers.iso3 import name_to_iso3

SOURCE = "wikipedia-temperature-page"
FILE = "List_of_cities_by_average_temperature.html"
COMPLETE = Complete(rows=300, countries=120)  # the page lists about 450 cities in about 170 countries
# output column -> the page's header (matched case-insensitively as the start of the header)
HEADERS = {"country": "Country", "city": "City", "year": "Year"}
PLAUSIBLE_C = (-60.0, 45.0)
COLUMNS = ["country", "iso3", "city", "mean_temp_c"]


def read(store, source) -> bytes:
    return store.read_source(source, FILE)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per city over every continent's table, in page order; columns COLUMNS (`mean_temp_c`: °C)."""
    rows = []
    for table in wikitable.with_columns(wikitable.tables(raw, SOURCE, FILE), HEADERS, SOURCE, FILE):
        at = {name: table.column(name) for name in HEADERS}
        for cells in table.rows:
            country, city, year = (cells[at[n]] for n in ("country", "city", "year"))
            celsius = year.number()
            if not city.text or celsius is None or not PLAUSIBLE_C[0] <= celsius <= PLAUSIBLE_C[1]:
                raise ParseError(SOURCE, "Year", f"{city.text or '(no city)'}: {year.text!r} is not a °C mean")
            rows.append(
                {"country": country.text, "iso3": name_to_iso3(country.text), "city": city.text, "mean_temp_c": celsius}
            )
    return pd.DataFrame(rows, columns=COLUMNS)
