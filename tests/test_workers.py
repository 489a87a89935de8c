"""Local workers (issue 49): after `kill -9` of the parent, left unreaped (a zombie whose caller reads its pipes
to the end first, as `subprocess.run` does), the forkserver and its workers end and release the caller's pipe;
`--jobs` is capped by the machine's cores and memory, said in one line."""

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipeline import workers

TESTS = Path(__file__).parent
PARENT = """
from pipeline.workers import Workers
from fixtures.napping import nap

if __name__ == "__main__":
    with Workers(jobs=2) as pool:
        pool.map(nap, [60, 60, 60, 60])
"""


def test_workers_end_with_their_parent_killed_and_unreaped(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(PARENT, encoding="utf-8")
    path = os.pathsep.join([str(TESTS), str(TESTS.parent)])
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path}
    )
    assert parent.stdout is not None
    started = [parent.stdout.readline(), parent.stdout.readline()]  # both workers run a task
    assert all(line.startswith(b"worker ") for line in started), started
    os.kill(parent.pid, signal.SIGKILL)  # and not reaped until the pipe ends, as a caller reading it to EOF
    killed, ended = time.monotonic(), False
    while time.monotonic() - killed < 10 and not ended:
        if select.select([parent.stdout], [], [], 0.5)[0]:
            ended = os.read(parent.stdout.fileno(), 1024) == b""
    parent.wait()
    assert ended, "the workers held the pipe 10 s after the kill"
    pids = {int(pid) for line in started for pid in line.split()[1:]}  # the workers and their forkserver
    while time.monotonic() - killed < 10 and any(map(workers.running, pids)):  # closed its pipe, still ending
        time.sleep(0.1)
    assert not [pid for pid in pids if workers.running(pid)]


def test_jobs_beyond_the_cores_are_capped_in_one_line(geodeck):
    cores = len(os.sched_getaffinity(0))
    assert workers.capped(1000)[0] <= cores and workers.capped(1)[0] == 1
    code, output = geodeck(["play-check", "deutschland", "--jobs", "1000", "--version", "1999.01.0"])
    note, error = output.strip().splitlines()
    assert note.startswith(f"note: --jobs 1000 is more than this machine runs well: {workers.capped(1000)[0]} ")
    assert code == 2 and error.startswith("error: ") and "1999.01.0" in error
