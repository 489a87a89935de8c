"""Länder toppen in the conformance tests (tests/conformance.py): the synthetic full-size deck, three players."""

from pathlib import Path

from fixtures.tiny.games.decks import laender_toppen as deck

__all__ = ["PLAYERS", "PRINT_DECK", "deck"]

PLAYERS = 3
PRINT_DECK = Path(__file__).parents[2] / "fixtures" / "tiny" / "render" / "laender-toppen.deck.json"  # cards to print
