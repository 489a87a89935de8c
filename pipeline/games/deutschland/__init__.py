"""Deutschland: Das Kartenspiel: 96 places on the 0-150 / 0-90 grid, 24 guess cards (docs/deutschland.md)."""

from typing import TYPE_CHECKING

from pipeline.build.step import Step
from pipeline.games.definition import GameDefinition

GAME = GameDefinition(
    name="deutschland",
    package=__name__,
    default_players=4,
    input_table="geo/places.parquet",
    deck_reads=("geo/grid_report.json",),
    steps=(
        Step(
            "geo-places",
            "geo",
            "pipeline.games.deutschland.places",
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
    ),
    accessories_help="the map of Germany on the game's grid",
)

if TYPE_CHECKING:  # mypy checks the slice's modules against the game contracts
    from pipeline.games import contracts

    from . import accessories, cards, commands, deck, engine, notation, playcheck, terminal

    _deck: contracts.DeckModule = deck
    _cards: contracts.CardsModule = cards
    _accessories: contracts.AccessoriesModule = accessories
    _engine: contracts.EngineModule = engine
    _playcheck: contracts.PlaycheckModule = playcheck
    _notation: contracts.NotationModule = notation
    _terminal: contracts.TerminalModule = terminal
    _commands: contracts.CommandsModule = commands
