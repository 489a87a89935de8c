"""`geodeck build`: the step graph (pipeline.graph) run by the step runner (pipeline.steps).

`build(ctx, names)` runs every step in dependency order, or only those of the named stages or steps;
each step is skipped when its inputs and code are unchanged, so a second run does no work.
"""

from collections.abc import Iterable

from pipeline import games, graph, steps
from pipeline.steps import Context, StepResult

__all__ = ["Context", "StepResult", "build"]


def build(ctx: Context, names: Iterable[str] | None = None) -> list[StepResult]:
    """Run the named stages or steps (default: all) in dependency order; a deck step whose published folder
    needs a repair runs even when its inputs are unchanged (integrity.needs_build)."""
    from pipeline.decks import integrity

    names = None if names is None else list(names)
    chosen = None if names is None else set(names)
    for name, definition in games.registered().items():
        step = graph.deck_step(definition)
        wanted = definition.in_build and (chosen is None or bool(chosen & {step.name, step.stage}))
        if wanted and integrity.needs_build(name):
            steps.stamp_path(step.name).unlink(missing_ok=True)
    return steps.run(graph.steps(), ctx, names)
