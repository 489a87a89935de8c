"""Where batches are played: in this process (`jobs=1`), a local process pool, or a Dask cluster.

`Workers` keeps the pool or the cluster's client open for as many checks as its caller runs (the card
optimiser's play-check of each candidate deck): the processes start, import geodeck and connect once. A
look's batches (BATCH_GAMES games, tens of milliseconds each) go out in tasks of several batches, a few per
worker (`tasks`), so that a task plays for about a second or more and the deck travels once per task (once
per worker on a cluster: scattered), not once per batch; once each kind's CPU seconds per game are known from
an earlier look, the tasks are made of about equal work, so that the workers end a look together. Results
come back per batch and merge in batch order whatever finished first and whichever task played them, so the
report is the same for every `jobs`, any number of workers and on a cluster. A Dask
cluster is started by the user (docs/rules-engines.md: `dask scheduler`, then `dask worker ADDRESS` on each
machine, in an environment with geodeck installed).
"""

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING

from pipeline.errors import GeodeckError
from pipeline.playcheck.play import Batch, Watch, play_batch
from pipeline.playcheck.tally import Tally
from pipeline.workers import worker_setup

if TYPE_CHECKING:
    from dask.distributed import Client

Done = Callable[[Batch], None]
TASKS_PER_WORKER = 4  # tasks per worker and look: few, so each plays long; more than one, so they even out
CONNECT_TIMEOUT = "10s"  # how long --scheduler waits for the scheduler to answer


class Workers:
    """Where a check's batches play: here (`jobs=1`), `jobs` local processes or the Dask cluster at
    `scheduler`, started on entering (`with Workers(jobs, scheduler) as workers`) and ended on leaving (an
    interrupt drops the batches not started)."""

    def __init__(self, jobs: int = 1, scheduler: str | None = None):
        self.jobs, self.scheduler = jobs, scheduler
        self.pool: ProcessPoolExecutor | None = None
        self.client: Client | None = None  # imported only for a cluster
        self.cost: dict[str, float] = {}  # CPU seconds per game of each kind of playout, as last measured
        self._scattered: tuple[str, object] | None = None  # the deck on every worker of the cluster, its future

    def __enter__(self) -> "Workers":
        if self.scheduler:
            self.client = _connect(self.scheduler)
        elif self.jobs > 1:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])  # imported once by the server, not by each worker
            self.pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=worker_setup, initargs=(os.getpid(),)
            )
        return self

    def __exit__(self, *exc) -> None:
        if self.pool:
            self.pool.shutdown(cancel_futures=True)
        if self.client:
            self.client.close()

    def scattered(self, deck: str):
        """The deck sent to every worker of the cluster once, for as many looks as play it."""
        assert self.client is not None
        if self._scattered is None or self._scattered[0] != deck:
            self._scattered = (deck, self.client.scatter(deck, broadcast=True))
        return self._scattered[1]

    @property
    def count(self) -> int:
        """How many batches play at once: the processes, or the cluster's worker threads."""
        if self.client is not None:
            return max(1, sum(self.client.nthreads().values()))
        return max(1, self.jobs)


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
    `play_batch` (it must pickle; on a cluster it runs on the workers' machines)."""
    if workers.pool is None and workers.client is None:
        results = []
        for batch in batches:
            results.append(play_batch(batch, deck, watch))
            on_done(batch)
        return results
    dealt = tasks(batches, workers.count, workers.cost)
    if workers.client is not None:
        from dask.distributed import as_completed as dask_completed

        shared = workers.scattered(deck)
        futures = {
            workers.client.submit(play_batches, [batches[i] for i in task], shared, watch, pure=False): task
            for task in dealt
        }
        return _in_order(futures, batches, on_done, dask_completed(list(futures)), workers.cost)
    assert workers.pool is not None
    futures = {workers.pool.submit(play_batches, [batches[i] for i in task], deck, watch): task for task in dealt}
    return _in_order(futures, batches, on_done, as_completed(futures), workers.cost)


def _in_order(
    futures: dict, batches: Sequence[Batch], on_done: Done, finished: Iterable, cost: dict[str, float]
) -> list[Tally]:
    """The tallies of every task's batches (`futures`: future -> its batches' positions) in batch order;
    `cost` learns each kind's CPU seconds per game."""
    results: list[Tally | None] = [None] * len(batches)
    seconds: dict[str, list[float]] = {}
    for future in finished:
        for i, (tally, cpu) in zip(futures[future], future.result()):
            results[i] = tally
            spent = seconds.setdefault(batches[i].kind.name, [0.0, 0.0])
            spent[0], spent[1] = spent[0] + cpu, spent[1] + batches[i].games
            on_done(batches[i])
    cost |= {kind: cpu / games for kind, (cpu, games) in seconds.items()}
    return [r for r in results if r is not None]


def _connect(scheduler: str):
    from dask.distributed import Client

    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # unreachable, or not an address (bogus://x)
        raise GeodeckError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}); start one with `dask scheduler` "
            "and workers with `dask worker ADDRESS`, or drop --scheduler"
        ) from exc
