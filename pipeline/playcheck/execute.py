"""Where batches are played: in this process (`jobs=1`), a local process pool, or a Dask cluster.

Results come back in batch order whatever finished first, so the report is the same for every `jobs`
and for a cluster. A Dask cluster is started by the user (docs/rules-engines.md: `dask scheduler`, then
`dask worker ADDRESS` on each machine, in an environment with geodeck installed).
"""

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from pipeline.errors import GeodeckError
from pipeline.playcheck.play import Batch, Watch, play_batch
from pipeline.playcheck.tally import Tally
from pipeline.workers import worker_setup

Done = Callable[[Batch], None]


def run(
    batches: Sequence[Batch],
    deck: str,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Done = lambda b: None,
    watch: Watch | None = None,
) -> list[Tally]:
    """Each batch's tally, in batch order; `on_done(batch)` after each batch (progress); `watch` goes to
    `play_batch` (it must pickle; on a cluster it runs on the workers' machines)."""
    if scheduler:
        return _on_cluster(batches, deck, scheduler, on_done, watch)
    if jobs <= 1:
        results = []
        for batch in batches:
            results.append(play_batch(batch, deck, watch))
            on_done(batch)
        return results
    pool = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("forkserver"), initializer=worker_setup, initargs=(os.getpid(),)
    )
    try:
        futures = {pool.submit(play_batch, batch, deck, watch): i for i, batch in enumerate(batches)}
        return _in_order(futures, batches, on_done, as_completed(futures))
    finally:  # interrupted (Ctrl-C, SIGTERM): drop the batches not started, let the workers end
        pool.shutdown(cancel_futures=True)


def _in_order(futures: dict, batches: Sequence[Batch], on_done: Done, finished) -> list[Tally]:
    results: list[Tally | None] = [None] * len(batches)
    for future in finished:
        i = futures[future]
        results[i] = future.result()
        on_done(batches[i])
    return [r for r in results if r is not None]


CONNECT_TIMEOUT = "10s"  # how long --scheduler waits for the scheduler to answer


def _on_cluster(batches: Sequence[Batch], deck: str, scheduler: str, on_done: Done, watch: Watch | None) -> list[Tally]:
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
        shared = client.scatter(deck, broadcast=True)
        futures = {client.submit(play_batch, batch, shared, watch, pure=False): i for i, batch in enumerate(batches)}
        return _in_order(futures, batches, on_done, dask_completed(list(futures)))
