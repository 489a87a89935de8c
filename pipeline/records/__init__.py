"""Game records: one JSON document per game (docs/records.md), written while a game is played and replayed
move by move against the rules. Knows no game by name: each game's slice writes and reads its own deal and
moves (module `notation`, reached through the registry).
"""
