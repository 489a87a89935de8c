"""The grid game's place selection rule, for every configuration: the extremes a deck's ties are measured on
and the settings `pipeline.geo.selection.select` reads, from each configuration's own file (its `[selection]`
and `[pins]` tables)."""

from dataclasses import dataclass
from pathlib import Path

from pipeline import readers
from pipeline.errors import GeodeckError

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
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise GeodeckError(
            f"{path}: not a valid place-selection file ({type(exc).__name__}: {exc}); its comments explain each setting"
        ) from exc
