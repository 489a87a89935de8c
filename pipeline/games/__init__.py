"""Games: one folder per game (a vertical slice), each declaring one `GameDefinition`
(pipeline/framework/definition.py), and the registry (registry.py) the door looks names up in.

The horizontal stages (deck publisher and diff, print engine, play-check runner) know no game by name: the
CLI looks a name up in the registry once and hands them the definition. docs/architecture.md lists the
modules a slice provides.
"""
