"""Place selection: a deterministic 96-card deck covering every state, with measured tie rates."""

import itertools

import numpy as np
import pandas as pd
import pytest

from pipeline import graph
from pipeline.errors import GeodeckError
from pipeline.games.deutschland import places
from pipeline.geo import selection


@pytest.mark.parametrize("values", [[1, 1, 2, 3, 5, 5], [4, 4, 4, 1, 9], [3, 1, 2, 7, 7, 1, 1]])
@pytest.mark.parametrize("k", [2, 3, 4])
def test_exact_tie_probability_matches_counting_every_layout(values, k):
    layouts = list(itertools.combinations(values, k))
    tied = sum(sorted(layout)[0] == sorted(layout)[1] for layout in layouts) / len(layouts)
    assert selection.tie_probability(np.array(values), k) == pytest.approx(tied)


@pytest.fixture
def built(geo_build, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(geo_build))
    outputs = {
        name: graph.output(f"geo/{name}") for name in ("places.parquet", "selection_report.json", "grid_report.md")
    }
    return pd.read_parquet(outputs["places.parquet"]), outputs


def test_deck_has_96_places_in_all_states_with_full_provenance(built):
    table, _ = built
    deck = table.loc[table["in_deck"]]
    assert len(deck) == 96 and deck["state"].nunique() == 16
    for column in ("name", "state", "population_vintage", "coord_source", "ns", "we"):
        assert deck[column].notna().all() and (deck[column].astype(str) != "").all(), column
    assert (deck["population"] > 0).all() and deck[["lat", "lon"]].notna().all().all()
    assert deck["ns"].between(0, 150).all() and deck["we"].between(0, 90).all()
    assert deck["in_state"].all() and not deck["off_map"].any()
    assert deck["population"].min() < 25_000 and deck["population"].max() == table["population"].max()
    pins = {"Bamberg", "Emden", "Wismar", "Cottbus", "Jena", "Koblenz"}
    assert pins <= set(deck["short_name"])


def test_selection_report_measures_tie_rates_close_to_exact(built):
    _, paths = built
    import json

    report = json.loads(paths["selection_report.json"].read_text())
    assert set(report["tie_rates_exact"]) == {"N", "S", "W", "O", "most", "fewest"}
    for name, by_k in report["tie_rates_exact"].items():
        for k, exact in by_k.items():
            assert abs(report["tie_rates_simulated"][name][k] - exact) < 0.01, (name, k)
    assert paths["grid_report.md"].read_text().count("EPSG:") >= 4


def test_selection_is_deterministic_and_honours_pins(built):
    table, _ = built
    settings = places.load_settings()
    located = table.drop(columns=["pinned", "eligible", "in_deck"])
    again = places.choose_places(located, settings)
    assert again["in_deck"].tolist() == table["in_deck"].tolist()
    out = table.loc[table["in_deck"] & (table["pinned"] == "")].iloc[0]
    pinned_out = places.choose_places(located, settings.__class__(**{**vars(settings), "pins_out": (out["ags"],)}))
    assert not pinned_out.set_index("ags").at[out["ags"], "in_deck"] and pinned_out["in_deck"].sum() == 96
    with pytest.raises(GeodeckError, match="matches 0"):
        places.resolve_pins(located, ("Atlantis (Bayern)",))
