"""Where batches are played: in this process (`jobs=1`), a local process pool, or a Dask cluster
(pipeline.workers.Workers).

`Workers` stay open for as many checks as their user runs (the card optimiser's play-check of each candidate
deck): the processes start, import the play-check and connect once. A look's batches (BATCH_GAMES games, tens
of milliseconds each) go out in tasks of several batches, a few per worker (`tasks`), so that a task plays for
about a second or more and the deck travels once per task (once per worker on a cluster: scattered), not once
per batch; once each kind's CPU seconds per game are known from an earlier look, the tasks are made of about
equal work, so that the workers end a look together. Results come back per batch and merge in batch order
whatever finished first and whichever task played them, so the report is the same for every `jobs`, any
number of workers and on a cluster. A Dask cluster is started by the user (docs/rules-engines.md: `dask
scheduler`, then `dask worker ADDRESS` on each machine, in an environment with geodeck installed).
"""

import time
from collections.abc import Callable, Sequence

from pipeline import workers as processes
from pipeline.playcheck.play import Batch, Watch, play_batch
from pipeline.playcheck.tally import Tally

Done = Callable[[Batch], None]
TASKS_PER_WORKER = 4  # tasks per worker and look: few, so each plays long; more than one, so they even out


class Workers(processes.Workers):
    """Play-check's workers: their processes import the play-check once (forked from a server that did), and
    they keep the CPU seconds per game of each kind of playout they played (`cost`, as last measured)."""

    def __init__(self, jobs: int = 1, scheduler: str | None = None):
        super().__init__(jobs, scheduler, preload=(__name__,))
        self.cost: dict[str, float] = {}


def tasks(batches: Sequence[Batch], workers: int, cost: dict[str, float]) -> list[list[int]]:
    """Batch positions dealt into TASKS_PER_WORKER tasks a worker. With every kind's CPU seconds per game
    known (`cost`), each batch, the most work first, goes to the task with the least work so far, and the tasks
    go out the most work first (they end about together); else the batches are dealt in turn: a kind's batches
    (of about equal work) to different tasks, the first handed out (the search bot's, the longest) started first."""
    n = min(len(batches), TASKS_PER_WORKER * workers)
    if not all(batch.kind.name in cost for batch in batches):
        return [list(range(first, len(batches), n)) for first in range(n)]
    work = [batch.games * cost[batch.kind.name] for batch in batches]
    dealt: list[list[int]] = [[] for _ in range(n)]
    load = [0.0] * n
    for i in sorted(range(len(batches)), key=lambda i: -work[i]):
        task = min(range(n), key=load.__getitem__)
        dealt[task].append(i)
        load[task] += work[i]
    return [sorted(dealt[task]) for task in sorted(range(n), key=lambda task: -load[task])]


def play_batches(batches: Sequence[Batch], deck: str, watch: Watch | None = None) -> list[tuple[Tally, float]]:
    """One task: its batches' tallies, in order, each with the CPU seconds it took."""
    played = []
    for batch in batches:
        start = time.process_time()
        played.append((play_batch(batch, deck, watch), time.process_time() - start))
    return played


def run(
    batches: Sequence[Batch],
    deck: str,
    workers: Workers,
    on_done: Done = lambda b: None,
    watch: Watch | None = None,
) -> list[Tally]:
    """Each batch's tally, in batch order; `on_done(batch)` after each batch (progress); `watch` goes to
    `play_batch` (it must pickle; on a cluster it runs on the workers' machines). Played here, each batch is a
    task of its own."""
    dealt = tasks(batches, workers.count, workers.cost) if workers.count > 1 else [[i] for i in range(len(batches))]
    seconds: dict[str, list[float]] = {}

    def done(task: int, played: list[tuple[Tally, float]]) -> None:
        for i, (_, cpu) in zip(dealt[task], played):
            spent = seconds.setdefault(batches[i].kind.name, [0.0, 0.0])
            spent[0], spent[1] = spent[0] + cpu, spent[1] + batches[i].games
            on_done(batches[i])

    results = workers.map(play_batches, [[batches[i] for i in task] for task in dealt], (deck, watch), done)
    workers.cost |= {kind: cpu / games for kind, (cpu, games) in seconds.items()}
    tallies: list[Tally | None] = [None] * len(batches)
    for task, played in zip(dealt, results):
        for i, (tally, _) in zip(task, played):
            tallies[i] = tally
    return [t for t in tallies if t is not None]
