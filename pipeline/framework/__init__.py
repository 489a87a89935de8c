"""The game framework, below every stage: what a game declares (definition.py: `GameDefinition`, the modules
of its slice found by name; step.py: the build steps it declares), the rules engines' shared core loop
(core.py) and the search bot (search.py). It imports only the shared utilities of `pipeline` and no game,
stage or door (docs/architecture.md: the layers)."""
