"""The build's steps side by side (`geodeck build --jobs N`): worker processes forked from the build, each
running one step at a time, their progress sent back over a queue. The parent decides what runs when,
hashes the outputs and writes the stamps (pipeline.build.runner), so results do not depend on which worker ran
what. Forked workers share what the build already imported and need no pickled context."""

import dataclasses
import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.queues import SimpleQueue

from pipeline import workers
from pipeline.build.step import Context, call
from pipeline.framework.step import Step

FORK = "fork" in multiprocessing.get_all_start_methods()  # elsewhere (Windows) the steps run one by one
POLL_S = 0.05  # how often the parent passes the workers' progress on while steps run

_context: list[Context] = []  # in a worker: the build's context, its progress going to the parent


def _setup(ctx: Context, progress: SimpleQueue, parent: int) -> None:
    workers.worker_setup(parent)
    _context.append(dataclasses.replace(ctx, jobs=1, on_progress=lambda step, unit: progress.put((step, unit))))


def _run(step: Step) -> tuple[str, float]:
    return call(step, _context[0])


class Pool:
    """Up to `size` steps at a time in forked workers; `submit` a step, `finished` the steps that ended."""

    def __init__(self, ctx: Context, size: int):
        fork = multiprocessing.get_context("fork")
        self.ctx, self.progress = ctx, fork.SimpleQueue()
        self.executor = ProcessPoolExecutor(
            size, mp_context=fork, initializer=_setup, initargs=(ctx, self.progress, os.getpid())
        )
        self.running: dict[Future, tuple[Step, str]] = {}

    def submit(self, step: Step, current: str) -> None:
        """Start `step` (fingerprint `current`): the first submit forks the workers, before the caller's
        `on_step` may start a thread (a progress bar)."""
        self.running[self.executor.submit(_run, step)] = (step, current)
        self.ctx.on_step(step.name, step.units)

    def finished(self) -> list[tuple[Step, str, tuple[str, float]]]:
        """(step, fingerprint, (note, CPU seconds)) of the steps that ended, waiting for at least one; a step's
        error is raised here, as it was raised in its worker."""
        done: set[Future] = set()
        while not done:
            done, _ = wait(self.running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            while not self.progress.empty():
                self.ctx.on_progress(*self.progress.get())
        ended = []
        for future in sorted(done, key=lambda f: self.running[f][0].name):
            step, current = self.running.pop(future)
            ended.append((step, current, future.result()))
            self.ctx.on_done(step.name)
        return ended

    def close(self) -> None:
        """Drop the steps not started, wait for the running ones (a failed or interrupted build), end the
        workers."""
        self.executor.shutdown(cancel_futures=True)
