"""The custom decks whose cards are items in groups (a user's table's rows, or countries in the recipe's own
groups): the custom slice's deck module and this package's card renderer; the rest is the family's, the
recipe's game (pipeline/games/custom/__init__.py: `definition`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy checks the package's modules against the game contracts
    from pipeline.framework import contracts

    from . import cards, deck

    _deck: contracts.DeckModule = deck
    _cards: contracts.CardsModule = cards
