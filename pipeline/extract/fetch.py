"""Resolve every file of the chosen sources into the local store."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pipeline.extract.sources import Source
from pipeline.extract.store import SnapshotStore


@dataclass(frozen=True)
class FetchSummary:
    source: str
    files: int
    bytes: int
    pinned_version: str | None = None


def fetch_sources(
    store: SnapshotStore, sources: Iterable[Source], on_file: Callable[[str], None] = lambda _: None
) -> list[FetchSummary]:
    """Resolve each file source and check each package source's version; stop at the first error."""
    summaries = []
    for source in sources:
        if source.kind == "package":
            summaries.append(FetchSummary(source.name, 0, 0, source.installed_version()))
            continue
        for entry in source.files:
            store.resolve(entry)
            on_file(f"{source.name}/{entry.path}")
        unpinned = None if source.files else "not pinned yet: fetch --refresh"
        summaries.append(FetchSummary(source.name, len(source.files), sum(f.bytes for f in source.files), unpinned))
    return summaries
