"""What a build step is: its declaration, made by the build's graph (pipeline/build/graph.py) and by the games
that declare steps of their own (`GameDefinition.steps`), run by pipeline/build/step.py."""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    name: str
    stage: str  # the `geodeck build --stage` group it belongs to
    module: str  # its `step(io, **options)` function gets a StepIO and may return a note for the build table
    reads: tuple[str, ...] = ()  # outputs of earlier steps, relative to build/
    writes: tuple[
        str, ...
    ] = ()  # relative to build/, or to the repo when starting with "output/" (pipeline.build.step.OUTPUT_PREFIX)
    files: tuple[str, ...] = ()  # repo files read, relative to the repo (glob patterns allowed)
    sources: tuple[str, ...] = ()  # pinned sources read through the snapshot store
    code: tuple[str, ...] = ()  # modules loaded by name at run time, besides the imports of `module`
    options: tuple[tuple[str, str], ...] = ()  # keyword arguments of its `step` function
    # further keyword arguments, objects the build graph made (a deck step's game definition: the graph, a door,
    # turns names into games), not in its fingerprint: what they hold is declared above (its options, reads)
    given: tuple[tuple[str, Any], ...] = ()
    units: int | None = None  # units of work it reports progress in, if known
