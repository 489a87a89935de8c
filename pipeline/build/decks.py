"""Each game's deck step (graph.deck_step): publish a new version of the game its option names when its
cards changed. The game is looked up in the registry here: the build graph is, besides the CLI, the
registry's one reader."""

from pipeline.decks import stage
from pipeline.games import registry


def step(io, game: str) -> str:
    """Publish GAME's deck (pipeline.decks.stage.build_deck); says which version."""
    result = stage.build_deck(registry.get(game), accept=io.accept)
    return f"published {result.version}" if result.published else f"{result.version} unchanged"
