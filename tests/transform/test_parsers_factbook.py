"""Factbook parser: free-text units, tiny hand-written entity files, and known facts on the mirror."""

import json
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import ParseError
from pipeline.extract import load_sources
from pipeline.transform.parsers import factbook as fb
from pipeline.transform.parsers import mledoze

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "parsers" / "factbook"


def tiny_raw() -> dict[str, bytes]:
    return {p.relative_to(FIXTURES).as_posix(): p.read_bytes() for p in sorted(FIXTURES.rglob("*.json"))}


def value(obs: pd.DataFrame, iso3: str, field: str):
    hit = obs[(obs["iso3"] == iso3) & (obs["field"] == field)]
    assert len(hit) == 1, f"{iso3} {field}: {len(hit)} rows"
    return hit.iloc[0]["value"]


# --- free text ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, total, core",
    [
        ("357,022 sq km", 357022, None),
        ("0 sq km", 0, None),
        ("14.2 million sq km", 14_200_000, None),
        ("1.284 million sq km", 1_284_000, None),
        ("643,801 sq km ; 551,500 sq km (metropolitan France)", 643801, 551500),
        ("443 sq km (Antigua 280 sq km; Barbuda 161 sq km)", 443, None),
        ("see note", None, None),
    ],
)
def test_area_forms(text, total, core):
    got_total, got_core, label = fb.parse_area(text)
    assert got_total == total and got_core == core
    assert label == ("metropolitan France" if core else "")


@pytest.mark.parametrize(
    "text, name, metres",
    [
        ("Zugspitze 2,963 m", "Zugspitze", 2963),
        ("Mont Blanc 4,810", "Mont Blanc", 4810),  # no unit
        ("Gora El'brus (highest point in Europe) 5,642 m", "Gora El'brus", 5642),
        ("Cerro Aconcagua (located in Mendoza; highest point in South America) 6,962 m", "Cerro Aconcagua", 6962),
        ("Mitspe Shlagim 2,224 m; note - the actual highest point is at 2,236 m", "Mitspe Shlagim", 2224),
        ("unnamed elevation 675 m; located 2.5 km southeast of Kotopounga", "unnamed elevation", 675),
        ("Fako on Mont Cameroun 4,045 m", "Fako", 4045),  # locators are remarks, not names
        ("Ponta do Pico on Ilha do Pico in the Azores 2,351 m", "Ponta do Pico", 2351),
        ("Pico de Teide on Canary Islands 3,718 m", "Pico de Teide", 3718),
        ("", None, None),
    ],
)
def test_highest_point_forms(text, name, metres):
    got_name, got_metres, _ = fb.parse_highest_point(text)
    assert (got_name, got_metres) == (name, metres)


def test_highest_point_locator_goes_to_remarks():
    assert fb.parse_highest_point("Margherita Peak on Mount Stanley 5,110 m")[2] == "on Mount Stanley"


def test_highest_point_keeps_remarks():
    _, _, remarks = fb.parse_highest_point("Mount Scenery (on the island of Saba in the Caribbean) 862 m")
    assert "Saba" in remarks


@pytest.mark.parametrize(
    "text, number, vintage",
    [
        ("84,012,284 (2025 est.)", 84012284, "2025 est."),
        ("$62,800 (2024 est.)", 62800, "2024 est."),
        ("81.9 years (2024 est.)", 81.9, "2024 est."),
        ("(2017 est.) 77.9", 77.9, "2017 est."),
        ("1,000 (2024)", 1000, "2024"),
        ("uninhabited", None, ""),
    ],
)
def test_estimates(text, number, vintage):
    assert fb.parse_estimate(text) == (number, vintage)


@pytest.mark.parametrize(
    "text, names",
    [
        ("Berlin", ["Berlin"]),
        ("Washington, D.C.", ["Washington, D.C."]),
        ("Pretoria (administrative capital); Cape Town (legislative capital)", ["Pretoria", "Cape Town"]),
        ("Gitega (political capital), Bujumbura (commercial capital)", ["Gitega", "Bujumbura"]),
        ("Santiago; note - Valparaiso is the seat of the national legislature", ["Santiago"]),
        ("Chisinau in Romanian (Kishinev in Russian)", ["Chisinau"]),
        ("no official capital; government offices in the Yaren District", []),
    ],
)
def test_capitals(text, names):
    assert fb.parse_capital(text) == names


def test_coordinates_and_borders():
    assert fb.parse_coordinates("34 55 S, 56 10 W") == (pytest.approx(-34.9167), pytest.approx(-56.1667))
    assert fb.parse_border_countries(
        "Russia (Kaliningrad) 261 km, Poland 100 km; China (southeast) 4,133 km and China (south) 46 km"
    ) == ["Russia (Kaliningrad)", "Poland", "China (southeast)", "China (south)"]


