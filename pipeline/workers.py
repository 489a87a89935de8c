"""Local worker processes (play-check's batches, the build's steps) that end with the process that started
them, even when it is killed with `kill -9`, and leave Ctrl-C to it."""

import os
import signal
import threading
import time

PARENT_POLL_S = 1.0  # how often a worker looks whether its parent still runs


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
