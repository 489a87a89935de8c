"""Where independent pieces of work run: in this process, on local worker processes (play-check's batches,
`region build`'s countries, the build's steps) that end with the process that started them, even when it is
killed with `kill -9`, and leave Ctrl-C to it, or on a Dask cluster the user started (`dask scheduler`, then
`dask worker ADDRESS` on each machine, in an environment with geodeck installed)."""

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from pipeline.errors import GeodeckError

PARENT_POLL_S = 1.0  # how often a worker looks whether its parent still runs
CONNECT_TIMEOUT = "10s"  # how long --scheduler waits for the scheduler to answer

Done = Callable[[int, Any], None]


def mapped(
    function: Callable,
    items: Sequence,
    args: tuple = (),
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Done = lambda i, result: None,
) -> list:
    """`function(item, *args)` for each item, in this process (`jobs=1`), on `jobs` local processes, or on the
    Dask cluster at `scheduler` (`args` sent once to every worker): the results in item order whatever
    finished first, `on_done(index, result)` in this process as each one finishes."""
    if scheduler:
        return _on_cluster(function, items, args, scheduler, on_done)
    if jobs <= 1:
        results = []
        for i, item in enumerate(items):
            results.append(function(item, *args))
            on_done(i, results[-1])
        return results
    pool = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("forkserver"), initializer=worker_setup, initargs=(os.getpid(),)
    )
    try:
        futures = {pool.submit(function, item, *args): i for i, item in enumerate(items)}
        return _in_order(futures, len(items), on_done, as_completed(futures))
    finally:  # interrupted (Ctrl-C, SIGTERM): drop the work not started, let the workers end
        pool.shutdown(cancel_futures=True)


def _in_order(futures: dict, count: int, on_done: Done, finished) -> list:
    results: list = [None] * count
    for future in finished:
        i = futures[future]
        results[i] = future.result()
        on_done(i, results[i])
    return results


def _on_cluster(function: Callable, items: Sequence, args: tuple, scheduler: str, on_done: Done) -> list:
    from dask.distributed import Client
    from dask.distributed import as_completed as dask_completed

    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # unreachable, or not an address (bogus://x)
        raise GeodeckError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}); start one with `dask scheduler` "
            "and workers with `dask worker ADDRESS`, or drop --scheduler"
        ) from exc
    with client:
        shared = [client.scatter(a, broadcast=True) for a in args]
        futures = {client.submit(function, item, *shared, pure=False): i for i, item in enumerate(items)}
        return _in_order(futures, len(items), on_done, dask_completed(list(futures)))


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
