"""The grid card game (Deutschland: Das Kartenspiel's rules for any country, docs/regions.md):
a family, not a game: its rules engine and bots, notation, terminal, play-check collector,
the cards' backs and guess cards and the map on the 0-150 / 0-90 grid. A game of the family
(`GameDefinition.family`) is a configuration of it: Deutschland (its calibrated grid, its six rulebook towns,
its states) and every region deck, each a slice holding its deck, its place fronts and its map's divisions.
It has no `GAME`: the registry passes it over.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy checks the family's modules against the game contracts
    from pipeline.framework import contracts

    from . import engine, notation, playcheck, terminal

    _engine: contracts.EngineModule = engine
    _playcheck: contracts.PlaycheckModule = playcheck
    _notation: contracts.NotationModule = notation
    _terminal: contracts.TerminalModule = terminal
