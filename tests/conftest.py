"""Shared fixtures: the snapshot mirror (../shared/snapshots) and a throwaway store per session."""

from pathlib import Path

import pytest

from pipeline.extract import open_store
from pipeline.paths import ROOT

MIRROR = Path(__import__("os").environ.get("GEODECK_MIRROR", ROOT.parent / "shared" / "snapshots"))


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "index.json").is_file():
        pytest.skip(f"snapshot mirror not found at {MIRROR}")
    return MIRROR


@pytest.fixture(scope="session")
def store(mirror, tmp_path_factory):
    """A store filled lazily from the mirror, never from the network."""
    return open_store(mirror=mirror, online=False, root=tmp_path_factory.mktemp("store"))
