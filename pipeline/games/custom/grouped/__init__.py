"""The custom decks whose cards are items in groups (a user's table's rows, or countries in the recipe's own
groups): the custom slice's deck module and this package's card renderer; the rest is the family's, the
recipe's game (pipeline/games/custom/__init__.py: `definition`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.render import ports as render_ports

    from . import cards, deck

    _deck: deck_ports.DeckModule = deck
    _deck_metadata: deck_ports.Metadata = deck.metadata
    _deck_reasons: deck_ports.Reasons = deck.reasons
    _cards: render_ports.CardsModule = cards
    _cards_sources: render_ports.Sources = cards.SOURCES
    _cards_drawn_by: render_ports.DrawnBy = cards.drawn_by
