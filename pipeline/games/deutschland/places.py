"""Deutschland's geo step: grid numbers for every located town, and the deterministic 96-card place selection.

Selection (settings in `templates/deutschland/places.toml`, explained in docs/deutschland.md):
candidates are located towns inside their state, on the map, with at least `min_population` inhabitants
(pinned-in towns need only a point on the map); pinned-out towns never enter. Start from the pins plus a
farthest-point spread (seeded), make sure all 16 states are present, then a seeded local search swaps one
town at a time and keeps a swap when it lowers

    weight_ties * mean P(tie for an extreme)       (N, S, W, O, most, fewest x layouts of 3, 4, 5)
  + weight_spread * covering radius / 100 km       (largest distance from a candidate to its nearest card)
  + weight_population * KS(log population, log-uniform from min_population to the largest city)

and never leaves a state uncovered. Tie probabilities are exact (counting subsets); the report also
measures them by simulating random layouts. Same settings and inputs give the same deck.
"""

import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from pyproj import Transformer

from pipeline import atomic
from pipeline.errors import GeodeckError
from pipeline.geo import grid
from pipeline.paths import TEMPLATES_DIR, build_dir
from pipeline.steps import file_hash, run_step
from pipeline.transform.towns import write_parquet
from pipeline.validate import towns as validate_towns

PLACES_CONFIG = TEMPLATES_DIR / "deutschland" / "places.toml"
# extreme -> (column, sign): a tie for the minimum of sign * column
EXTREMES = {
    "N": ("ns", 1),
    "S": ("ns", -1),
    "W": ("we", 1),
    "O": ("we", -1),
    "most": ("population", -1),
    "fewest": ("population", 1),
}


@dataclass(frozen=True)
class Settings:
    size: int
    seed: int
    min_population: int
    iterations: int
    layouts: tuple[int, ...]
    simulated_layouts: int
    weight_ties: float
    weight_spread: float
    weight_population: float
    pins_in: tuple[str, ...]
    pins_out: tuple[str, ...]


