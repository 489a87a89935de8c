"""Extract: pinned raw snapshots, resolved from the local store, a mirror folder or the live URL."""

from pipeline.extract.sources import Source, SourceFile, load_source, load_sources
from pipeline.extract.store import SnapshotStore, open_store

__all__ = ["SnapshotStore", "Source", "SourceFile", "load_source", "load_sources", "open_store"]
