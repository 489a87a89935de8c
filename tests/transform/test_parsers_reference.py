"""The country universe and its reference fields: tiny fixtures and the mirror."""

from pathlib import Path

import pytest

from pipeline.errors import ParseError
from pipeline.extract import load_sources
from pipeline.transform import observations, reference
from pipeline.transform.parsers import mledoze

TINY = Path(__file__).parents[1] / "fixtures" / "tiny" / "parsers_b"


def tiny_mledoze():
    return mledoze.parse((TINY / "mledoze_countries.json").read_bytes())


def field(rows, name):
    return {r["iso3"]: r for r in rows if r["field"] == name}


def test_select_universe_refuses_a_wrong_member_count():
    with pytest.raises(ParseError, match="UN members"):
        reference.select_universe(tiny_mledoze())


def test_reference_rows_tiny():
    chosen = tiny_mledoze()
    chosen = chosen[chosen["iso3"] != "ABW"]  # Aruba is not in the universe
    assert not chosen.set_index("iso3").loc["VAT", "un_member"]  # mledoze's flag, corrected by its parser
    names_en = {"BRA": ("Brazil (reviewed)", "a test name")}
    rows = reference.reference_rows(chosen, reference.read_names(), "2026-04", names_en)
    continents = {k: r["value"] for k, r in field(rows, "continents").items()}
    assert continents == {
        "DEU": "Europe",
        "VAT": "Europe",
        "XKX": "Europe",
        "TUR": "Europe;Asia",
        "JAM": "North America",
        "BRA": "South America",
        "ATA": "Antarctica",
    }
    assert field(rows, "continents")["TUR"]["source"] == "reviewed"
    names = field(rows, "name_de")
    assert names["DEU"]["value"] == "Deutschland" and names["DEU"]["source"] == "pycountry"
    assert names["VAT"]["value"] == "Vatikanstadt" and names["VAT"]["source"] == "reviewed"
    assert names["XKX"]["value"] == "Kosovo"
    english = field(rows, "name_en")
    assert english["BRA"]["value"] == "Brazil (reviewed)" and english["BRA"]["source"] == "reviewed"
    assert english["DEU"]["value"] == "Germany" and english["DEU"]["source"] == "mledoze-countries"
    member = field(rows, "un_member")
    assert member["VAT"]["value"] is False and member["VAT"]["source"] == "reviewed"
    assert member["DEU"]["value"] is True
    assert field(rows, "iso2")["XKX"]["value"] == "XK"
    observations.frame(rows)  # a valid observation table


def test_unknown_region_is_a_parse_error():
    with pytest.raises(ParseError, match="region"):
        reference.continents_of("Atlantis", "")


@pytest.mark.parametrize("path, column", [(reference.NAMES_DE_FILE, "name_de"), (reference.NAMES_EN_FILE, "name_en")])
def test_reviewed_names_tables_are_well_formed(path, column):
    names = reference.read_names(path, column)
    assert names and all(name and reason for name, reason in names.values())
    assert all(len(iso3) == 3 and iso3.isupper() for iso3 in names)


# --- mirror integration -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference_obs(store):
    source = load_sources()[mledoze.SOURCE]
    return reference.reference_observations(mledoze.parse(mledoze.read(store, source)), source.vintage)


@pytest.fixture(scope="module")
def universe(reference_obs):
    return reference.universe(reference_obs)


@pytest.mark.mirror
def test_mirror_universe_has_198_countries(universe):
    assert len(universe) == 198 and universe["iso3"].is_unique
    assert {"VAT", "PSE", "XKX", "TWN", "ATA"} <= set(universe["iso3"])
    assert universe["un_member"].sum() == 193
    assert not universe.set_index("iso3").loc[["VAT", "PSE", "XKX", "TWN", "ATA"], "un_member"].any()
    assert list(universe.columns) == reference.UNIVERSE_COLUMNS
    assert universe[["iso2", "name_en", "name_de", "continents"]].notna().all().all()


@pytest.mark.mirror
def test_mirror_continents(universe):
    continents = universe.set_index("iso3")["continents"].str.split(";")
    assert continents["RUS"] == ["Europe", "Asia"] and continents["TUR"] == ["Europe", "Asia"]
    two = {"AZE", "EGY", "GEO", "IDN", "KAZ", "RUS", "TUR"}  # sources/reviewed/continents.csv
    assert {iso3 for iso3, c in continents.items() if len(c) > 1} == two
    assert continents["EGY"] == ["Africa", "Asia"] and continents["KAZ"] == ["Europe", "Asia"]
    assert all(set(c) <= set(observations.CONTINENTS) for c in continents)
    assert continents["PAN"] == ["North America"] and continents["JAM"] == ["North America"]
    assert continents["BRA"] == ["South America"] and continents["ATA"] == ["Antarctica"]
    chosen = {"CYP": "Europe", "ARM": "Asia"}
    assert {k: continents[k] for k in chosen} == {k: [v] for k, v in chosen.items()}


@pytest.mark.mirror
def test_mirror_german_names(universe):
    names = universe.set_index("iso3")["name_de"]
    expected = {
        "DEU": "Deutschland",
        "FRA": "Frankreich",
        "USA": "Vereinigte Staaten",
        "CIV": "Elfenbeinküste",  # reviewed (names_de.csv): the name German atlases use
        "TUR": "Türkei",
        "VAT": "Vatikanstadt",
        "RUS": "Russland",
        "AUT": "Österreich",
        "XKX": "Kosovo",
        "TWN": "Taiwan",
        "PSE": "Palästina",
    }
    assert {k: names[k] for k in expected} == expected
    assert not names.str.contains(",").any()  # no inverted ISO forms ("Korea, Republik")
    assert names.is_unique


@pytest.mark.mirror
def test_mirror_english_names_tell_the_two_congos_apart(universe):
    names = universe.set_index("iso3")["name_en"]
    assert (names["COG"], names["COD"]) == ("Republic of the Congo", "Democratic Republic of the Congo")
    assert not (names == "Congo").any() and names.is_unique


@pytest.mark.mirror
def test_mirror_reference_observations(reference_obs, universe):
    obs = reference_obs
    capitals = len(reference.read_capitals()) // 3  # reviewed capitals: name, latitude, longitude
    assert set(obs["field"]) == {
        "name_en",
        "name_de",
        "iso2",
        "un_member",
        "continents",
        "capital",
        "capital_lat",
        "capital_lon",
    }
    assert capitals == 8 and len(obs) == 5 * 198 + 3 * capitals and not obs.duplicated(["iso3", "field"]).any()
    assert set(obs["source"]) == {"mledoze-countries", "pycountry", "reviewed"}
    reviewed = obs[obs["source"] == "reviewed"]
    assert (reviewed["note"] != "").all()
