"""Deutschland's geo step: grid numbers for every located town, and the deterministic 96-card place selection.

Selection (settings in `templates/deutschland/places.toml`, explained in docs/deutschland.md):
candidates are located towns inside their state, on the map, with at least `min_population` inhabitants and
no suburbs (pipeline.games.grid.selection.suburbs; pinned-in towns need only a point on the map); pinned-out
towns never enter. Pinned in: the `largest` most
populous towns, the 16 state capitals (pipeline.transform.german_states) and the named pins. `pipeline.geo.selection`
chooses the deck (pins, a seeded farthest-point spread, all 16 states, then a seeded local search on
tie rates for the extremes N, S, W, O, most, fewest x layouts of 3, 4, 5, the covering radius and the
spread of log population). The report also measures tie rates by simulating random layouts. Same
settings and inputs give the same deck. Every located town gets the `reason` it is in the deck or not (the
changelog's, pipeline.decks.reasons).
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline import atomic, readers
from pipeline.errors import GeodeckError
from pipeline.games.grid import selection as grid_selection
from pipeline.games.grid.selection import EXTREMES as EXTREMES
from pipeline.games.grid.selection import Settings
from pipeline.geo import grid, nearest, selection
from pipeline.paths import ROOT, TEMPLATES_DIR
from pipeline.transform import german_states
from pipeline.transform.german_states import CAPITALS

PLACES_CONFIG = TEMPLATES_DIR / "deutschland" / "places.toml"
CONFIG_NAME = PLACES_CONFIG.relative_to(ROOT).as_posix()  # as the reasons name it
METRIC_CRS = "EPSG:3035"  # distances between towns: metres in the ETRS89 Lambert equal-area projection


def load_settings(path: Path = PLACES_CONFIG) -> Settings:
    """Deutschland's selection settings (`templates/deutschland/places.toml`)."""
    return grid_selection.load_settings(path)


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


def tie_rates(deck: pd.DataFrame, layouts) -> dict[str, dict[int, float]]:
    comb = selection.comb_table(len(deck), max(layouts))
    return {
        name: {k: selection.tie_probability(sign * deck[column].to_numpy(), k, comb) for k in layouts}
        for name, (column, sign) in EXTREMES.items()
    }


def simulated_tie_rates(deck: pd.DataFrame, layouts, draws: int, seed: int) -> dict[str, dict[int, float]]:
    """Tie rates measured on `draws` random layouts per size (a check on the exact figures)."""
    rng = np.random.default_rng(seed)
    rates: dict[str, dict[int, float]] = {name: {} for name in EXTREMES}
    for k in layouts:
        picks = selection.layouts(rng, len(deck), k, draws)
        for name, (column, sign) in EXTREMES.items():
            values = (sign * deck[column].to_numpy())[picks]
            best = values.min(axis=1, keepdims=True)
            rates[name][k] = float(((values == best).sum(axis=1) > 1).mean())
    return rates


def select(pool: pd.DataFrame, pinned: list[int], s: Settings) -> np.ndarray:
    """Row positions (in `pool`) of the chosen deck, sorted (pipeline.geo.selection, over the states)."""
    if len(pinned) > s.size or len(pool) < s.size:
        raise GeodeckError(
            f"cannot pick {s.size} places from {len(pool)} candidates with {len(pinned)} pins; "
            f"lower min_population or the pins in {PLACES_CONFIG}"
        )
    return selection.select(pool, pinned, s, EXTREMES, "state", METRIC_CRS)


def place_table(towns: pd.DataFrame, fit: grid.Fit) -> pd.DataFrame:
    """Located towns with grid values, numbers and provenance (before selection)."""
    located = towns.loc[towns["lat"].notna()].reset_index(drop=True)
    values = fit.grid.values(located["lat"], located["lon"])
    numbers = grid.whole_numbers(values)
    return located.assign(
        ns=numbers[:, 0],
        we=numbers[:, 1],
        ns_value=values[:, 0],
        we_value=values[:, 1],
        off_map=grid.off_map(numbers),
        grid_crs=fit.grid.crs,
    )


def pins_in(places: pd.DataFrame, s: Settings) -> dict[int, list[str]]:
    """Row positions pinned into the deck, each with why: the `largest` most populous towns, the state
    capitals, the named pins."""
    why: dict[int, list[str]] = {}
    biggest = places["population"].sort_values(ascending=False, kind="stable").index[: s.largest]
    for rank, row in enumerate(biggest, start=1):
        people = int(places.at[row, "population"])
        why.setdefault(int(row), []).append(
            f"one of the {s.largest} largest cities (no. {rank}, {people:,} inhabitants)"
        )
    capitals = tuple(f"{town} ({state})" for state, town in CAPITALS.items()) if s.state_capitals else ()
    for row, state in zip(resolve_pins(places, capitals, Path(german_states.__file__)), CAPITALS):
        why.setdefault(row, []).append(f"state capital of {state}")
    for row in resolve_pins(places, s.pins_in):
        why.setdefault(row, []).append(f"pinned in {CONFIG_NAME}")
    return why


