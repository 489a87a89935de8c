"""Deutschland in the conformance tests (tests/conformance.py): the synthetic full-size deck, four players."""

from pathlib import Path

from fixtures.tiny.games.decks import deutschland as deck

__all__ = ["PLAYERS", "PRINT_DECK", "deck"]

PLAYERS = 4
PRINT_DECK = Path(__file__).parents[2] / "fixtures" / "tiny" / "render" / "deutschland.deck.json"  # cards to print
