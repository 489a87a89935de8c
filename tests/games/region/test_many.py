"""`geodeck region build` of several countries (docs/regions.md, pipeline/games/region/many.py): each country
searched in a worker, published here in the order given; the search and the publisher are stand-ins here
(the real ones are `make bench`'s regions_all)."""

import pytest

from pipeline import workers
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.extract.store import SnapshotStore
from pipeline.games.region import many, search

REFUSAL = "region-chl not published: no deck tried is fair and legible: 96 places: the map is illegible (…)"


@pytest.fixture
def published(monkeypatch):
    """Stand-ins for the search (CHL refused, the rest pass) and the publisher (ITA unchanged, POL's change
    suspicious); the countries published, in order."""
    calls: list[str] = []

    def searched(iso3, options):
        return REFUSAL if iso3 == "CHL" else [{"places": 96, "map": [], "play_check": {"result": "pass"}}]

    def publish(iso3, tried, accept):
        calls.append(iso3)
        if iso3 == "POL" and not accept:
            raise GeodeckError("region-pol: suspicious changes (`geodeck diff region-pol`); --accept REASON")
        return stage.Result(f"region-{iso3.lower()}", "2026.12.9", iso3 != "ITA", tried[-1]["places"], None)

    monkeypatch.setattr(many, "ready", lambda store, on_wait=None: store)
    monkeypatch.setattr(many, "readable", lambda store, on_wait=None: store)  # no layer read: stand-ins search
    monkeypatch.setattr(many, "searched", searched)
    monkeypatch.setattr(search, "published", publish)
    return calls


def test_several_countries_are_published_in_a_table_and_a_refusal_exits_1(geodeck, tmp_path, published):
    code, output = geodeck(
        ["region", "build", "FRA", "chl", "ITA", "POL", "FRA", "--jobs", "1"], GEODECK_BUILD=str(tmp_path)
    )
    rows = [line for line in output.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["FRA", "CHL", "ITA", "POL"]
    assert "note: FRA named more than once: built once\n" in output  # merged, and said so
    assert "published" in rows[0] and "region-fra 2026.12.9: 96 cards" in rows[0]
    assert "refused" in rows[1] and "region-chl not published" in rows[1]
    assert "unchanged" in rows[2] and "refused" in rows[3] and "suspicious" in rows[3]
    assert code == 1 and "2 of 4 countries refused (see the table); the others are published" in output
    assert published == ["FRA", "ITA", "POL"]  # CHL's search refused it: nothing to publish


def test_the_decks_are_published_in_the_order_given_whatever_worker_finishes_first(monkeypatch, tmp_path, published):
    def backwards(function, items, args, jobs, scheduler, on_done):
        results = [function(item, *args) for item in items]
        for i in reversed(range(len(items))):
            on_done(i, results[i])
        return results

    store = SnapshotStore(tmp_path)
    in_order = many.build_many(store, ["FRA", "CHL", "ITA"], accept="ok")
    monkeypatch.setattr(many, "mapped", backwards)
    assert many.build_many(store, ["FRA", "CHL", "ITA"], accept="ok") == in_order
    assert published == ["FRA", "ITA"] * 2
    assert [o.state for o in in_order] == ["published", "refused", "unchanged"]


def test_bad_iso3_values_are_one_line_each_and_nothing_is_searched(geodeck, tmp_path, published):
    code, output = geodeck(["region", "build", "FRA", "XYZ", "FR", "--jobs", "1"], GEODECK_BUILD=str(tmp_path))
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 2 and output.count("error:") == 1 and published == []
    assert "'XYZ' is no ISO 3166-1 alpha-3" in lines[0] and "'FR' is no" in lines[1]
    assert all("`geodeck region list`" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["FRA", "ITA", "--jobs", "2", "--scheduler", "tcp://x:1"], "--scheduler and --jobs do not go together"),
        (["FRA", "ITA", "--title", "T"], "--title names one deck"),
        (["FRA", "--all"], "give ISO3 codes or --all, not both"),
        ([], "give one or more ISO3 codes"),
    ],
)
def test_options_that_do_not_go_together_are_refused(geodeck, tmp_path, published, args, words):
    code, output = geodeck(["region", "build", *args], GEODECK_BUILD=str(tmp_path))
    assert code == 2 and words in output and len(output.strip().splitlines()) == 1 and published == []


def test_an_unreachable_scheduler_is_one_clear_line(geodeck, tmp_path, monkeypatch, published):
    monkeypatch.setattr(workers, "CONNECT_TIMEOUT", "0.2s")  # the user's wait is 10 s; the error is the same
    code, output = geodeck(
        ["region", "build", "FRA", "ITA", "--scheduler", "tcp://127.0.0.1:9"], GEODECK_BUILD=str(tmp_path)
    )
    assert code == 2 and len(output.strip().splitlines()) == 1 and published == []
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in output and "dask scheduler" in output
