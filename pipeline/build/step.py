"""How a build step runs: what its function may touch (`StepIO`), the build's `Context`, and `call`, shared by
the runner (pipeline.build.runner) and its workers (pipeline.build.parallel); a step's declaration (`Step`) is
the framework's (pipeline.framework.step), below the games that declare steps."""

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import paths
from pipeline.framework.step import Step

if TYPE_CHECKING:  # annotations only: importing the store is for the steps that run
    from pipeline.extract import SnapshotStore, Source

OUTPUT_PREFIX = "output/"  # a written path under the repo's output/ (published decks); others are under build/


@dataclass(frozen=True)
class StepResult:
    step: str
    ran: bool
    note: str = ""
    cpu: float = 0.0  # CPU seconds of its function, in the process that ran it (make bench's critical path)


@dataclass
class Context:
    store: "SnapshotStore | None"  # opened by the caller, read only by the steps that run
    force: bool = False
    on_step: Callable[[str, int | None], None] = lambda name, units: None  # a step starts: name, units of work
    on_progress: Callable[[str, str], None] = lambda step, unit: None  # a step did a unit of work
    accept: str | None = None  # publish decks despite suspicious changes; the reason goes into CHANGELOG.md
    on_done: Callable[[str], None] = lambda name: None  # a step ended
    jobs: int = 1  # steps at most running side by side, each in a worker process (pipeline.build.parallel)


def resolve(relative: str) -> Path:
    """A step's read or written path: under the repo's output/ for OUTPUT_PREFIX, else under build/."""
    if relative.startswith(OUTPUT_PREFIX):
        return paths.OUTPUT_DIR / relative.removeprefix(OUTPUT_PREFIX)
    return paths.build_dir() / relative


@dataclass
class StepIO:
    """What a running step may touch: its declared paths and sources, the store, progress and --accept."""

    step: Step
    ctx: Context

    def path(self, relative: str) -> Path:
        if relative not in self.step.reads + self.step.writes:
            raise ValueError(f"step {self.step.name} does not declare {relative!r}; add it to its reads or writes")
        return resolve(relative)

    def source(self, name: str) -> "Source":
        """The definition of a declared source (sources/<name>.toml)."""
        from pipeline.extract import load_source

        if name not in self.step.sources:
            raise ValueError(f"step {self.step.name} does not declare source {name!r}")
        return load_source(paths.SOURCES_DIR / f"{name}.toml")

    @property
    def store(self) -> "SnapshotStore":
        if self.ctx.store is None:
            raise ValueError(f"step {self.step.name} reads sources but the build has no snapshot store")
        return self.ctx.store

    @property
    def accept(self) -> str | None:
        return self.ctx.accept

    def progress(self, unit: str) -> None:
        self.ctx.on_progress(self.step.name, unit)


def call(step: Step, ctx: Context) -> tuple[str, float]:
    """Run the step's function: its note for the build table and its CPU seconds."""
    start = time.process_time()
    note = importlib.import_module(step.module).step(StepIO(step, ctx), **dict(step.options), **dict(step.given)) or ""
    return note, time.process_time() - start
