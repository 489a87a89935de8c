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
    _accessories_sources: render_ports.Sources = accessories.SOURCES
    _accessories_rules_words: render_ports.RulesWords = accessories.rules_words
    _playcheck: playcheck_ports.PlaycheckModule = playcheck
    _playcheck_counts: playcheck_ports.Names = playcheck.COUNTS
    _playcheck_ladder_note: playcheck_ports.LadderNote = playcheck.LADDER_NOTE
    _notation: records_ports.NotationModule = notation
    _terminal: play_ports.TerminalModule = terminal
    _terminal_progress: play_ports.Progress = terminal.progress
    _terminal_revealed: play_ports.Revealed = terminal.revealed
    _terminal_free_text: play_ports.FreeText = terminal.free_text
    _terminal_read: play_ports.Read = terminal.read
    _terminal_variants: play_ports.Variants = terminal.VARIANTS
    _terminal_refusal_words: play_ports.RefusalWords = terminal.refusal_words
    _terminal_refused: play_ports.Refused = terminal.refused
