"""How a build step runs: what its function may touch (`StepIO`), the build's `Context`, and `call`, shared by
the runner (pipeline.build.runner) and its workers (pipeline.build.parallel); a step's declaration (`Step`) is
the framework's (pipeline.framework.step), below the games that declare steps."""

import importlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import paths
from pipeline.errors import GeodeckError
from pipeline.framework.step import Step

if TYPE_CHECKING:  # annotations only: importing the store is for the steps that run
    from pipeline.extract import SnapshotStore, Source

OUTPUT_PREFIX = "output/"  # a written path under the repo's output/ (published decks); others are under build/
EVERY = ""  # the key of --accept's reason for every deck without one of its own
GAME_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # a game's name as --accept GAME=REASON writes it


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
    # publish decks despite suspicious changes: the reason by game (EVERY: the others'), into its CHANGELOG.md
    accept: dict[str, str] = field(default_factory=dict)
    on_done: Callable[[str], None] = lambda name: None  # a step ended
    jobs: int = 1  # steps at most running side by side, each in a worker process (pipeline.build.parallel)


def reasons(given: tuple[str, ...], games: list[str]) -> dict[str, str]:
    """`--accept`'s reasons by game: `GAME=REASON` (GAME one of `games`) is that game's deck's, a plain REASON
    every other deck's (EVERY), so that a deck's changelog says why of its own changes only; a game, or the
    plain reason, given twice or with an empty reason, or a word before `=` that looks like a game's name but
    is none, is refused in one line."""
    found: dict[str, str] = {}
    for text in given:
        name, equals, reason = text.partition("=")
        game = name.strip() if equals and GAME_NAME.fullmatch(name.strip()) else EVERY
        if game and game not in games:
            raise GeodeckError(
                f"--accept {text!r}: no game {game!r}; name one of {', '.join(games)}, or write a reason for every "
                "deck without '=' after its first word"
            )
        reason = reason.strip() if game else text
        if not reason:
            raise GeodeckError(f"--accept {text!r}: the reason is empty; write why after {game}=")
        if game in found:
            which = f"{game}=" if game else "a reason for every deck"
            raise GeodeckError(f"--accept: {which} is given twice; give one reason per game (GAME=REASON)")
        found[game] = reason
    return found


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

    def accept(self, game: str) -> str | None:
        """--accept's reason for `game`'s deck: its own, else the one for every deck, else None."""
        return self.ctx.accept.get(game, self.ctx.accept.get(EVERY))

    def progress(self, unit: str) -> None:
        self.ctx.on_progress(self.step.name, unit)


def call(step: Step, ctx: Context) -> tuple[str, float]:
    """Run the step's function: its note for the build table and its CPU seconds."""
    start = time.process_time()
    note = importlib.import_module(step.module).step(StepIO(step, ctx), **dict(step.options), **dict(step.given)) or ""
    return note, time.process_time() - start
