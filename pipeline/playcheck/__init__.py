"""Play-check: seeded playouts of a game's rules engine, metrics and verdicts (`geodeck play-check`)."""
