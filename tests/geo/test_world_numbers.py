"""World-map numbers: by continent in the documented order, then west to east; the geo country step."""

import pandas as pd
import pytest

from pipeline.build import graph
from pipeline.build.runner import build
from pipeline.build.step import Context
from pipeline.errors import GeodeckError
from pipeline.geo import world_numbers


def table(rows):
    return pd.DataFrame(rows, columns=["iso3", "continents", "un_member", "label_lat", "label_lon"])


ROWS = [
    ("FRA", "Europe", True, 48.9, 2.35),
    ("DEU", "Europe", True, 52.5, 13.4),
    ("USA", "North America", True, 38.9, -77.0),
    ("CAN", "North America", True, 45.4, -75.7),
    ("EGY", "Africa;Asia", True, 30.0, 31.2),
    ("KAZ", "Europe;Asia", True, 51.2, 71.4),
    ("RUS", "Europe;Asia", True, 55.8, 37.6),
    ("TON", "Oceania", True, -21.1, -175.2),
    ("FJI", "Oceania", True, -18.1, 178.4),
    ("VAT", "Europe", False, 41.9, 12.45),
    ("XKX", "Europe", False, 42.7, 21.2),
    ("ATA", "Antarctica", False, None, None),
    ("BRA", "South America", True, -15.8, -47.9),
]


def test_numbers_follow_continent_order_then_west_to_east():
    out = world_numbers.numbered(table(ROWS)).set_index("iso3")
    order = out["map_number"].dropna().sort_values().index.tolist()
    assert order == ["USA", "CAN", "BRA", "FRA", "VAT", "DEU", "RUS", "EGY", "KAZ", "TON", "FJI"]
    assert out.loc["XKX", "map_number"] is pd.NA and out.loc["ATA", "map_number"] is pd.NA
    assert out.loc["KAZ", "primary_continent"] == "Asia" and out.loc["RUS", "primary_continent"] == "Europe"
    assert out.loc["EGY", "primary_continent"] == "Africa" and out.loc["ATA", "primary_continent"] == "Antarctica"


def test_same_longitude_ties_go_north_to_south():
    out = world_numbers.numbered(table([("AAA", "Africa", True, -10.0, 5.0), ("BBB", "Africa", True, 10.0, 5.0)]))
    assert out.set_index("iso3")["map_number"].to_dict() == {"AAA": 2, "BBB": 1}


def test_label_point_not_capital_sets_the_order():
    # (iso3, label point, capital): Washington lies east of Havana, but the USA's label point lies west of Cuba's
    rows = [
        ("USA", (39.5, -98.0), (38.9, -77.0)),
        ("CUB", (21.6, -79.0), (23.1, -82.4)),
        ("BHS", (24.7, -78.0), (25.1, -77.35)),
    ]
    frame = pd.DataFrame(
        [
            {
                "iso3": i,
                "continents": "North America",
                "un_member": True,
                "label_lat": lab[0],
                "label_lon": lab[1],
                "capital_lat": cap[0],
                "capital_lon": cap[1],
            }
            for i, lab, cap in rows
        ]
    )
    out = world_numbers.numbered(frame).set_index("iso3")["map_number"].to_dict()
    assert out == {"USA": 1, "CUB": 2, "BHS": 3}


def test_missing_label_point_and_unknown_continent_are_refused():
    with pytest.raises(GeodeckError, match="label point for DEU"):
        world_numbers.numbered(table([("DEU", "Europe", True, 52.5, None)]))
    with pytest.raises(GeodeckError, match="unknown continent"):
        world_numbers.numbered(table([("DEU", "Eurasia", True, 52.5, 13.4)]))


def test_geo_step_writes_the_numbered_table_once(tmp_path, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    (tmp_path / "validate").mkdir()
    table(ROWS).to_parquet(tmp_path / "validate" / "countries.parquet")
    assert [r.ran for r in build(Context(None), ["geo-countries"])] == [True]
    written = pd.read_parquet(graph.output("geo/countries.parquet"))
    assert written["map_number"].max() == 11 and list(written["iso3"]) == sorted(written["iso3"])
    assert [r.ran for r in build(Context(None), ["geo-countries"])] == [False]
