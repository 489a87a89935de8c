"""Decks: versioned card decks for the three games, and diffs between versions."""
