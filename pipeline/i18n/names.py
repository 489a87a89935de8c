"""Names from CLDR (through Babel) in any registered language: countries and territories by their ISO
3166-1 alpha-2 code or a UN M49 region code (continents: "150" Europe, "002" Africa, ...), and cities by
CLDR's time-zone exemplar cities (a capital that names its country's time zone: Europe/Warsaw ->
"Varsovie", "Warszawa")."""

from functools import cache

import babel
from babel import Locale, core

from pipeline.i18n.language import Language


def territory(code: str, lang: Language) -> str | None:
    """CLDR's name of the territory or region `code` in `lang`, or None where CLDR has none."""
    return lang.locale.territories.get(code)


def version() -> str:
    """The CLDR release Babel ships, as a provenance names it: "CLDR 47 (Babel 2.19.0)"."""
    return f"CLDR {core.get_cldr_version()} (Babel {babel.__version__})"


@cache
def _zones(iso2: str) -> dict[str, str]:
    """The time zones of a country by their exemplar city in the root locale (the zone's last part,
    "Mexico_City" -> "Mexico City") and in English where CLDR's English has its own ("Europe/Kyiv")."""
    english = Locale("en").time_zones
    zones: dict[str, str] = {}
    for zone, territory_code in core.get_global("zone_territories").items():
        if territory_code == iso2:
            zones[zone.rsplit("/", 1)[-1].replace("_", " ")] = zone
            city = english.get(zone, {}).get("city")
            if city:
                zones[city] = zone
    return zones


def city(name: str, iso2: str, lang: Language) -> str | None:
    """CLDR's exemplar city in `lang` of the time zone of country `iso2` named after the city `name`, or
    None where no zone is named after it or `lang`'s CLDR data has no name of its own for it."""
    zone = _zones(iso2).get(name)
    if zone is None:
        return None
    return lang.locale.time_zones.get(zone, {}).get("city")
