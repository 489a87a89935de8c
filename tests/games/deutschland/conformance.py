"""Deutschland in the conformance tests (tests/conformance.py): the synthetic full-size deck, four players."""

from fixtures.tiny.games.decks import deutschland as deck

__all__ = ["PLAYERS", "deck"]

PLAYERS = 4
