"""Each game's deck step (graph.deck_step): publish a new version of its game when its cards changed. The
graph gives the step its game's definition (`given`): the graph, a door, is where a name became a game."""

from pipeline.build import graph
from pipeline.decks import stage
from pipeline.framework.definition import GameDefinition


def step(io, game: str, definition: GameDefinition) -> str:
    """Publish the deck of `definition` (pipeline.decks.stage.build_deck; `game`, its name, is the option its
    fingerprint holds); says which version."""
    result = stage.build_deck(definition, accept=io.accept(game), rebuild=graph.rebuild(definition))
    return f"published {result.version}" if result.published else f"{result.version} unchanged"
