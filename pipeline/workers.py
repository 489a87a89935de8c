"""Where independent pieces of work run: in this process, on local worker processes (play-check's batches,
`region build`'s countries, the build's steps) that end with the process that started them, even when it is
killed with `kill -9`, and leave Ctrl-C to it, or on a Dask cluster the user started (`dask scheduler`, then
`dask worker ADDRESS` on each machine, in an environment with geodeck installed)."""

import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any, Self

from pipeline.errors import GeodeckError

if TYPE_CHECKING:
    from dask.distributed import Client

PARENT_POLL_S = 1.0  # how often a worker looks whether its parent still runs
CONNECT_TIMEOUT = "10s"  # how long --scheduler waits for the scheduler to answer
M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter (malloc.h)
TRIM_THRESHOLD = 64 * 2**20  # bytes of freed memory a cluster's worker keeps before giving it back to the system

Done = Callable[[int, Any], None]


class Workers:
    """Where work runs, open for as many maps as its user runs (the card optimiser plays every deck it tries on
    the same processes): here (`jobs=1`), `jobs` local processes (forked by a server that imported `preload`
    once for them) or the Dask cluster at `scheduler`, started on entering (`with Workers(jobs, scheduler) as
    workers`) and ended on leaving (an interrupt, Ctrl-C or SIGTERM, drops the work not started)."""

    def __init__(self, jobs: int = 1, scheduler: str | None = None, preload: Sequence[str] = ()):
        self.jobs, self.scheduler, self.preload = jobs, scheduler, list(preload)
        self.pool: ProcessPoolExecutor | None = None
        self.client: Client | None = None  # imported only for a cluster

    def __enter__(self) -> Self:
        if self.scheduler:
            self.client = _connect(self.scheduler)
            self.client.run(keep_freed_memory)
        elif self.jobs > 1:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(self.preload)
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
        """How many pieces of work run at once: the processes, or the cluster's worker threads (1: here)."""
        if self.client is not None:
            return max(1, sum(self.client.nthreads().values()))
        return max(1, self.jobs) if self.pool else 1

    def map(self, function: Callable, items: Sequence, args: tuple = (), on_done: Done = lambda i, r: None) -> list:
        """`function(item, *args)` for each item (`args` sent once to every worker of a cluster): the results in
        item order whatever finished first, `on_done(index, result)` in this process as each one finishes."""
        if self.client is not None:
            from dask.distributed import as_completed as dask_completed

            shared = [self.client.scatter(a, broadcast=True) for a in args]
            futures = {self.client.submit(function, item, *shared, pure=False): i for i, item in enumerate(items)}
            return _in_order(futures, len(items), on_done, dask_completed(list(futures)))
        if self.pool is not None:
            futures = {self.pool.submit(function, item, *args): i for i, item in enumerate(items)}
            return _in_order(futures, len(items), on_done, as_completed(futures))
        results = []
        for i, item in enumerate(items):
            results.append(function(item, *args))
            on_done(i, results[-1])
        return results


def mapped(
    function: Callable,
    items: Sequence,
    args: tuple = (),
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Done = lambda i, result: None,
) -> list:
    """`Workers.map` on workers started for it alone."""
    with Workers(jobs, scheduler) as workers:
        return workers.map(function, items, args, on_done)


def keep_freed_memory() -> None:
    """On each worker of a cluster: raise glibc's trim threshold, which Dask's nanny lowers to 64 KiB
    (`MALLOC_TRIM_THRESHOLD_`): there every freed numpy temporary gave its pages back and the next took them
    again, and a region's search (its map's label checks) ran 1.5-1.9 x slower than on a local process."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: another allocator, not lowered by the nanny
        return
    libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def _in_order(futures: dict, count: int, on_done: Done, finished) -> list:
    results: list = [None] * count
    for future in finished:
        i = futures[future]
        results[i] = future.result()
        on_done(i, results[i])
    return results


def _connect(scheduler: str) -> "Client":
    """A client of the Dask scheduler at `scheduler`, once one answers there (pipeline.scheduler: fails fast)."""
    from dask.distributed import Client

    from pipeline import scheduler as probe

    probe.check(scheduler)
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # unreachable, or not an address (bogus://x)
        raise GeodeckError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}); start one with `dask scheduler` "
            "and workers with `dask worker ADDRESS`, or drop --scheduler"
        ) from exc


def worker_setup(parent: int) -> None:
    """In each worker: end when `parent` has ended (a daemon thread looks once a second: a worker forked by a
    forkserver outlives its parent, and no signal would reach it), and ignore Ctrl-C, which the parent
    handles (it cancels the work not started and shuts its pool down)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(parent,), daemon=True, name="end-with-parent").start()


def _end_with(parent: int) -> None:
    while True:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # a process of another user took the number: ours has ended
            os._exit(1)
        time.sleep(PARENT_POLL_S)