def test_plain_text():
    assert fb.plain("<strong>note:</strong> Bras&iacute;lia<br><br>x") == "note: Brasília; x"


# --- tiny fixture ---------------------------------------------------------------------------------------


def test_parse_tiny_fixture():
    df = fb.parse(tiny_raw())
    assert len(df) == len(tiny_raw())  # every entity kept, countries or not
    row = df.set_index("gec")
    assert row.at["gm", "area_km2"] == 357022  # key "total " with a trailing space
    assert (row.at["gm", "highest_point_name"], row.at["gm", "highest_point_m"]) == ("Zugspitze", 2963)
    assert row.at["gm", "gdp_pcap_ppp"] == 62800 and row.at["gm", "gdp_pcap_year"] == "2024"
    assert row.at["gm", "land_neighbours"] == "AUT;CZE;DNK;FRA"
    assert row.at["vt", "area_km2"] == 0 and row.at["vt", "iso3"] == "VAT"
    assert row.at["ay", "area_km2"] == 14_200_000 and row.at["ay", "population"] == 0
    assert row.at["ay", "population_vintage"] == ""
    assert pd.isna(row.at["ee", "iso3"]) and "European Union" in row.at["ee", "iso3_note"]


def test_observations_tiny_fixture():
    obs = fb.to_observations(fb.parse(tiny_raw()))
    assert set(obs["iso3"]) == {"DEU", "FRA", "VAT", "PSE", "ATA"}
    assert value(obs, "FRA", "area_core_km2") == 551500
    assert value(obs, "FRA", "area_km2") == 643801
    assert value(obs, "DEU", "population") == 84012284
    assert obs[(obs["iso3"] == "DEU") & (obs["field"] == "population")]["vintage"].item() == "2025 est."
    assert "rounded to 0" in obs[(obs["iso3"] == "VAT") & (obs["field"] == "area_km2")]["note"].item()
    # Palestine = West Bank + Gaza Strip
    assert value(obs, "PSE", "area_km2") == 5860 + 360
    assert value(obs, "PSE", "population") == 4_000_000
    assert value(obs, "PSE", "life_expectancy") == pytest.approx((76 * 3 + 72 * 1) / 4)
    assert value(obs, "PSE", "gdp_pcap_ppp") == 3800
    assert value(obs, "PSE", "land_neighbours") == "EGY;ISR;JOR"
    assert value(obs, "PSE", "highest_point_name") == "Khallat al Batrakh"


def test_missing_section_names_source_and_field():
    raw = tiny_raw()
    doc = json.loads(raw["europe/gm.json"])
    del doc["Geography"]
    raw["europe/gm.json"] = json.dumps(doc).encode()
    with pytest.raises(ParseError) as err:
        fb.parse(raw)
    assert (err.value.source, err.value.field) == ("factbook", "europe/gm.json: Geography")


def test_malformed_json_is_a_parse_error():
    with pytest.raises(ParseError, match=r"factbook: europe/xx.json: not valid JSON"):
        fb.parse({"europe/xx.json": b'{"Geography": '})


@pytest.mark.parametrize(
    "before, after, column",
    [
        (b"357,022 sq km", b"357,022 km2", "area_km2"),
        (b"Zugspitze 2,963 m", b"Zugspitze (2.963 km)", "highest_point_m"),
        (b"84,012,284 (2025 est.)", b"about 84 million (2025 est.)", "population"),
        (b"81.9 years (2024 est.)", b"eighty-two years", "life_expectancy"),
        (b"$62,800 (2024 est.)", b"NA", "gdp_pcap_ppp"),
        (b'"text": "Berlin"', b'"text": "see note"', "capital"),
        (b"52 31 N, 13 24 E", b"52.5N 13.4E", "capital_lat"),
    ],
)
def test_a_stated_value_that_does_not_parse_is_a_parse_error(before, after, column):
    raw = tiny_raw()
    raw["europe/gm.json"] = raw["europe/gm.json"].replace(b"$62,700 (2023 est.)", b"NA").replace(before, after)
    with pytest.raises(ParseError) as err:
        fb.parse(raw)
    assert (err.value.source, err.value.field) == ("factbook", f"europe/gm.json: {column}")


def test_reviewed_entries_without_a_value_are_kept_empty():
    raw = tiny_raw()
    raw["europe/zz.json"] = raw["europe/ee.json"].replace(
        b"Brussels (Belgium), Strasbourg (France)", b"no official capital"
    )
    with pytest.raises(ParseError, match="europe/zz.json: capital"):
        fb.parse(raw)
    raw["oceania/nr.json"] = raw.pop("europe/zz.json")
    assert pd.isna(fb.parse(raw).set_index("gec").at["nr", "capital"])


