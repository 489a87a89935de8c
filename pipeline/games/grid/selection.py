"""The grid game's place selection rule, for every configuration: the extremes a deck's ties are measured on,
the settings `pipeline.geo.selection.select` reads, from each configuration's own file (its `[selection]`
and `[pins]` tables), and the places that stand beside a larger one.

A place lies *beside* a larger one when that place has `suburb_ratio` times its inhabitants at least and lies
within `suburb_km` × sqrt(its inhabitants / 100,000) km of it: a city's reach grows with the square root of its
size (7 km for a town of 100,000, 12 km for 300,000, 43 km for Berlin's 3.8 million). Such a place under
`suburb_below` inhabitants, or beside a place `suburb_any_ratio` times as populous (Argenteuil beside Paris),
is a suburb, left out of the deck unless it is a division's capital or pinned (Lanester beside Lorient, Rumia
beside Gdynia, Bernau beside Berlin); a larger one stays a candidate but is not counted among the well-known
places of the familiarity term (Fürth beside Nürnberg, Offenbach beside Frankfurt), which counts the places
that stand on their own (Heidelberg, 20 km from Mannheim, only twice as small)."""

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.geo import selection

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
    largest: int = 0  # the most populous towns pinned in
    state_capitals: bool = False  # every state's capital pinned in
    weight_familiarity: float = 0.0  # the log population a card passes over (pipeline.geo.selection)
    familiar_km: float = 0.0  # ... to a larger place this near it
    well_known: float = 0.0  # ... or to one of this share of the deck's size of the most populous places
    suburb_km: float = 0.0  # a place lies beside a larger one within this many km × sqrt(its people / 100,000)
    suburb_ratio: float = 2.0  # ... that has this many times its inhabitants
    suburb_below: int = 0  # ... and is a suburb (left out) under this many inhabitants
    suburb_any_ratio: float = math.inf  # ... or at any size beside a place this many times as populous


def load_settings(path: Path, **given) -> Settings:
    """The settings in `path` (its `[selection]` and `[pins]` tables), `given` ones (e.g. a region deck's
    `size`) in place of the file's."""
    try:
        data = readers.read_input("toml", path)
        sel, pins = {**data["selection"], **given}, data.get("pins", {})
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
            int(pins.get("largest", 0)),
            bool(pins.get("state_capitals", False)),
            float(sel.get("weight_familiarity", 0.0)),
            float(sel.get("familiar_km", 0.0)),
            float(sel.get("well_known", 0.0)),
            float(sel.get("suburb_km", 0.0)),
            float(sel.get("suburb_ratio", 2.0)),
            int(sel.get("suburb_below", 0)),
            float(sel.get("suburb_any_ratio", math.inf)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise GeodeckError(
            f"{path}: not a valid place-selection file ({type(exc).__name__}: {exc}); its comments explain each setting"
        ) from exc


EARTH_KM = 6371.0088  # mean radius: distances between nearby places (a few km off at most over 50 km)


def beside(table: pd.DataFrame, s: Settings) -> tuple[np.ndarray, np.ndarray]:
    """For each place (`lat`, `lon`, `population`), the position of the nearest larger place it lies beside
    (module docstring; -1 when none) and its distance in km."""
    lat, lon = np.radians(table["lat"].to_numpy(float)), np.radians(table["lon"].to_numpy(float))
    people = table["population"].to_numpy(float)
    found, found_km = np.full(len(table), -1), np.full(len(table), np.inf)
    reach = s.suburb_km * np.sqrt(people / 100_000)
    for start in range(0, len(table) if s.suburb_km else 0, 512):  # in blocks: no places x places matrix
        rows = np.arange(start, min(start + 512, len(table)))
        half = np.sin((lat[None, :] - lat[rows, None]) / 2) ** 2
        half += np.cos(lat[rows, None]) * np.cos(lat[None, :]) * np.sin((lon[None, :] - lon[rows, None]) / 2) ** 2
        km = 2 * EARTH_KM * np.arcsin(np.sqrt(np.minimum(half, 1)))
        km[(km > reach[None, :]) | (people[None, :] < s.suburb_ratio * people[rows, None])] = np.inf
        found[rows], found_km[rows] = km.argmin(axis=1), km.min(axis=1)
    found[~np.isfinite(found_km)] = -1
    return found, found_km


def suburbs(table: pd.DataFrame, s: Settings, exempt) -> tuple[np.ndarray, np.ndarray]:
    """For each place (`name`, `lat`, `lon`, `population`): the name of the larger place it lies beside ("" when
    none: `beside`) and, when it is a suburb (under `suburb_below` inhabitants or beside a place
    `suburb_any_ratio` times as populous; not `exempt`: a division's capital, a pin), why it is no card ("" when
    it is none)."""
    near, km = beside(table, s)
    names, people = table["name"].to_numpy(), table["population"].to_numpy()
    ratio = people[np.maximum(near, 0)] / people
    small = (people < s.suburb_below) | (ratio >= s.suburb_any_ratio)
    suburb = (near >= 0) & small & ~np.asarray(exempt, dtype=bool)
    why = np.full(len(table), "", dtype=object)
    for row in np.flatnonzero(suburb):
        why[row] = f"a suburb of {names[near[row]]} ({km[row]:.0f} km away, {ratio[row]:.1f} times its inhabitants)"
    return np.where(near >= 0, names[np.maximum(near, 0)], ""), why


def well_known_reasons(table: pd.DataFrame, s: Settings, candidate) -> np.ndarray:
    """For each place of `table` (`population`, `beside`), why it is a card when it is one of the well-known
    candidates (`candidate` marks the search's pool; pipeline.geo.selection.well_known), "" otherwise."""
    rows = np.flatnonzero(np.asarray(candidate, dtype=bool))
    known = rows[selection.well_known(table.iloc[rows], s)]
    why = np.full(len(table), "", dtype=object)
    for rank, row in enumerate(known, start=1):
        why[row] = f"well known: no. {rank} of the {len(known)} most populous places standing on their own"
    return why
