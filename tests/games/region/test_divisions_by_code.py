"""A place's division comes from its GeoNames admin1 code, never from where it lies (issue 41, item 1): the
reviewed mapping names the United Kingdom's nations and Japan's prefectures, GeoNames' admin-1 table every
other country's divisions; an unknown code is an error naming it. One card per place; Japan's names spelled
as a local prints them."""

import pandas as pd
import pytest

from pipeline.errors import GeodeckError
from pipeline.games.region import candidates, geography


@pytest.mark.mirror
def test_london_is_in_england_glasgow_in_scotland_and_each_nation_has_its_capital(store):
    outline = geography.outline(store, "GBR", 300)
    table = candidates.candidates(store, "GBR", outline, 10).set_index("name")
    assert table.at["London", "state"] == "England" and table.at["Birmingham", "state"] == "England"
    assert table.at["Glasgow", "state"] == "Scotland" and table.at["Edinburgh", "state"] == "Scotland"
    assert table.at["Swansea", "state"] == "Wales" and table.at["Belfast", "state"] == "Northern Ireland"
    assert table.at["London", "capital"] == "country"
    assert set(table.index[table["capital"] == "division"]) == {"Edinburgh", "Cardiff", "Belfast"}
    assert not {"Mendip", "Isle of Lewis", "Saint Peters", "Londonderry County Borough"} & set(table.index)
    assert "Derry" in table.index  # one card for the city, not two at one point


@pytest.mark.mirror
def test_japan_s_prefectures_are_matched_by_name_not_by_their_alphabetical_codes(store):
    outline = geography.outline(store, "JPN", 300)
    spelling = {"suffixes": ["-shi"], "macrons": False}
    table = candidates.candidates(store, "JPN", outline, 10, spelling=spelling).set_index("name")
    assert table.at["Sapporo", "state"] == "Hokkaido" and table.at["Sapporo", "code"] == "JP-01"
    assert table.at["Nagoya", "state"] == "Aichi" and table.at["Nagoya", "capital"] == "division"
    seats = set(table.index[table["capital"] == "division"])
    assert {"Sapporo", "Sendai", "Fukuoka", "Oita", "Otsu", "Nara"} <= seats
    assert not {"Tomakomai", "Kitakyushu", "Tagajo"} & seats  # Natural Earth's marks are no longer read
    assert "Tagajo" in table.index and not any(n.endswith("-shi") or "Ō" in n for n in table.index)


@pytest.mark.mirror
def test_other_countries_divisions_are_geonames_admin1_names_and_an_unknown_code_is_an_error(store):
    table = pd.DataFrame({"name": ["Santiago", "Atlantis"], "division": ["12", "99"]})
    with pytest.raises(GeodeckError, match=r"admin1 code\(s\) '99' of Atlantis are not in geonames-admin1"):
        candidates.division_names(store, table, "CHL", "CL")
    assert candidates.division_names(store, table.iloc[:1], "CHL", "CL").tolist() == ["Santiago Metropolitan"]


def test_of_two_places_at_one_point_or_of_one_name_the_more_populous_stays():
    table = pd.DataFrame(
        {
            "geonameid": [1, 2, 3, 4],
            "name": ["Londonderry County Borough", "Derry", "Newport", "Newport"],
            "lat": [54.997, 54.998, 51.588, 50.701],
            "lon": [-7.309, -7.309, -2.998, -1.291],
            "population": [87153, 83652, 161506, 25008],
        }
    )
    crs = "+proj=laea +lat_0=54 +lon_0=-3 +datum=WGS84 +units=m"
    assert candidates.duplicates(table, crs).tolist() == [False, True, False, True]
    assert candidates.spelled(pd.Series(["Tagajō-shi", "Ōita", "Kochi"]), {"suffixes": ["-shi"], "macrons": False}) == [
        "Tagajo",
        "Oita",
        "Kochi",
    ]
