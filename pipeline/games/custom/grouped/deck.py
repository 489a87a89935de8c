"""A grouped custom deck's cards: the custom slice's deck module (pipeline/games/custom/deck.py)."""

from pipeline.games.custom.deck import cards, metadata, reasons

__all__ = ["cards", "metadata", "reasons"]
