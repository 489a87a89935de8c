"""Deutschland: Das Kartenspiel: 96 places on the 0-150 / 0-90 grid, 24 guess cards (docs/deutschland.md).

The grid game's calibrated configuration (family pipeline.games.grid: its engine, bots, notation, terminal,
play-check): this slice holds Germany's grid (calibrated on the rulebook's six towns), its states and its
place selection, its deck, its place fronts and its map."""

from typing import TYPE_CHECKING

from pipeline.framework.definition import GameDefinition
from pipeline.framework.step import Step

GAME = GameDefinition(
    name="deutschland",
    package=__name__,
    family="pipeline.games.grid",
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

if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.framework import contracts
    from pipeline.render import ports as render_ports

    from . import accessories, cards, commands, deck

    _commands: contracts.CommandsModule = commands
    _deck: deck_ports.DeckModule = deck
    _deck_metadata: deck_ports.Metadata = deck.metadata
    _deck_reasons: deck_ports.Reasons = deck.reasons
    _cards: render_ports.CardsModule = cards
    _cards_steps: render_ports.Steps = cards.steps
    _cards_art: render_ports.Art = cards.art
    _cards_printed: render_ports.Printed = cards.printed
    _cards_sources: render_ports.Sources = cards.SOURCES
    _cards_for_sale: render_ports.ForSale = cards.FOR_SALE
    _accessories: render_ports.AccessoriesModule = accessories
    _accessories_sources: render_ports.Sources = accessories.SOURCES
    _accessories_for_sale: render_ports.ForSale = accessories.FOR_SALE
