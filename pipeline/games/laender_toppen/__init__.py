"""Länder toppen!: 120 country cards and 8 jokers, six categories, continent majorities (docs/laender-toppen.md)."""

from typing import TYPE_CHECKING

from pipeline.framework.definition import GameDefinition

GAME = GameDefinition(
    name="laender-toppen",
    package=__name__,
    default_players=4,
    input_table="geo/countries.parquet",
    card_verdicts=True,
    accessories_help="six folded paper strips and a scoring sheet",
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
