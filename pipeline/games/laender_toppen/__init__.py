"""Länder toppen!: 120 country cards and 8 jokers, six categories, continent majorities (docs/laender-toppen.md)."""

import random
from typing import TYPE_CHECKING

from pipeline.framework import core
from pipeline.framework.definition import GameDefinition
from pipeline.games.laender_toppen import engine

GAME = GameDefinition(
    name="laender-toppen",
    package=__name__,
    default_players=4,
    input_table="geo/countries.parquet",
    card_verdicts=True,
    accessories_help="six folded paper strips and a scoring sheet",
)


def _master(game: engine.Game, rng: random.Random) -> core.Policy:
    """The strongest bot (`players.master`), imported when first seated: numpy and scipy stay out of every
    command's start."""
    from pipeline.games.laender_toppen.players import master

    return master(game, rng)


engine.BOTS["master"] = _master  # the ladder's top, last (the engine does not import players.py: no import circle)


if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.framework import contracts
    from pipeline.play import ports as play_ports
    from pipeline.playcheck import ports as playcheck_ports
    from pipeline.records import ports as records_ports
    from pipeline.render import ports as render_ports

    from . import accessories, cards, deck, engine, notation, playcheck, terminal

    _engine: contracts.EngineModule = engine
    _deck: deck_ports.DeckModule = deck
    _deck_reasons: deck_ports.Reasons = deck.reasons
    _cards: render_ports.CardsModule = cards
    _cards_steps: render_ports.Steps = cards.steps
    _cards_art: render_ports.Art = cards.art
    _cards_printed: render_ports.Printed = cards.printed
    _cards_sources: render_ports.Sources = cards.SOURCES
    _accessories: render_ports.AccessoriesModule = accessories
    _accessories_rules_words: render_ports.RulesWords = accessories.rules_words
    _playcheck: playcheck_ports.PlaycheckModule = playcheck
    _playcheck_controls: playcheck_ports.Controls = playcheck.CONTROLS
    _playcheck_counts: playcheck_ports.Names = playcheck.COUNTS
    _playcheck_categories: playcheck_ports.Names = playcheck.CATEGORIES
    _notation: records_ports.NotationModule = notation
    _notation_choices: records_ports.Choices = notation.choices
    _notation_choose: records_ports.Choose = notation.choose
    _terminal: play_ports.TerminalModule = terminal
    _terminal_moves: play_ports.Moves = terminal.moves
    _terminal_progress: play_ports.Progress = terminal.progress
    _terminal_revealed: play_ports.Revealed = terminal.revealed
    _terminal_variants: play_ports.Variants = terminal.VARIANTS
    _terminal_refusal_words: play_ports.RefusalWords = terminal.refusal_words
    _terminal_cards_seen: play_ports.CardsSeen = terminal.cards_seen
