"""Benchmarks for `make bench`: each named benchmark runs real `geodeck` commands and reports wall times
and, for prints, the PDF sizes.

Add a benchmark by appending a function to BENCHMARKS; it gets a Bench (a warm snapshot store and a
scratch folder) and returns {measurement: Figure}. Results go to benchmarks/results/<name>.json and are
printed as a table, next to the targets in TARGETS_S and TARGETS_MB.
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

from pipeline import games

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
GEODECK = str(Path(sys.executable).parent / "geodeck")
REPEATS = 3
TARGETS_S = {
    "countries_cold": 10.0,
    "countries_noop": 2.0,
    "print_world_game": 15.0,
    "print_laender_toppen": 10.0,
}  # on a 2-core box
TARGETS_MB = {"print_world_game": 15.0}


@dataclass(frozen=True)
class Figure:
    seconds: float  # median wall time
    mb: float | None = None  # size of the file written, for prints


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


def countries(bench: Bench) -> dict[str, Figure]:
    """Cold build of the countries master table (empty build folder), then a no-op rebuild."""
    cold, noop = [], []
    for i in range(REPEATS):
        build = bench.scratch / f"countries-{i}"
        cold.append(bench.geodeck(build, "build", "--stage", "countries"))
        noop.append(bench.geodeck(build, "build", "--stage", "countries"))
    return {"countries_cold": Figure(statistics.median(cold)), "countries_noop": Figure(statistics.median(noop))}


def printed(bench: Bench, build: Path, out: Path, *args: str) -> Figure:
    """Median wall time of a `geodeck print … --out OUT` and the size of OUT."""
    times = [bench.geodeck(build, "print", *args, "--out", str(out)) for _ in range(REPEATS)]
    return Figure(statistics.median(times), out.stat().st_size / 1e6)


def print_decks(bench: Bench) -> dict[str, Figure]:
    """Full print (A4 sheets, fronts + backs) of each game's latest deck."""
    return {
        f"print_{game.replace('-', '_')}": printed(bench, bench.scratch, bench.scratch / f"{game}.pdf", game)
        for game in games.names()
    }


def print_accessories(bench: Bench) -> dict[str, Figure]:
    """`print GAME --what accessories` (A4) of each game's latest deck with an empty build folder, as in a
    fresh clone: the maps and strips need only the deck and the pinned layers."""
    empty = bench.scratch / "empty-build"
    empty.mkdir(exist_ok=True)
    return {
        f"accessories_{game.replace('-', '_')}": printed(
            bench, empty, bench.scratch / f"{game}-accessories.pdf", game, "--what", "accessories"
        )
        for game in games.names()
    }


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
    table = Table(
        "benchmark", "measurement", f"seconds (median of {REPEATS})", "target", "MB", "target", title="geodeck bench"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for benchmark in BENCHMARKS:
            figures = benchmark(Bench(store, Path(scratch)))
            sized = {k: f.mb for k, f in figures.items() if f.mb is not None}
            record = {
                "benchmark": benchmark.__name__,
                "seconds": {k: round(f.seconds, 3) for k, f in figures.items()},
                "targets_s": {k: TARGETS_S[k] for k in figures if k in TARGETS_S},
                **(
                    {
                        "mb": {k: round(v, 2) for k, v in sized.items()},
                        "targets_mb": {k: TARGETS_MB[k] for k in figures if k in TARGETS_MB},
                    }
                    if sized
                    else {}
                ),
                "repeats": REPEATS,
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "machine": platform.machine(),
            }
            RESULTS.mkdir(parents=True, exist_ok=True)
            (RESULTS / f"{benchmark.__name__}.json").write_text(json.dumps(record, indent=1) + "\n")
            for name, f in figures.items():
                table.add_row(
                    benchmark.__name__,
                    name,
                    f"{f.seconds:.2f}",
                    verdict(f.seconds, TARGETS_S.get(name), "s"),
                    "" if f.mb is None else f"{f.mb:.2f}",
                    verdict(f.mb, TARGETS_MB.get(name), "MB"),
                )
    Console().print(table)


def verdict(value: float | None, target: float | None, unit: str) -> str:
    if value is None or target is None:
        return ""
    return f"≤ {target:g} {unit} " + ("ok" if value <= target else "MISSED")


if __name__ == "__main__":
    main()
