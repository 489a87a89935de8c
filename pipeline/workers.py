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
PR_SET_PDEATHSIG = 1  # Linux's prctl option (sys/prctl.h)
TRIM_THRESHOLD = 64 * 2**20  # bytes of freed memory a cluster's worker keeps before giving it back to the system

JOB_BYTES = 512 * 2**20  # the memory a local worker is allowed for (a region's search peaks near 400 MB)

Done = Callable[[int, Any], None]


def capped(jobs: int) -> tuple[int, str | None]:
    """`jobs` local processes, at most one per core this process may use and one per JOB_BYTES of available
    memory (`region build --all --jobs 1000` on 2 cores once started 137 processes and took 11.5 GB); with a
    note saying so when it caps."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    memory = _available_memory()
    cap = max(1, min(cores, memory // JOB_BYTES if memory else cores))
    if jobs <= cap:
        return jobs, None
    free = f", {memory / 2**30:.1f} GB of memory available at {JOB_BYTES // 2**20} MB each" if memory else ""
    return cap, f"--jobs {jobs} is more than this machine runs well: {cap} processes ({cores} cores{free})"


def _available_memory() -> int | None:
    """Bytes of memory available to new processes (Linux's MemAvailable; else the free pages; else None)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


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
    """In each worker: end when `parent` has ended, even when it is killed with `kill -9` and left unreaped (a
    zombie whose caller waits for the pipes the workers hold): a daemon thread looks once a second whether
    `parent` still runs (the forkserver then ends too: every worker holds its "alive" pipe), and the kernel
    kills the worker when the forkserver that forked it ends first (PR_SET_PDEATHSIG, Linux: a forkserver
    killed on its own); and ignore Ctrl-C, which the parent handles (it cancels the work not started and shuts
    its pool down)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    threading.Thread(target=_end_with, args=(parent,), daemon=True, name="end-with-parent").start()


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent ends (Linux's PR_SET_PDEATHSIG; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the parent's watch alone
        return


def running(pid: int) -> bool:
    """Whether process `pid` still runs: exists, and is no zombie (ended, not yet reaped by its caller)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone, or a process of another user took the number
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):  # no /proc: os.kill's answer
        return True
    return state not in (b"Z", b"X")


def _end_with(parent: int) -> None:
    while running(parent):
        time.sleep(PARENT_POLL_S)
    os._exit(1)