def test_two_entities_on_one_iso3_is_a_parse_error():
    raw = tiny_raw()
    raw["europe/zz.json"] = raw["europe/gm.json"]
    with pytest.raises(ParseError, match="several entities map to one ISO3"):
        fb.parse(raw)


# --- mirror ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def parsed(store):
    return fb.parse(fb.read(store, load_sources()["factbook"]))


@pytest.fixture(scope="module")
def obs(parsed):
    return fb.to_observations(parsed)


@pytest.fixture(scope="module")
def universe(store):
    """193 UN members (mledoze, Vatican corrected) plus VAT, PSE, XKX, TWN and ATA."""
    countries = mledoze.parse(mledoze.read(store, load_sources()["mledoze-countries"]))
    members = set(countries.loc[countries["un_member"], "iso3"])
    assert len(members) == 193
    return members | {"VAT", "PSE", "XKX", "TWN", "ATA"}


def test_mirror_known_facts(obs):
    """Values as the entity files state them (europe/gm.json: '357,022 sq km', 'Zugspitze 2,963 m'...)."""
    assert value(obs, "DEU", "area_km2") == 357_022
    assert value(obs, "DEU", "highest_point_name") == "Zugspitze"
    assert value(obs, "DEU", "highest_point_m") == 2963
    assert value(obs, "DEU", "gdp_pcap_ppp") == 62_800  # '$62,800 (2024 est.)', the latest year
    assert value(obs, "FRA", "area_core_km2") == pytest.approx(551_500, rel=0.001)
    assert value(obs, "FRA", "area_km2") == pytest.approx(643_801, rel=0.001)
    assert value(obs, "DNK", "area_km2") == pytest.approx(43_000, rel=0.01)  # without Greenland
    assert value(obs, "VAT", "area_km2") == 0  # "0 sq km": validate takes 0.44 from another source
    assert value(obs, "XKX", "capital") == "Pristina"
    assert value(obs, "NLD", "highest_point_name") == "Mount Scenery"
    assert "Saba" in obs[(obs["iso3"] == "NLD") & (obs["field"] == "highest_point_m")]["note"].item()
    assert value(obs, "ARG", "highest_point_m") == 6962
    assert set(value(obs, "ZAF", "capital").split(";")) == {"Pretoria", "Cape Town", "Bloemfontein"}
    assert "XKX" in value(obs, "SRB", "land_neighbours").split(";")


def test_mirror_palestine_combined(parsed, obs):
    parts = parsed[parsed["iso3"] == "PSE"].set_index("gec")
    assert set(parts.index) == {"we", "gz"}
    assert value(obs, "PSE", "area_km2") == parts["area_km2"].sum()
    assert value(obs, "PSE", "population") == parts["population"].sum()


def test_mirror_every_country_maps(parsed, obs, universe):
    assert universe <= set(obs["iso3"])
    # every entity is kept, with an ISO3 or a stated reason for none
    assert len(parsed) == len(load_sources()["factbook"].files) - 2  # all but LICENSE.md, meta/categories.json
    assert parsed.loc[parsed["iso3"].isna(), "iso3_note"].ne("").all()
    assert parsed.set_index("gec").at["kv", "iso3"] == "XKX"
    assert parsed.set_index("gec").at["ay", "iso3"] == "ATA"


def test_mirror_iso3_agrees_with_internet_code(parsed, store):
    """Name matching cross-checked against each entity's own ccTLD (.de -> DEU)."""
    import pycountry

    source = load_sources()["factbook"]
    disagree = []
    for r in parsed[parsed["iso3"].notna()].itertuples():
        doc = json.loads(store.read_source(source, r.path))
        tld = fb.plain((doc["Communications"].get("Internet country code") or {}).get("text"))
        country = pycountry.countries.get(alpha_2=tld[1:].upper()) if len(tld) == 3 else None
        if country is None or country.alpha_3 != r.iso3:
            disagree.append(r.gec)
    # France lists several domains, Kosovo's .xk and the UK's .uk are not ISO codes, sx/um have none
    assert sorted(disagree) == ["fr", "kv", "sx", "uk", "um"]


def test_mirror_coverage(obs, universe):
    covered = obs[obs["iso3"].isin(universe)].groupby("field")["iso3"].nunique()
    for field in ("area_km2", "highest_point_m", "population", "land_neighbours"):
        assert covered[field] == len(universe), field
    assert covered["life_expectancy"] >= len(universe) - 2  # Vatican and Antarctica have none
    assert covered["capital"] >= len(universe) - 3  # Antarctica, Nauru (no official capital), Palestine
