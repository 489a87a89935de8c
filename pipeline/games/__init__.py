"""Games: one folder per game (a vertical slice), each declaring one `GameDefinition` (definition.py).

The horizontal stages (deck publisher and diff, print engine, play-check runner) know no game by name: the
CLI looks a name up in the registry (registry.py) once and hands them the definition. docs/architecture.md
lists the modules a slice provides.
"""

from pipeline.games.definition import GameDefinition

__all__ = ["GameDefinition"]
