"""Play-check: seeded playouts of a game's rules engine, metrics and verdicts (`geodeck play-check`)."""

MAX_GAMES = 8_000_000  # the most playouts `--max-games` takes: advice never names more
