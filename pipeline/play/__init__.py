"""`geodeck play GAME`: a game in the terminal, humans and bots at one table, saved as a record.

Knows no game by name: each game's slice draws its table for a human (module `terminal`) and writes its
moves (module `notation`); the bots are the engine's policies.
"""
