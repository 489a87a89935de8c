"""Where batches are played: in this process (`jobs=1`), a local process pool, or a Dask cluster.

`Workers` keeps the pool or the cluster's client open for as many checks as its caller runs (the card
optimiser's play-check of each candidate deck): the processes start, import geodeck and connect once. A
look's batches (BATCH_GAMES games, tens of milliseconds each) go out in tasks of several batches, a few per
worker (`tasks`), so that a task plays for about a second or more and the deck travels once per task (once
per worker on a cluster: scattered), not once per batch. Results come back per batch, in batch order whatever
finished first, so the report is the same for every `jobs`, any number of workers and on a cluster. A Dask
cluster is started by the user (docs/rules-engines.md: `dask scheduler`, then `dask worker ADDRESS` on each
machine, in an environment with geodeck installed).
"""

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from pipeline.errors import GeodeckError
from pipeline.playcheck.play import Batch, Watch, play_batch
from pipeline.playcheck.tally import Tally
from pipeline.workers import worker_setup

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
        self.client = None  # a dask.distributed.Client, imported only for a cluster

    def __enter__(self) -> "Workers":
        if self.scheduler:
            self.client = _connect(self.scheduler)
        elif self.jobs > 1:
            context = multiprocessing.get_context("forkserver")
            self.pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=worker_setup, initargs=(os.getpid(),)
            )
        return self

    def __exit__(self, *exc) -> None:
        if self.pool:
            self.pool.shutdown(cancel_futures=True)
        if self.client:
            self.client.close()

    @property
    def count(self) -> int:
        """How many batches play at once: the processes, or the cluster's worker threads."""
        if self.client is not None:
            return max(1, sum(self.client.nthreads().values()))
        return max(1, self.jobs)


def tasks(count: int, workers: int) -> list[list[int]]:
    """Batch positions 0..count-1 dealt in turn into TASKS_PER_WORKER tasks a worker: a kind's batches (of
    about equal work) go to different tasks, so tasks are about even, and the first handed out (the search
    bot's, the longest) start first."""
    n = min(count, TASKS_PER_WORKER * workers)
    return [list(range(first, count, n)) for first in range(n)]


def play_batches(batches: Sequence[Batch], deck: str, watch: Watch | None = None) -> list[Tally]:
    """One task: its batches' tallies, in order."""
    return [play_batch(batch, deck, watch) for batch in batches]


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
    dealt = tasks(len(batches), workers.count)
    if workers.client is not None:
        from dask.distributed import as_completed as dask_completed

        shared = workers.client.scatter(deck, broadcast=True)
        futures = {
            workers.client.submit(play_batches, [batches[i] for i in task], shared, watch, pure=False): task
            for task in dealt
        }
        return _in_order(futures, batches, on_done, dask_completed(list(futures)))
    assert workers.pool is not None
    futures = {workers.pool.submit(play_batches, [batches[i] for i in task], deck, watch): task for task in dealt}
    return _in_order(futures, batches, on_done, as_completed(futures))


def _in_order(futures: dict, batches: Sequence[Batch], on_done: Done, finished: Iterable) -> list[Tally]:
    """The tallies of every task's batches (`futures`: future -> its batches' positions) in batch order."""
    results: list[Tally | None] = [None] * len(batches)
    for future in finished:
        for i, tally in zip(futures[future], future.result()):
            results[i] = tally
            on_done(batches[i])
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
