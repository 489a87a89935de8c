"""Every step rebuilt from the snapshot mirror gives the committed decks again, card for card: speed work
(issue 23) and refactoring must not change what is printed."""

import numpy as np
import pytest

from pipeline.build.runner import build
from pipeline.build.step import Context
from pipeline.decks import published, stage
from pipeline.games import registry as games

pytestmark = pytest.mark.mirror


@pytest.fixture(scope="module")
def rebuilt(store, tmp_path_factory):
    """A build folder with every table the decks read, built from the mirror (independent steps in two workers)."""
    root = tmp_path_factory.mktemp("rebuilt")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GEODECK_BUILD", str(root))
        build(Context(store, jobs=2), ["countries", "towns", "geo"])  # side by side, as `geodeck build` runs
    return root


@pytest.mark.parametrize("game", sorted(n for n, d in games.registered().items() if d.in_build))  # not regions
def test_rebuilt_deck_equals_the_committed_one(rebuilt, game):
    _, committed = published.deck(games.get(game), None)
    fresh = stage.fresh_deck(games.get(game), rebuilt)[1]
    assert fresh["cards"] == committed["cards"]
    rest = {k: v for k, v in fresh.items() if k not in ("cards", "version", "grid")}
    assert rest == {k: v for k, v in committed.items() if k not in ("cards", "version", "grid")}
    if "grid" in committed:  # a least-squares fit: its last bits depend on the CPU's BLAS kernels
        assert {**fresh["grid"], "affine": None} == {**committed["grid"], "affine": None}
        np.testing.assert_allclose(fresh["grid"]["affine"], committed["grid"]["affine"], rtol=1e-12, atol=0)
