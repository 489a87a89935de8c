"""Wikipedia's "List of cities and towns in Germany" as scraped to `germany.json` (pensnarik/german-cities).

`parse` returns one row per list entry, in the file's order: `name` (as on en.wikipedia: exonyms such as
"Munich", bilingual names such as "Cottbus/Chóśebuz"), `state` (German state name), `district`,
`lat`, `lon` (degrees, NaN when the entry has none), `area_km2`, `population` (the list's ~2020 figure).
"""

import math

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import SnapshotStore, Source
from pipeline.transform.german_states import BY_ENGLISH
from pipeline.transform.parsers.common import Complete, load_json

SOURCE = "wikipedia-german-cities"
COMPLETE = Complete(rows=1850)  # pinned file: 2,054 towns
FILE = "germany.json"
COLUMNS = ["name", "state", "district", "lat", "lon", "area_km2", "population"]


def read(store: SnapshotStore, source: Source) -> bytes:
    return store.read_source(source, FILE)


def _number(entry: dict, value, field: str) -> float:
    if value in (None, ""):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ParseError(SOURCE, field, f"{entry.get('name')!r}: {value!r} is not a number") from None


def _row(entry: dict) -> dict:
    if not isinstance(entry, dict) or not entry.get("name"):
        raise ParseError(SOURCE, "name", f"entry without a name: {entry!r:.80}")
    if entry.get("state") not in BY_ENGLISH:
        raise ParseError(SOURCE, "state", f"{entry['name']!r}: unknown state {entry.get('state')!r}")
    coords = entry.get("coords") or {}
    return {
        "name": entry["name"].strip(),
        "state": BY_ENGLISH[entry["state"]],
        "district": entry.get("district") or "",
        "lat": _number(entry, coords.get("lat"), "coords.lat"),
        "lon": _number(entry, coords.get("lon"), "coords.lon"),
        "area_km2": _number(entry, entry.get("area"), "area"),
        "population": _number(entry, entry.get("population"), "population"),
    }


def parse(raw: bytes) -> pd.DataFrame:
    entries = load_json(raw, SOURCE, FILE)
    if not isinstance(entries, list) or not entries:
        raise ParseError(SOURCE, FILE, "expected a non-empty list of towns")
    return pd.DataFrame([_row(e) for e in entries], columns=COLUMNS)
