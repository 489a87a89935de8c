"""The custom decks' tests: a workshop of their own (build folder, decks folder, registry)."""

import pytest
from fixtures.tiny.decks import synthetic

from pipeline import paths
from pipeline.games import registry


@pytest.fixture
def workshop(mirror, tmp_path, monkeypatch):
    """A build folder with the synthetic country table (printable: real codes, flags and maps, read through the
    snapshot mirror: `deck new` prints every deck before it publishes it), an empty decks folder, and the
    registry as it was."""
    root = synthetic.write_inputs(tmp_path / "build", synthetic.printable_countries_table())
    monkeypatch.setenv("GEODECK_BUILD", str(root))
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "decks")
    before = dict(registry._REGISTRY)
    yield tmp_path
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)
