"""The World Game in the conformance tests (tests/conformance.py): the synthetic 194-country deck, three
players (2-5 where a test goes through the counts) and the house rule that bounds random games (they run to
3,000 rounds)."""

from pathlib import Path

from fixtures.tiny.games.decks import world_game as deck

__all__ = ["OPTIONS", "PLAYERS", "PLAYER_COUNTS", "PRINT_DECK", "deck"]

PLAYERS = 3
PLAYER_COUNTS = (2, 3, 4, 5)  # of the rules' 2-9: the records test's budget
OPTIONS = {"round_limit": 150}
PRINT_DECK = Path(__file__).parents[2] / "fixtures" / "tiny" / "render" / "world-game.deck.json"  # cards to print
