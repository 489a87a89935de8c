"""The country observation table's file format and the capital choice used to match temperatures."""

import inspect

import pandas as pd
import pytest

from pipeline.extract import load_sources
from pipeline.transform import countries, reference
from pipeline.transform.country_sources import PARSERS
from pipeline.transform.observations import frame
from pipeline.transform.parsers import mledoze


def test_values_round_trip_through_the_saved_table(tmp_path):
    table = frame(
        [
            {"iso3": "DEU", "field": "population", "value": 83_555_478, "source": "a", "vintage": "2024", "note": ""},
            {
                "iso3": "DEU",
                "field": "life_expectancy",
                "value": 81.123456789012,
                "source": "a",
                "vintage": "",
                "note": "",
            },
            {"iso3": "DEU", "field": "un_member", "value": True, "source": "b", "vintage": "", "note": ""},
            {"iso3": "VAT", "field": "un_member", "value": False, "source": "b", "vintage": "", "note": ""},
            {"iso3": "DEU", "field": "capital", "value": "Berlin", "source": "b", "vintage": "", "note": "x"},
        ]
    )
    paths = tmp_path / "observations.parquet", tmp_path / "universe.parquet"
    countries.save(table, pd.DataFrame({"iso3": ["VAT", "DEU"]}), *paths)
    first = paths[0].read_bytes()
    loaded, universe = countries.load(*paths)
    assert universe == ["DEU", "VAT"]
    values = {(r.iso3, r.field): r.value for r in loaded.itertuples()}
    assert values["DEU", "population"] == 83_555_478.0
    assert values["DEU", "life_expectancy"] == 81.123456789012
    assert values["DEU", "un_member"] is True and values["VAT", "un_member"] is False
    assert values["DEU", "capital"] == "Berlin"
    countries.save(table, pd.DataFrame({"iso3": ["VAT", "DEU"]}), *paths)
    assert paths[0].read_bytes() == first  # deterministic bytes


def test_capitals_come_from_the_first_source_with_name_and_coordinates():
    first, second = countries.CAPITAL_ORDER[:2]
    rows = [
        ("FRA", "capital", "Paris", second),
        ("FRA", "capital_lat", 48.87, second),
        ("FRA", "capital_lon", 2.33, second),
        ("FRA", "capital", "Paris", first),
        ("FRA", "capital_lat", 48.9, first),
        ("FRA", "capital_lon", 2.3, first),
        ("DEU", "capital", "Berlin", first),  # no coordinates there
        ("DEU", "capital", "Berlin", second),
        ("DEU", "capital_lat", 52.5, second),
        ("DEU", "capital_lon", 13.4, second),
    ]
    table = frame([{"iso3": i, "field": f, "value": v, "source": s, "vintage": "", "note": ""} for i, f, v, s in rows])
    chosen = countries.capitals(table).set_index("iso3")
    assert chosen.loc["FRA", "capital_lat"] == 48.9  # the first source
    assert chosen.loc["DEU", "capital_lat"] == 52.5  # the first lacks coordinates: the second
    assert list(chosen.reset_index().columns) == countries.CAPITAL_COLUMNS


def test_the_declared_sources_are_the_parsers_sources():
    from pipeline.transform import country_sources

    assert {name: countries.parser(name).SOURCE for name in country_sources.PARSERS} == country_sources.PARSERS


def test_the_extra_inputs_table_matches_what_each_parser_takes():
    for name in PARSERS:
        takes = tuple(inspect.signature(countries.parser(name).to_observations).parameters)[1:]
        assert takes == countries.EXTRA_INPUTS.get(name, ()), name


@pytest.mark.mirror
def test_build_parses_mledoze_once_for_its_observations_and_the_universe(store, monkeypatch):
    parse, calls = mledoze.parse, []

    def counted(raw):
        calls.append(1)
        return parse(raw)

    monkeypatch.setattr(mledoze, "parse", counted)
    table, universe = countries.build(store, load_sources())
    assert len(calls) == 1
    assert list(universe.columns) == reference.UNIVERSE_COLUMNS and len(universe) == 198
    names = table[(table["field"] == "name_en") & (table["source"] == mledoze.SOURCE)].set_index("iso3")["value"]
    assert names["DEU"] == "Germany" and set(universe["iso3"]) <= set(names.index)
    assert set(table["source"]) >= set(PARSERS.values())
