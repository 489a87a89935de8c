"""A refreshed source read by its own parsers before its new pin is written (`geodeck fetch --refresh`,
pipeline/extract/refresh.py, which the CLI gives `changes`): every parser of the source parses the new files
complete (or raises its ParseError), and how each parsed table differs from the pinned one is described."""

import importlib
import pkgutil
from types import ModuleType

import pandas as pd

from pipeline.errors import GeodeckError
from pipeline.extract.sources import Source
from pipeline.extract.store import SnapshotStore
from pipeline.transform import parsers
from pipeline.transform.parsers.common import parse_complete

MAX_CHANGES = 12  # the examples of each kind of change listed


def parsers_of(name: str) -> list[ModuleType]:
    """The parser modules (pipeline/transform/parsers) that read source `name` (those declaring COMPLETE)."""
    modules = (importlib.import_module(f"{parsers.__name__}.{i.name}") for i in pkgutil.iter_modules(parsers.__path__))
    return [m for m in modules if getattr(m, "SOURCE", None) == name and hasattr(m, "COMPLETE")]


def changes(old: Source, new: Source, store: SnapshotStore, staging: SnapshotStore) -> list[str]:
    """Parse the new files (in `staging`) with every parser of the source (complete tables or its
    ParseError) and describe how each parsed table differs from the one the current pin gives."""
    pinned = {f.path: f for f in old.files}
    changes = [
        f"{f.path}: sha256 {o.sha256[:12]} → {f.sha256[:12]}, {o.bytes:,} → {f.bytes:,} bytes"
        if (o := pinned.get(f.path))
        else f"{f.path}: first pin, sha256 {f.sha256[:12]}, {f.bytes:,} bytes"
        for f in new.files
        if f.path not in pinned or pinned[f.path].sha256 != f.sha256
    ]
    for parser in parsers_of(new.name):
        name = parser.__name__.rsplit(".", 1)[-1]
        fresh = parse_complete(parser, *_args(parser.read(staging, new)))
        if not old.files:
            changes.append(f"{name}: {len(fresh)} rows (first pin)")
            continue
        try:
            before = parse_complete(parser, *_args(parser.read(store, old)))
        except GeodeckError:
            before = None
        changes += [f"{name}: {line}" for line in table_changes(before, fresh)]
    return changes


def _args(raw) -> tuple:
    """What a parser's `read` gave, as the arguments of its `parse` (several layers, or one input)."""
    return tuple(raw) if isinstance(raw, tuple | list) else (raw,)


def table_changes(old: pd.DataFrame | None, new: pd.DataFrame) -> list[str]:
    """Rows added and removed and values changed between two parsed tables, keyed by their first column
    that is a unique key of both (a few examples each)."""
    if old is None:
        return [f"{len(new)} rows (the current pin is not in the store or mirror to compare with)"]
    key = next(
        (c for c in new.columns if c in old.columns and new[c].notna().all() and new[c].is_unique and old[c].is_unique),
        None,
    )
    if key is None:
        return [f"{len(old)} → {len(new)} rows"]
    before, after = old.set_index(key).map(str), new.set_index(key).map(str)
    added, removed = after.index.difference(before.index), before.index.difference(after.index)
    lines = [f"{len(old)} → {len(new)} rows, {len(added)} added, {len(removed)} removed"]
    lines += [f"added {key}={k}" for k in list(added)[:3]] + [f"removed {key}={k}" for k in list(removed)[:3]]
    common = before.index.intersection(after.index)
    columns = [c for c in after.columns if c in before.columns]
    left, right = before.loc[common, columns], after.loc[common, columns]
    differs = left.ne(right).stack()
    differs = differs[differs]
    lines.append(f"{len(differs)} values changed")
    for k, column in list(differs.index)[:MAX_CHANGES]:
        lines.append(f"{key}={k}: {column} {left.at[k, column][:40]} → {right.at[k, column][:40]}")
    return lines
