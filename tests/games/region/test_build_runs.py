"""How `geodeck region build` runs (issue 41, docs/regions.md): a country whose data fail the editorial gate is
refused before any deck is selected; the search's tries share the country's candidates; a build holds the
lock of build/region/ only, and the store's only while it puts its files into the store, so another geodeck
command does not wait for a long build."""

import fcntl

import pytest

from pipeline import locking, paths
from pipeline.errors import GeodeckError
from pipeline.games.region import build as region_build
from pipeline.games.region import candidates, many, search
from pipeline.i18n import registry as languages


@pytest.mark.mirror
def test_a_country_whose_data_fail_the_gate_is_refused_before_any_deck_is_selected(store, tmp_path, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    monkeypatch.setattr(region_build, "select", lambda *a: pytest.fail("a deck selected for data that fail"))
    with pytest.raises(GeodeckError, match="the editorial gate refuses the country's data") as refused:
        search.search(store, "AFG", None, None, languages.language("en"), {})
    assert "no capital known for" in str(refused.value)
    assert search.verdict(region_build.folder("AFG", tmp_path)).startswith("refused: 96 places: editorial gate (")


@pytest.mark.mirror
def test_the_tries_of_a_search_share_the_country_s_candidates(store, tmp_path, monkeypatch):
    config = region_build.settings()
    tries = [{"places": 40}, {"places": 40, "weight_spread": 1.0}, {"places": 40, "largest": 10}]
    strict = {**config, "gate": {**config["gate"], "largest": 60}, "search": {"tries": tries}}
    monkeypatch.setattr(region_build, "settings", lambda: strict)  # 60 largest wanted in a deck of 40: every try fails
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    made = []
    real = candidates.candidates

    def counted(*args, **kwargs):
        made.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(candidates, "candidates", counted)
    with pytest.raises(GeodeckError, match="not a card:"):
        search.search(store, "NLD", None, None, languages.language("en"), {})
    assert made == ["NLD"]  # three decks tried, the candidates made once


def held(folder) -> bool:
    """Whether another run holds `folder`'s lock (a second command would wait for it)."""
    with (folder / locking.LOCK_FILE).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


@pytest.mark.mirror
@pytest.mark.parametrize("countries", [["NLD"], ["NLD", "BEL", "--jobs", "1"]])
def test_a_long_region_build_holds_neither_the_store_s_nor_the_build_s_lock(
    geodeck, tmp_path, mirror, monkeypatch, countries
):
    seen = {}

    def searching(store, iso3, *args, **kwargs):  # what another command finds while a country is searched
        seen[iso3] = {
            "store": held(paths.store_dir()),
            "build": held(paths.build_dir()),
            "build/region": held(many.locked_folder()),
        }
        raise GeodeckError(f"{iso3}: searched")

    monkeypatch.setattr(search, "search", searching)
    code, output = geodeck(
        ["region", "build", *countries, "--offline"], GEODECK_BUILD=str(tmp_path), GEODECK_MIRROR=str(mirror)
    )
    assert code != 0 and "NLD: searched" in output, output
    searched = [c for c in countries if c.isalpha() and c.isupper()]
    assert seen == {iso3: {"store": False, "build": False, "build/region": True} for iso3 in searched}