def load_settings(path: Path = PLACES_CONFIG) -> Settings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        sel, pins = data["selection"], data.get("pins", {})
        return Settings(
            int(sel["size"]),
            int(sel["seed"]),
            int(sel["min_population"]),
            int(sel["iterations"]),
            tuple(int(k) for k in sel["layouts"]),
            int(sel["simulated_layouts"]),
            float(sel["weight_ties"]),
            float(sel["weight_spread"]),
            float(sel["weight_population"]),
            tuple(pins.get("in", [])),
            tuple(pins.get("out", [])),
        )
    except (OSError, KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise GeodeckError(
            f"{path}: not a valid place-selection file ({type(exc).__name__}: {exc}); see docs/deutschland.md"
        ) from exc


def resolve_pins(towns: pd.DataFrame, pins: tuple[str, ...], path: Path = PLACES_CONFIG) -> list[int]:
    """Row positions of pinned towns, given as 8-digit AGS or "Name (Land)"; anything else is an error."""
    labels = towns["name"] + " (" + towns["state"] + ")"
    short = towns["short_name"] + " (" + towns["state"] + ")"
    rows = []
    for pin in pins:
        hits = np.flatnonzero((towns["ags"] == pin) | (labels == pin) | (short == pin))
        if len(hits) != 1:
            raise GeodeckError(
                f'{path}: pin {pin!r} matches {len(hits)} located towns; use "Name (Land)" '
                f"as in build/validate/towns.parquet or the 8-digit AGS key"
            )
        rows.append(int(hits[0]))
    return rows


def _comb_table(n: int, k_max: int) -> np.ndarray:
    return np.array([[math.comb(i, k) for k in range(k_max + 1)] for i in range(n + 1)], dtype=float)


def tie_probability(values: np.ndarray, k: int, comb: np.ndarray | None = None) -> float:
    """Exact probability that k cards drawn at random from `values` share the minimum value."""
    n = len(values)
    comb = _comb_table(n, k) if comb is None else comb
    _, counts = np.unique(values, return_counts=True)
    greater = n - np.cumsum(counts)  # cards above each distinct value
    at_least = greater + counts
    tied = comb[at_least, k] - comb[greater, k] - counts * comb[greater, k - 1]
    return float(tied.sum() / comb[n, k])


def tie_rates(deck: pd.DataFrame, layouts) -> dict[str, dict[int, float]]:
    comb = _comb_table(len(deck), max(layouts))
    return {
        name: {k: tie_probability(sign * deck[column].to_numpy(), k, comb) for k in layouts}
        for name, (column, sign) in EXTREMES.items()
    }


def simulated_tie_rates(deck: pd.DataFrame, layouts, draws: int, seed: int) -> dict[str, dict[int, float]]:
    """Tie rates measured on `draws` random layouts per size (a check on the exact figures)."""
    rng = np.random.default_rng(seed)
    rates: dict[str, dict[int, float]] = {name: {} for name in EXTREMES}
    for k in layouts:
        picks = np.array([rng.choice(len(deck), size=k, replace=False) for _ in range(draws)])
        for name, (column, sign) in EXTREMES.items():
            values = (sign * deck[column].to_numpy())[picks]
            best = values.min(axis=1, keepdims=True)
            rates[name][k] = float(((values == best).sum(axis=1) > 1).mean())
    return rates


class _Objective:
    """The selection objective over candidate row positions (see the module docstring)."""

    def __init__(self, pool: pd.DataFrame, s: Settings):
        self.s, self.pool = s, pool
        self.comb = _comb_table(s.size, max(s.layouts))
        self.columns = {name: sign * pool[column].to_numpy() for name, (column, sign) in EXTREMES.items()}
        x, y = Transformer.from_crs("EPSG:4326", "EPSG:3035", always_xy=True).transform(
            pool["lon"].to_numpy(float), pool["lat"].to_numpy(float)
        )
        self.spread_from = np.flatnonzero(pool["population"].to_numpy() >= s.min_population)
        self.km = np.hypot(x[self.spread_from, None] - x[None, :], y[self.spread_from, None] - y[None, :]) / 1000
        lo, hi = math.log(s.min_population), math.log(pool["population"].max())
        self.log_pop = (np.log(pool["population"].to_numpy(float)) - lo) / (hi - lo)

    def ties(self, chosen: np.ndarray) -> float:
        return float(
            np.mean([tie_probability(v[chosen], k, self.comb) for v in self.columns.values() for k in self.s.layouts])
        )

    def radius_km(self, chosen: np.ndarray) -> float:
        return float(self.km[:, chosen].min(axis=1).max())

    def population_ks(self, chosen: np.ndarray) -> float:
        u = np.sort(np.clip(self.log_pop[chosen], 0, 1))
        n = len(u)
        return float(max((np.arange(1, n + 1) / n - u).max(), (u - np.arange(n) / n).max()))

    def __call__(self, chosen: np.ndarray) -> float:
        return (
            self.s.weight_ties * self.ties(chosen)
            + self.s.weight_spread * self.radius_km(chosen) / 100
            + self.s.weight_population * self.population_ks(chosen)
        )


def select(pool: pd.DataFrame, pinned: list[int], s: Settings) -> tuple[np.ndarray, _Objective]:
    """Row positions (in `pool`) of the chosen deck, sorted; deterministic for a given seed."""
    if len(pinned) > s.size or len(pool) < s.size:
        raise GeodeckError(
            f"cannot pick {s.size} places from {len(pool)} candidates with {len(pinned)} pins; "
            f"lower min_population or the pins in {PLACES_CONFIG}"
        )
    rng = np.random.default_rng(s.seed)
    objective = _Objective(pool, s)
    states = pool["state"].to_numpy()
    seeds = list(dict.fromkeys(pinned))
    for state in sorted(set(states) - set(states[seeds])):  # one seeded town per missing state
        seeds.append(int(rng.choice(np.flatnonzero(states == state))))
    near = objective.km[:, seeds].min(axis=1)
    while len(seeds) < s.size:  # farthest candidate from the deck so far
        far = objective.spread_from[np.flatnonzero(near == near.max())]
        pick = int(rng.choice(np.setdiff1d(far, seeds)))
        seeds.append(pick)
        near = np.minimum(near, objective.km[:, pick])
    chosen = np.array(seeds)
    free = np.flatnonzero(~np.isin(np.arange(len(chosen)), np.arange(len(set(pinned)))))
    outside = np.setdiff1d(objective.spread_from, chosen)
    score = objective(chosen)
    for _ in range(s.iterations):
        slot, new = int(rng.choice(free)), int(rng.choice(outside))
        old = chosen[slot]
        chosen[slot] = new
        covered = len(set(states[chosen])) == len(set(states))
        trial = objective(chosen) if covered else math.inf
        if trial < score:
            score, outside = trial, np.append(outside[outside != new], old)
        else:
            chosen[slot] = old
    return np.sort(chosen), objective


def place_table(towns: pd.DataFrame, fit: grid.Fit) -> pd.DataFrame:
    """Located towns with grid values, numbers and provenance (before selection)."""
    located = towns.loc[towns["lat"].notna()].reset_index(drop=True)
    values = fit.grid.values(located["lat"], located["lon"])
    numbers = grid.round_half_up(values)
    return located.assign(
        ns=numbers[:, 0],
        we=numbers[:, 1],
        ns_value=values[:, 0],
        we_value=values[:, 1],
        off_map=grid.off_map(numbers),
        grid_crs=fit.grid.crs,
    )


def choose_places(places: pd.DataFrame, s: Settings) -> pd.DataFrame:
    """`places` with `pinned` ("in"/"out"/"") and `in_deck` (exactly s.size True)."""
    pins_in, pins_out = resolve_pins(places, s.pins_in), resolve_pins(places, s.pins_out)
    pinned = np.full(len(places), "", dtype=object)
    pinned[pins_out], pinned[pins_in] = "out", "in"
    if bad := [places.at[i, "name"] for i in pins_in if places.at[i, "off_map"]]:
        raise GeodeckError(f"{PLACES_CONFIG}: pinned town(s) {', '.join(bad)} are off the map")
    eligible = (
        (places["population"] >= s.min_population) & places["in_state"] & ~places["off_map"] & (pinned != "out")
    ) | (pinned == "in")
    pool = places.loc[eligible].reset_index()
    position = {row: i for i, row in enumerate(pool["index"])}
    chosen, _ = select(pool.drop(columns="index"), [position[i] for i in pins_in], s)
    in_deck = np.zeros(len(places), dtype=bool)
    in_deck[pool.loc[chosen, "index"].to_numpy()] = True
    return places.assign(pinned=pinned.astype(str), eligible=eligible.to_numpy(), in_deck=in_deck)


def selection_report(places: pd.DataFrame, s: Settings) -> dict:
    deck = places.loc[places["in_deck"]].reset_index(drop=True)
    pool = places.loc[places["eligible"]].reset_index(drop=True)
    objective = _Objective(pool, s)
    chosen = np.flatnonzero(pool["ags"].isin(deck["ags"]).to_numpy())
    shared = {
        col: {str(v): sorted(deck.loc[deck[col] == v, "name"]) for v, c in deck[col].value_counts().items() if c > 1}
        for col in ("ns", "we")
    }
    return {
        "settings": dict(vars(s).items()),
        "cards": len(deck),
        "candidates": len(pool),
        "states": {k: int(v) for k, v in deck["state"].value_counts().sort_index().items()},
        "population": {
            "min": int(deck["population"].min()),
            "median": int(deck["population"].median()),
            "max": int(deck["population"].max()),
        },
        "ns_range": [int(deck["ns"].min()), int(deck["ns"].max())],
        "we_range": [int(deck["we"].min()), int(deck["we"].max())],
        "covering_radius_km": round(objective.radius_km(chosen), 1),
        "population_ks": round(objective.population_ks(chosen), 4),
        "tie_rates_exact": _rounded(tie_rates(deck, s.layouts)),
        "tie_rates_simulated": _rounded(simulated_tie_rates(deck, s.layouts, s.simulated_layouts, s.seed)),
        "shared_numbers": shared,
    }


def _rounded(rates: dict) -> dict:
    return {name: {str(k): round(v, 4) for k, v in by_k.items()} for name, by_k in rates.items()}


def selection_markdown(r: dict) -> str:
    layouts = list(next(iter(r["tie_rates_exact"].values())))
    lines = [
        "# Place selection",
        "",
        f"{r['cards']} cards from {r['candidates']} candidates (seed {r['settings']['seed']}, "
        f"min population {r['settings']['min_population']:,}).",
        f"Population {r['population']['min']:,} to {r['population']['max']:,} (median "
        f"{r['population']['median']:,}); north-south {r['ns_range']}, west-east {r['we_range']}; "
        f"every candidate town lies within {r['covering_radius_km']} km of a card.",
        "",
        "## Tie rates (probability that a random layout ties for the extreme: exact / simulated)",
        "",
        "| extreme | " + " | ".join(f"{k} cards" for k in layouts) + " |",
        "|---|" + "---|" * len(layouts),
    ]
    for name in r["tie_rates_exact"]:
        cells = [f"{r['tie_rates_exact'][name][k]:.2%} / {r['tie_rates_simulated'][name][k]:.2%}" for k in layouts]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Cards per state",
        "",
        *[f"- {k}: {v}" for k, v in r["states"].items()],
        "",
        "## Cards sharing a number",
        "",
    ]
    for col, label in (("ns", "north-south"), ("we", "west-east")):
        lines += [
            f"- {label} {v}: {', '.join(names)}"
            for v, names in sorted(r["shared_numbers"][col].items(), key=lambda kv: int(kv[0]))
        ]
    return "\n".join(lines) + "\n"


