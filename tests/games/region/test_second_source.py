"""A card's population checked against a second source where one exists (issue 41, item 2; docs/regions.md):
Natural Earth's pop_min by GeoNames id, else by the same name nearby (its Southampton carries no id); a
country's own second source where its settings declare one (Germany: Wikipedia's list of towns). A figure
more than `second_source_off` from it is flagged in the card's provenance and the CHANGELOG."""

import numpy as np
import pandas as pd
import pytest

from pipeline.extract import load_sources, names
from pipeline.games.region import build, candidates, gate
from pipeline.transform.parsers import wikipedia_german_cities

CRS = "+proj=laea +lat_0=52 +lon_0=-2 +datum=WGS84 +units=m +no_defs"


def ne(*rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["geonameid", "name", "lat", "lon", "pop_min", "pop_max"])


def test_natural_earth_s_place_without_the_geonames_id_is_found_by_its_name_nearby():
    table = pd.DataFrame(
        {
            "geonameid": [2637487, 2653822, 2643743, 9],
            "name": ["Southampton", "Cardiff", "London", "Eastleigh"],
            "lat": [50.904, 51.48, 51.509, 50.967],
            "lon": [-1.404, -3.18, -0.126, -1.35],
            "population": [269781, 372089, 8961989, 24011],
        }
    )
    places = ne(
        (0, "Southampton", 50.90, -1.40, 384417, 384417),  # no id: by name, 0.5 km
        (2172349, "Cardiff", 51.50, -3.22, 346100, 861400),  # an Australian town's id: by name, 3.4 km
        (2643743, "London", 51.50, -0.12, 7994000, 8567000),  # by id
        (0, "Eastleigh", 51.30, -1.35, 50000, 50000),  # the same name 37 km away: another place
    )
    found = candidates.second_source(table, places, CRS)
    assert found["second"].tolist() == [384417, 346100, 7994000, 0]
    assert found["agglomeration"].tolist() == [384417, 861400, 8567000, 0]
    assert found["second_from"].tolist() == [names.NATURAL_EARTH] * 3 + [""]
    assert gate.flagged(found, 0.2).tolist() == [True, False, False, False]  # Southampton 30 % below


@pytest.mark.mirror
def test_germany_s_places_are_checked_against_wikipedia_s_list_of_towns(store):
    assert build.settings()["countries"]["DEU"]["second_source"] == names.WIKIPEDIA_GERMAN_CITIES
    listed = wikipedia_german_cities.parse(
        wikipedia_german_cities.read(store, load_sources()[names.WIKIPEDIA_GERMAN_CITIES])
    )
    munich = listed.loc[listed["name"] == "Munich"].iloc[0]
    salzgitter = listed.loc[listed["name"] == "Salzgitter"].iloc[0]
    table = pd.DataFrame(
        {
            "geonameid": [2867714, 2842647, 1],
            "name": ["Munich", "Salzgitter", "Nowhere"],
            "lat": [munich["lat"] + 0.005, salzgitter["lat"] + 0.05, 53.9],  # GeoNames' point beside the list's;
            "lon": [munich["lon"], salzgitter["lon"], 5.0],  # 5.6 km away, the same name; at sea
            "population": [1260391, 104970, 20000],
            "second": [0, 0, 15000],
            "second_from": ["", "", names.NATURAL_EARTH],
        }
    )
    crs = "+proj=laea +lat_0=51 +lon_0=10 +datum=WGS84 +units=m +no_defs"
    found = candidates.declared_second(store, table, names.WIKIPEDIA_GERMAN_CITIES, crs)
    figures = [int(munich["population"]), int(salzgitter["population"]), 15000]  # Nowhere: Natural Earth's kept
    assert found["second"].tolist() == figures
    assert found["second_from"].tolist() == [names.WIKIPEDIA_GERMAN_CITIES] * 2 + [names.NATURAL_EARTH]
    assert np.isfinite(munich["population"]) and munich["population"] > 1_000_000
