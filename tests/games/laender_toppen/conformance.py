"""Länder toppen in the conformance tests (tests/conformance.py): the synthetic full-size deck, three players."""

from fixtures.tiny.games.decks import laender_toppen as deck

__all__ = ["PLAYERS", "deck"]

PLAYERS = 3