def outputs() -> dict[str, Path]:
    folder = build_dir() / "geo"
    return {
        "places": folder / "places.parquet",
        "grid_md": folder / "grid_report.md",
        "grid_json": folder / "grid_report.json",
        "selection_md": folder / "selection_report.md",
        "selection_json": folder / "selection_report.json",
    }


def run(force: bool = False) -> bool:
    """The `geo` stage: calibrate the grid, number every located town, select the deck; True if it ran."""
    towns_path = validate_towns.outputs()["towns"]
    if not towns_path.is_file():
        raise GeodeckError(f"{towns_path} is missing; run `geodeck build --stage towns` first")
    boundaries = validate_towns.transform_towns.outputs()["boundaries"]
    inputs = {
        "towns": file_hash(towns_path),
        "boundaries": file_hash(boundaries),
        "control_points": file_hash(grid.CONTROL_POINTS),
        "places_config": file_hash(PLACES_CONFIG),
    }

    def make() -> None:
        towns = pd.read_parquet(towns_path)
        settings = load_settings()
        chosen, fits, points = grid.calibrated(towns)
        places = choose_places(place_table(towns, chosen), settings)
        grid_summary = grid.report(chosen, fits, points, places, grid.country_shape(boundaries))
        selection = selection_report(places, settings)
        write_parquet(places.sort_values("ags", kind="stable").reset_index(drop=True), outputs()["places"])
        for key, summary, markdown in (
            ("grid", grid_summary, grid.markdown(grid_summary)),
            ("selection", selection, selection_markdown(selection)),
        ):
            atomic.write_text(outputs()[f"{key}_json"], json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
            atomic.write_text(outputs()[f"{key}_md"], markdown)

    return run_step("geo", inputs, ["geo.grid", "games.deutschland.places"], outputs().values(), make, force=force)
