"""The World Game: 194 country cards with four facts and four challenges (docs/world-game.md)."""

from typing import TYPE_CHECKING

from pipeline.framework.definition import GameDefinition
from pipeline.i18n.catalogue import N_

GAME = GameDefinition(
    name="world-game",
    package=__name__,
    default_players=2,
    input_table="geo/countries.parquet",
    length_unit=N_("rounds"),
    accessories_help="the numbered world map, one A3 page or two A4/Letter pages to glue",
)

if TYPE_CHECKING:  # mypy checks the slice's modules against the game contracts
    from pipeline.framework import contracts

    from . import accessories, cards, deck, engine, notation, playcheck, terminal

    _deck: contracts.DeckModule = deck
    _cards: contracts.CardsModule = cards
    _accessories: contracts.AccessoriesModule = accessories
    _engine: contracts.EngineModule = engine
    _playcheck: contracts.PlaycheckModule = playcheck
    _notation: contracts.NotationModule = notation
    _terminal: contracts.TerminalModule = terminal