def choose_places(places: pd.DataFrame, s: Settings) -> pd.DataFrame:
    """`places` with `pinned` ("in"/"out"/""), `in_deck` (exactly s.size True) and the `reason` for each."""
    why = pins_in(places, s)
    pins_out = resolve_pins(places, s.pins_out)
    pinned = np.full(len(places), "", dtype=object)
    pinned[pins_out], pinned[list(why)] = "out", "in"
    if bad := [places.at[i, "name"] for i in why if places.at[i, "off_map"]]:
        raise GeodeckError(f"{PLACES_CONFIG}: pinned town(s) {', '.join(bad)} are off the map")
    near, suburb = grid_selection.suburbs(places.assign(name=places["short_name"]), s, pinned == "in")
    eligible = (
        (places["population"] >= s.min_population)
        & places["in_state"]
        & ~places["off_map"]
        & (pinned != "out")
        & (suburb == "")
    ) | (pinned == "in")
    places = places.assign(beside=near)
    pool = places.loc[eligible].reset_index()
    position = {row: i for i, row in enumerate(pool["index"])}
    chosen = select(pool.drop(columns="index"), [position[i] for i in why], s)
    in_deck = np.zeros(len(places), dtype=bool)
    in_deck[pool.loc[chosen, "index"].to_numpy()] = True
    return places.assign(
        pinned=pinned.astype(str),
        eligible=eligible.to_numpy(),
        in_deck=in_deck,
        reason=reasons(places, s, why, pinned, in_deck, (eligible, suburb)),
    )


def reasons(places: pd.DataFrame, s: Settings, why: dict[int, list[str]], pinned, in_deck, filters) -> list[str]:
    """Why each town is in the deck or not: its pins, its rank among the well-known places, the filters that
    keep it out (`filters`: the search's candidates and why a suburb is none, grid_selection.suburbs), else the
    spread."""
    eligible, suburb = filters
    spread = nearest.spread_reasons(
        places["short_name"], places["lat"], places["lon"], in_deck, places["population"], s.familiar_km
    )
    known = grid_selection.well_known_reasons(places, s, eligible)
    out = []
    for row, (people, in_state, off_map) in enumerate(zip(places["population"], places["in_state"], places["off_map"])):
        if row in why:
            out.append("; ".join(why[row]))
        elif in_deck[row] and known[row]:
            out.append(known[row])
        elif pinned[row] == "out":
            out.append(f"pinned out in {CONFIG_NAME}")
        elif off_map:
            out.append("off the map's grid")
        elif not in_state:
            out.append("its point lies outside its state (build/validate/towns_report.md)")
        elif people < s.min_population:
            out.append(f"under {s.min_population:,} inhabitants")
        elif suburb[row]:
            out.append(suburb[row])
        else:
            out.append(spread[row])
    return out


def selection_report(places: pd.DataFrame, s: Settings) -> dict:
    deck = places.loc[places["in_deck"]].reset_index(drop=True)
    pool = places.loc[places["eligible"]].reset_index(drop=True)
    objective = selection.Objective(pool, s, EXTREMES, METRIC_CRS)
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


def step(io) -> None:
    """The geo-places step (pipeline.build.graph): calibrate the grid, number every located town, select the deck."""
    towns = readers.table(io.path("validate/towns.parquet"))
    settings = load_settings()
    chosen, fits, points = grid.calibrated(towns)
    places = choose_places(place_table(towns, chosen), settings)
    outline = grid.country_shape(io.path("transform/germany_boundaries.parquet"))
    grid_summary = grid.report(chosen, fits, points, places, outline)
    selection = selection_report(places, settings)
    atomic.write_parquet(io.path("geo/places.parquet"), places.sort_values("ags", kind="stable").reset_index(drop=True))
    for key, summary, markdown in (
        ("grid", grid_summary, grid.markdown(grid_summary)),
        ("selection", selection, selection_markdown(selection)),
    ):
        text = json.dumps(summary, indent=1, ensure_ascii=False) + "\n"
        atomic.write_text(io.path(f"geo/{key}_report.json"), text)
        atomic.write_text(io.path(f"geo/{key}_report.md"), markdown)
