"""Benchmarks for `make bench`: each named benchmark runs real `geodeck` commands and reports wall times.

Add a benchmark by appending a function to BENCHMARKS; it gets a Bench (a warm snapshot store and a
scratch folder) and returns {measurement: seconds}. Results go to benchmarks/results/<name>.json and are
printed as a table, next to the targets in TARGETS_S.
"""

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
GEODECK = str(Path(sys.executable).parent / "geodeck")
REPEATS = 3
TARGETS_S = {"countries_cold": 10.0, "countries_noop": 2.0, "print_world_game": 15.0, "print_laender_toppen": 10.0}  # on a 2-core box


@dataclass
class Bench:
    store: Path
    scratch: Path

    def geodeck(self, build: Path, *args: str) -> float:
        """Wall seconds of one `geodeck` command against the warm store, offline."""
        env = os.environ | {"GEODECK_STORE": str(self.store), "GEODECK_BUILD": str(build)}
        start = time.perf_counter()
        subprocess.run([GEODECK, *args, "--offline"], env=env, check=True, capture_output=True)
        return time.perf_counter() - start


def countries(bench: Bench) -> dict[str, float]:
    """Cold build of the countries master table (empty build folder), then a no-op rebuild."""
    cold, noop = [], []
    for i in range(REPEATS):
        build = bench.scratch / f"countries-{i}"
        cold.append(bench.geodeck(build, "build", "--stage", "countries"))
        noop.append(bench.geodeck(build, "build", "--stage", "countries"))
    return {"countries_cold": statistics.median(cold), "countries_noop": statistics.median(noop)}


def print_decks(bench: Bench) -> dict[str, float]:
    """Full print (A4 sheets, fronts + backs) of each game's latest deck; the PDF sizes go to stdout."""
    figures = {}
    for game in ("world-game", "laender-toppen", "deutschland"):
        out = bench.scratch / f"{game}.pdf"
        times = [bench.geodeck(bench.scratch, "print", game, "--out", str(out)) for _ in range(REPEATS)]
        figures[f"print_{game.replace('-', '_')}"] = statistics.median(times)
        print(f"{game}: {out.stat().st_size / 1e6:.1f} MB")
    return figures


def print_accessories(bench: Bench) -> dict[str, float]:
    """`print GAME --what accessories` (A4) of each game's latest deck with an empty build folder, as in a
    fresh clone: the maps and strips need only the deck and the pinned layers."""
    figures = {}
    empty = bench.scratch / "empty-build"
    empty.mkdir(exist_ok=True)
    for game in ("world-game", "laender-toppen", "deutschland"):
        out = bench.scratch / f"{game}-accessories.pdf"
        times = [bench.geodeck(empty, "print", game, "--what", "accessories", "--out", str(out))
                 for _ in range(REPEATS)]
        figures[f"accessories_{game.replace('-', '_')}"] = statistics.median(times)
        print(f"{game} accessories: {out.stat().st_size / 1e6:.1f} MB")
    return figures


BENCHMARKS = [countries, print_decks, print_accessories]


def warm_store(store: Path) -> None:
    """Fill the store from the mirror ($GEODECK_MIRROR) once, outside the timings."""
    env = os.environ | {"GEODECK_STORE": str(store)}
    run = subprocess.run([GEODECK, "fetch", "--offline"], env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"cannot warm the snapshot store: {run.stderr.strip()}")


def main() -> None:
    store = Path(os.environ.get("GEODECK_STORE", Path.home() / ".cache" / "geodeck"))
    warm_store(store)
    table = Table("benchmark", "measurement", "seconds (median of %d)" % REPEATS, "target", title="geodeck bench")
    with tempfile.TemporaryDirectory() as scratch:
        for benchmark in BENCHMARKS:
            figures = benchmark(Bench(store, Path(scratch)))
            record = {"benchmark": benchmark.__name__, "seconds": {k: round(v, 3) for k, v in figures.items()},
                      "targets_s": {k: TARGETS_S[k] for k in figures if k in TARGETS_S}, "repeats": REPEATS,
                      "cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine()}
            RESULTS.mkdir(parents=True, exist_ok=True)
            (RESULTS / f"{benchmark.__name__}.json").write_text(json.dumps(record, indent=1) + "\n")
            for name, seconds in figures.items():
                target = TARGETS_S.get(name)
                verdict = "" if target is None else f"≤ {target:g} s " + ("ok" if seconds <= target else "MISSED")
                table.add_row(benchmark.__name__, name, f"{seconds:.2f}", verdict)
    Console().print(table)


if __name__ == "__main__":
    main()
