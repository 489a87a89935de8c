"""The grid card game (Deutschland: Das Kartenspiel's rules for any country, docs/regions.md):
a family, not a game: its rules engine and bots, notation, terminal, play-check collector,
the cards' backs and guess cards and the map on the 0-150 / 0-90 grid. A game of the family
(`GameDefinition.family`) is a configuration of it: Deutschland (its calibrated grid, its six rulebook towns,
its states) and every region deck, each a slice holding its deck, its place fronts and its map's divisions.
It has no `GAME`: the registry passes it over.
"""

import random
from typing import TYPE_CHECKING

from pipeline.framework import core
from pipeline.games.grid import engine


def _master(game: engine.Game, rng: random.Random) -> core.Policy:
    """The strongest bot (`players.master`), imported when first seated: numpy and scipy stay out of every
    command's start."""
    from pipeline.games.grid.players import master

    return master(game, rng)


engine.BOTS["master"] = _master  # the ladder's top, last (the engine does not import players.py: no import circle)


if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.framework import contracts
    from pipeline.play import ports as play_ports
    from pipeline.playcheck import ports as playcheck_ports
    from pipeline.records import ports as records_ports
    from pipeline.render import ports as render_ports

    from . import cards, engine, notation, playcheck, terminal

    _engine: contracts.EngineModule = engine
    _cards: render_ports.CardsModule = cards
    _cards_steps: render_ports.Steps = cards.steps
    _cards_printed: render_ports.Printed = cards.printed
    _playcheck: playcheck_ports.PlaycheckModule = playcheck
    _playcheck_counts: playcheck_ports.Names = playcheck.COUNTS
    _playcheck_categories: playcheck_ports.Names = playcheck.CATEGORIES
    _notation: records_ports.NotationModule = notation
    _terminal: play_ports.TerminalModule = terminal
    _terminal_progress: play_ports.Progress = terminal.progress
    _terminal_revealed: play_ports.Revealed = terminal.revealed
    _terminal_variants: play_ports.Variants = terminal.VARIANTS
    _terminal_refusal_words: play_ports.RefusalWords = terminal.refusal_words
    _terminal_cards_seen: play_ports.CardsSeen = terminal.cards_seen
