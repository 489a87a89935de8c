"""Transform step for country data: parse every country source and save ONE observation table.

Reads each source through the snapshot store (which verifies the pinned sha256), parses it with its
module in `pipeline.transform.parsers`, adds the reference observations (identity, card universe), and
saves `build/transform/observations.parquet` (values as text, typed again by `load`) plus
`build/transform/universe.parquet` (the card countries). Sorted, so the bytes are deterministic. The step
is `step` (declared in pipeline.build.graph).
"""

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pandas as pd

from pipeline import atomic, readers
from pipeline.extract import SnapshotStore, Source
from pipeline.transform import observations
from pipeline.transform.country_sources import CAPITAL_ORDER, PARSERS
from pipeline.transform.parsers.common import parse_complete

CAPITAL_COLUMNS = ["iso3", "capital", "capital_lat", "capital_lon"]
# What a parser's `to_observations` takes after its parsed table (the others take nothing more): its source
# definition, and the card capitals, which come from the other parsers' observations, so these run last.
EXTRA_INPUTS = {"flag_icons": ("source",), "city_temperatures": ("capitals",), "world_temperature": ("capitals",)}


def parser(name: str) -> ModuleType:
    return importlib.import_module(f"pipeline.transform.parsers.{name}")


def capitals(table: pd.DataFrame) -> pd.DataFrame:
    """Per country, the capital (name and coordinates) of the first source in CAPITAL_ORDER giving all three."""
    rows = table[table["field"].isin(CAPITAL_COLUMNS[1:]) & table["source"].isin(CAPITAL_ORDER)]
    wide = rows.drop_duplicates(["iso3", "source", "field"]).pivot(
        index=["iso3", "source"], columns="field", values="value"
    )
    wide = wide.reindex(columns=CAPITAL_COLUMNS[1:]).dropna().reset_index()
    wide["rank"] = wide["source"].map(CAPITAL_ORDER.index)
    best = wide.sort_values(["iso3", "rank"]).drop_duplicates("iso3")
    best = best.astype({"capital_lat": float, "capital_lon": float})
    return best[CAPITAL_COLUMNS].reset_index(drop=True)


def build(
    store: SnapshotStore, sources: dict[str, Source], on_source: Callable[[str], None] = lambda _: None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """All observations (every parser's plus the reference ones, in one sorted table) and the card
    universe (`reference.universe`). mledoze is parsed once, for its observations and the reference
    tables. A row without a vintage gets its source's edition (e.g. the Factbook's "final edition"); the
    same value from the same source twice (the reference tables repeat mledoze's names) is kept once."""
    from pipeline.transform import reference, reviewed_temperatures

    mledoze = parser("mledoze")
    countries = parse_complete(mledoze, mledoze.read(store, sources[mledoze.SOURCE]))
    parts = [reference.reference_observations(countries, sources[mledoze.SOURCE].vintage)]
    parts.append(reviewed_temperatures.to_observations(reviewed_temperatures.parse()))
    universe = reference.universe(parts[0])
    later = [name for name in PARSERS if "capitals" in EXTRA_INPUTS.get(name, ())]
    card_capitals = None
    for name in [name for name in PARSERS if name not in later] + later:
        module = parser(name)
        source = sources[module.SOURCE]
        if name in later and card_capitals is None:
            card_capitals = capitals(pd.concat(parts, ignore_index=True))
        extra = {"source": source, "capitals": card_capitals}
        parsed = countries if module is mledoze else parse_complete(module, module.read(store, source))
        parts.append(module.to_observations(parsed, *(extra[e] for e in EXTRA_INPUTS.get(name, ()))))
        on_source(module.SOURCE)
    table = pd.concat(parts, ignore_index=True)
    edition = table["source"].map({name: s.vintage for name, s in sources.items()})
    table["vintage"] = table["vintage"].astype("string").fillna("").where(lambda v: v != "", edition.fillna(""))
    table = table.sort_values(["iso3", "field", "source", "vintage", "note"], kind="stable")
    text = [encode(f, v) for f, v in zip(table["field"], table["value"])]
    table = table[~table.assign(text=text).duplicated(["iso3", "field", "source", "text"])].reset_index(drop=True)
    return table, universe


def save(table: pd.DataFrame, universe: pd.DataFrame, observations_path: Path, universe_path: Path) -> None:
    """Write the observation table (values as text) and the card universe, atomically."""
    text = table[observations.COLUMNS].astype({"value": object})
    text["value"] = [encode(f, v) for f, v in zip(text["field"], text["value"])]
    text = text.astype(dict.fromkeys(observations.COLUMNS, "string"))
    atomic.write_parquet(universe_path, universe[["iso3"]].astype("string").sort_values("iso3"))
    atomic.write_parquet(observations_path, text)


def encode(field: str, value) -> str:
    """A value as exact text: floats by repr (round-trips), booleans as True/False."""
    kind = observations.FIELDS[field][1]
    return repr(float(value)) if kind is float else str(bool(value)) if kind is bool else str(value)


def load(observations_path: Path, universe_path: Path) -> tuple[pd.DataFrame, list[str]]:
    """The saved observations with typed values (FIELDS), and the card universe's ISO3 codes."""
    table = readers.table(observations_path)
    table["value"] = [decode(f, v) for f, v in zip(table["field"], table["value"])]
    table = table.astype({"value": object})
    return table, sorted(readers.table(universe_path)["iso3"])


def decode(field: str, text: str):
    kind = observations.FIELDS[field][1]
    if kind is bool:
        return text == "True"
    return float(text) if kind is float else text


def step(io) -> None:
    """The transform-countries step (pipeline.build.graph): parse every declared source, save both tables."""
    table, universe = build(io.store, {name: io.source(name) for name in io.step.sources}, io.progress)
    save(table, universe, io.path("transform/observations.parquet"), io.path("transform/universe.parquet"))
