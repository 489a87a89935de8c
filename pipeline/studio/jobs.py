"""Long work (publish, kit, sheets, exports) in a worker process each, started with `spawn` (nothing of the
server's state goes along), bounded (at most `LIMIT` at once, `WALL_S` seconds of wall time and of CPU time
each, ended with the server: pipeline.workers.die_with_parent), cancellable, and cancelled when its page stops
asking for it (the tab closed). A job belongs to its session: another session neither sees nor cancels it."""

import multiprocessing
import resource
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import GeodeckError
from pipeline.fixes import Fixable

LIMIT = 2  # jobs at once (the machine's cores: a play-check uses one each)
WALL_S = 900  # seconds a job may take
ABANDONED_S = 30  # a job its page has not asked about this long is cancelled (the tab closed)
RUNNING, DONE, FAILED, CANCELLED = "running", "done", "failed", "cancelled"


class Busy(GeodeckError):
    """As many jobs run as the studio allows."""


def _child(connection, task: Callable, args: tuple) -> None:
    from pipeline import workers

    workers.die_with_parent()
    resource.setrlimit(resource.RLIMIT_CPU, (WALL_S, WALL_S))
    try:
        result = task(*args, lambda step: connection.send(("step", step)))
        connection.send((DONE, result))
    except GeodeckError as exc:  # the stage's own one-line message
        if isinstance(exc, Fixable) and exc.fixes:  # its fixes as data (pipeline/fixes.py: a refusal, a gate)
            connection.send(("fixes", exc.fixes))
        connection.send((FAILED, str(exc)))
    except Exception as exc:  # not the user's mistake: said in one line, the job ends
        connection.send((FAILED, f"{type(exc).__name__}: {exc}"))
    finally:
        connection.close()


@dataclass
class Job:
    id: str
    session: str
    kind: str
    process: Any
    connection: Any
    state: str = RUNNING
    step: str = ""
    result: Any = None
    fixes: list = field(default_factory=list)  # an error's fixes as data (pipeline/fixes.py), offered as buttons
    started: float = field(default_factory=time.monotonic)
    asked: float = field(default_factory=time.monotonic)
    estimate: float | None = None  # the seconds it was expected to take (pipeline/studio/estimates.py)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


class Jobs:
    def __init__(self) -> None:
        self.known: dict[str, Job] = {}
        self.context = multiprocessing.get_context("spawn")

    def start(self, session: str, kind: str, task: Callable, *args, estimate: float | None = None) -> Job:
        self.sweep()
        if sum(job.state == RUNNING for job in self.known.values()) >= LIMIT:
            raise Busy(f"{LIMIT} jobs are running; wait for one to end")
        parent, child = self.context.Pipe(duplex=False)
        process = self.context.Process(target=_child, args=(child, task, args), daemon=True)
        process.start()
        child.close()
        job = Job(secrets.token_urlsafe(16), session, kind, process, parent, estimate=estimate)
        self.known[job.id] = job
        return job

    def get(self, session: str, job_id: str) -> Job | None:
        """The job `job_id` of `session` (another session's is None), its state brought up to date."""
        job = self.known.get(job_id)
        if job is None or job.session != session:
            return None
        job.asked = time.monotonic()
        self._update(job)
        return job

    def cancel(self, job: Job) -> None:
        if job.state == RUNNING:
            job.process.terminate()
            job.process.join(5)
            job.state = CANCELLED

    def sweep(self) -> None:
        """Bring every job up to date; cancel the abandoned and the overdue."""
        now = time.monotonic()
        for job in list(self.known.values()):
            self._update(job)
            if job.state == RUNNING and (now - job.asked > ABANDONED_S or job.elapsed > WALL_S):
                self.cancel(job)

    def close(self) -> None:
        for job in self.known.values():
            self.cancel(job)

    def _update(self, job: Job) -> None:
        while job.state == RUNNING and job.connection.poll():
            try:
                kind, value = job.connection.recv()
            except EOFError:
                break
            if kind == "step":
                job.step = value
            elif kind == "fixes":
                job.fixes = value
            else:
                job.state, job.result = kind, value
        if job.state == RUNNING and not job.process.is_alive() and not job.connection.poll():
            job.state, job.result = FAILED, f"the worker ended (exit {job.process.exitcode})"
