"""The README's make targets timed as a newcomer meets them (issue 47: figures that stay true).

`python benchmarks/run.py readme` (or `make bench BENCH=readme`) clones this checkout's HEAD into scratch
folders and times each target of the README's table the way the README states it: `make deck` and
`make kit` from a fresh clone (their installs included), `make install` in another fresh clone, then,
installed, `make print`, `make lint` (mypy without its cache), `make test`, `make previews` and
`make play-check`. `README_TARGETS=make_kit,make_lint` times a subset. Results (wall and CPU seconds,
the load average, the commit) go to benchmarks/results/readme_targets.json; `python benchmarks/readme_times.py
record` copies them into docs/timings.json, the measured run the README's figures are checked against
(tests/test_readme_times.py: a stated time more than 50 % off fails). `make bench` itself is timed by
`benchmarks/run.py` (its total, `make_bench`), not here.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "benchmarks" / "results" / "readme_targets.json"  # run.py writes readme.json, its table row
RECORD = ROOT / "docs" / "timings.json"
LOGS = RESULT.parent / "readme"
CLONES = {  # clone: its make commands in order, each timed under its README name
    "deck": [
        ("make_deck", "deck"),
        ("make_print", "print"),
        ("make_lint", "lint"),
        ("make_test", "test"),
        ("make_previews", "previews"),
        ("make_play_check", "play-check"),
    ],
    "install": [("make_install", "install")],
    "kit": [("make_kit", "kit")],
}


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(folder: Path, target: str) -> tuple[float, float]:
    """(wall, CPU) seconds of `make TARGET` in `folder`; its output, each line timed, goes to
    benchmarks/results/readme/<clone>-<target>.log (kept: `make play-check`'s lines say when each game ended)."""
    LOGS.mkdir(parents=True, exist_ok=True)
    before, start = children_cpu(), time.perf_counter()
    with (LOGS / f"{folder.name}-{target}.log").open("wb") as log:
        make = subprocess.Popen(["make", target], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert make.stdout is not None
        for line in iter(make.stdout.readline, b""):  # each line as it comes (iterating the file reads ahead)
            log.write(f"{time.perf_counter() - start:8.1f} s  ".encode() + line)
        done = make.wait()
    wall, cpu = time.perf_counter() - start, children_cpu() - before
    if done != 0:
        sys.exit(f"make {target} in {folder} exited {done}: see {log.name}")
    return wall, cpu


def facts(wall: float, cpu: float) -> dict:
    """One target's figures and the facts to judge them by: the load average after it, the machine's cores,
    the commit and the day."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return {
        "seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "load_average": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "commit": commit.stdout.strip(),
        "date": date.today().isoformat(),
    }


def measure(only: set[str]) -> dict[str, dict]:
    """Every README target (or those in `only`) timed in fresh clones of HEAD, each with its `facts`."""
    targets = {}
    with tempfile.TemporaryDirectory(dir=ROOT.parent) as scratch:
        for clone, steps in CLONES.items():
            steps = [(name, target) for name, target in steps if not only or name in only]
            if not steps:
                continue
            folder = Path(scratch) / clone
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
            for name, target in steps:
                targets[name] = facts(*timed(folder, target))
                print(f"{name}: {targets[name]}", flush=True)
    return targets


def merged(path: Path, targets: dict[str, dict]) -> dict:
    """`targets` over those `path` already holds (a subset run keeps the other figures)."""
    old = json.loads(path.read_text(encoding="utf-8"))["targets"] if path.is_file() else {}
    return {"targets": dict(sorted((old | targets).items()))}


def write(path: Path, content: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def run() -> dict[str, dict]:
    """Measure (README_TARGETS, or all) and merge into benchmarks/results/readme_targets.json: the new figures."""
    only = {name for name in os.environ.get("README_TARGETS", "").split(",") if name}
    targets = measure(only)
    write(RESULT, merged(RESULT, targets))
    return targets


def note(name: str, wall: float, cpu: float) -> None:
    """One target measured elsewhere (`make bench`'s own time) into benchmarks/results/readme_targets.json."""
    write(RESULT, merged(RESULT, {name: facts(wall, cpu)}))


def record() -> None:
    """Copy the measured run (benchmarks/results/readme_targets.json) into docs/timings.json."""
    if not RESULT.is_file():
        sys.exit(f"no measured run in {RESULT}: run `python benchmarks/run.py readme` first")
    measured = json.loads(RESULT.read_text(encoding="utf-8"))["targets"]
    write(RECORD, merged(RECORD, measured))
    print(f"{RECORD}: {', '.join(measured)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["record"]:
        sys.exit("usage: python benchmarks/readme_times.py record")
    record()
