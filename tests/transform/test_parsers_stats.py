"""Gapminder, World Bank and mledoze parsers: tiny hand-written files, malformed input, the mirror."""

import datetime
import json
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import ParseError
from pipeline.extract import load_sources
from pipeline.transform.parsers import gapminder, mledoze, worldbank

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "parsers"


def tiny_raw(folder: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((FIXTURES / folder).iterdir())}


def tiny_file(folder: str, name: str) -> bytes:
    return (FIXTURES / folder / name).read_bytes()


def value(obs: pd.DataFrame, iso3: str, field: str):
    hit = obs[(obs["iso3"] == iso3) & (obs["field"] == field)]
    assert len(hit) == 1, f"{iso3} {field}: {len(hit)} rows"
    return hit.iloc[0]


def mirror_parse(module, store) -> pd.DataFrame:
    return module.parse(module.read(store, load_sources()[module.SOURCE]))


# --- Gapminder ------------------------------------------------------------------------------------------


def test_gapminder_tiny_latest_year_before_release():
    df = gapminder.parse(tiny_raw("gapminder")).set_index("geo")
    # pop v8 released 2024: 2024 and 2100 are projections, 2023 is the latest observed year
    assert (df.at["deu", "pop"], df.at["deu", "pop_year"]) == (84_500_000, 2023)
    # lex v15 released 2026: estimates end in 2023 (declared), 2024 on are projections
    assert (df.at["deu", "lex"], df.at["deu", "lex_year"]) == (80.9, 2023)
    assert (df.at["deu", "gdp_pcap"], df.at["deu", "gdp_pcap_year"]) == (62829.8, 2024)
    assert df.at["kos", "iso3"] == "XKX" and df.at["nam", "iso3"] == "NAM"
    assert pd.isna(df.at["abkh", "iso3"]) and pd.isna(df.at["abkh", "pop"])  # kept, not keyed
    assert pd.isna(df.at["zzz", "name"]) and df.at["zzz", "gdp_pcap"] == 1000  # datapoint without entity kept


def test_gapminder_tiny_observations():
    obs = gapminder.to_observations(gapminder.parse(tiny_raw("gapminder")))
    assert set(obs["iso3"]) == {"DEU", "NAM", "XKX"}
    row = value(obs, "DEU", "population")
    assert row["value"] == 84_500_000 and row["vintage"] == "2023" and "v8" in row["note"]
    assert value(obs, "XKX", "population")["value"] == 1_700_000
    assert value(obs, "NAM", "life_expectancy")["vintage"] == "2023"


def test_gapminder_zero_is_a_placeholder_not_a_value():
    raw = tiny_raw("gapminder")
    path = "ddf--datapoints--lex--by--country--time.csv"
    raw[path] = raw[path].replace(b"deu,2023,80.9", b"deu,2022,80.5\ndeu,2023,0")
    df = gapminder.parse(raw).set_index("geo")
    assert (df.at["deu", "lex"], df.at["deu", "lex_year"]) == (80.5, 2022)


@pytest.mark.parametrize("bad", [b"80,9", b"nan", b"n/a"])
def test_gapminder_value_that_is_not_a_number_is_a_parse_error_naming_it(bad):
    raw = tiny_raw("gapminder")
    path = "ddf--datapoints--lex--by--country--time.csv"
    raw[path] = raw[path].replace(b"deu,2023,80.9", b'deu,2023,"' + bad + b'"')
    with pytest.raises(ParseError, match=f"not numbers: {bad.decode()}"):
        gapminder.parse(raw)


def test_gapminder_release_without_a_declared_last_estimate_year_is_a_parse_error():
    raw = tiny_raw("gapminder")
    raw["ddf--concepts.csv"] = raw["ddf--concepts.csv"].replace(b"lex,measure,v15", b"lex,measure,v16")
    with pytest.raises(ParseError, match="v16 has no declared last estimate year"):
        gapminder.parse(raw)


def test_gapminder_mirror_liechtenstein_life_expectancy(store):
    obs = gapminder.to_observations(mirror_parse(gapminder, store))
    row = value(obs, "LIE", "life_expectancy")
    assert row["value"] > 80 and row["vintage"] == "2023"  # 2024 on are 0 placeholders in lex v15
    assert (obs["value"] > 0).all()


def test_gapminder_missing_column():
    raw = tiny_raw("gapminder")
    raw["ddf--datapoints--lex--by--country--time.csv"] = b"country,year,lex\ndeu,2020,80\n"
    with pytest.raises(ParseError) as err:
        gapminder.parse(raw)
    assert err.value.source == "gapminder-fasttrack"
    assert err.value.field == "ddf--datapoints--lex--by--country--time.csv: time"


def test_gapminder_text_in_a_number_column_is_a_parse_error():
    raw = tiny_raw("gapminder")
    path = "ddf--datapoints--pop--by--country--time.csv"
    raw[path] = raw[path].replace(b"deu,2023,84500000", b"deu,2023,84.5 million")
    with pytest.raises(ParseError) as err:
        gapminder.parse(raw)
    assert err.value.field == f"{path}: pop"


def test_gapminder_release_without_year():
    raw = tiny_raw("gapminder")
    raw["ddf--concepts.csv"] = raw["ddf--concepts.csv"].replace(b'"July 29, 2024"', b"soon")
    with pytest.raises(ParseError, match="pop.updated"):
        gapminder.parse(raw)


def test_gapminder_mirror(store):
    df = mirror_parse(gapminder, store)
    obs = gapminder.to_observations(df)
    this_year = datetime.date.today().year
    years = obs["vintage"].astype(int)
    assert years.max() < this_year  # never a projection
    assert value(obs, "DEU", "population")["vintage"] == "2023"
    assert value(obs, "DEU", "life_expectancy")["vintage"] == "2023"  # lex v15's last estimate, not 2025
    assert value(obs, "DEU", "gdp_pcap_ppp")["vintage"] == "2024"
    assert value(obs, "DEU", "population")["value"] == pytest.approx(84e6, rel=0.03)
    assert df.set_index("geo").at["kos", "iso3"] == "XKX"  # Kosovo has no datapoints in this release


# --- World Bank -----------------------------------------------------------------------------------------


def test_worldbank_tiny():
    df = worldbank.parse(tiny_file("worldbank", "population.csv")).set_index("code")
    assert df.loc[["WLD", "EUU"], "kind"].eq("aggregate").all()
    assert df.at["CHI", "kind"] == "territory"
    assert df.loc[["DEU", "NAM", "XKX"], "kind"].eq("country").all()
    assert (df.at["NAM", "population"], df.at["NAM", "year"]) == (2963095, 2023)  # 2024 is empty
    obs = worldbank.to_observations(worldbank.parse(tiny_file("worldbank", "population.csv")))
    assert sorted(obs["iso3"]) == ["DEU", "NAM", "XKX"]
    assert value(obs, "DEU", "population")["vintage"] == "2024"


def test_worldbank_missing_column():
    with pytest.raises(ParseError) as err:
        worldbank.parse(b"Country Name,Country Code,Year,Population\n")
    assert (err.value.source, err.value.field) == ("worldbank-population", "population.csv: Value")


def test_worldbank_text_in_a_number_column_is_a_parse_error():
    raw = tiny_file("worldbank", "population.csv").replace(b",2963095", b",2.96 million")
    with pytest.raises(ParseError) as err:
        worldbank.parse(raw)
    assert (err.value.source, err.value.field) == ("worldbank-population", "population.csv: Year, Value")


def test_worldbank_mirror(store):
    df = mirror_parse(worldbank, store)
    kinds = df.set_index("code")["kind"]
    for aggregate in ("WLD", "EUU", "HIC", "ARB", "SSF", "OED", "EMU", "LDC"):
        assert kinds[aggregate] == "aggregate"
    obs = worldbank.to_observations(df)
    assert not set(obs["iso3"]) & set(kinds[kinds == "aggregate"].index)
    assert value(obs, "XKX", "population")["vintage"] == "2024"
    assert value(obs, "DEU", "population")["value"] == pytest.approx(83.5e6, rel=0.02)
    assert len(obs) > 210 and (kinds == "aggregate").sum() > 40


# --- mledoze --------------------------------------------------------------------------------------------


def test_mledoze_tiny():
    df = mledoze.parse(tiny_file("mledoze", "countries.json")).set_index("iso3")
    assert df.at["XKX", "cca3"] == "UNK"
    assert df.at["SRB", "land_neighbours"] == "HUN;XKX"
    assert not df.at["VAT", "un_member"] and df.at["VAT", "un_member_note"]
    assert df.at["DEU", "un_member"] and df.at["DEU", "capital_lat"] == 52.52
    assert pd.isna(df.at["SJM", "area_km2"])  # -1 in the file
    assert pd.isna(df.at["ATA", "capital"])
    obs = mledoze.to_observations(mledoze.parse(tiny_file("mledoze", "countries.json")))
    assert value(obs, "DEU", "name_de")["value"] == "Deutschland"
    assert value(obs, "DEU", "land_neighbours")["value"] == "AUT;POL"
    assert value(obs, "XKX", "iso2")["value"] == "XK"
    assert value(obs, "VAT", "area_km2")["value"] == 0.44
    assert obs[(obs["iso3"] == "XKX") & (obs["field"] == "capital_lat")].empty


def test_mledoze_missing_key():
    entries = json.loads(tiny_file("mledoze", "countries.json"))
    del entries[1]["translations"]["deu"]
    with pytest.raises(ParseError) as err:
        mledoze.parse(json.dumps(entries).encode())
    assert (err.value.source, err.value.field) == ("mledoze-countries", "translations.deu")
    assert "UNK" in str(err.value)


def test_mledoze_malformed():
    with pytest.raises(ParseError, match="mledoze-countries: countries.json: top level"):
        mledoze.parse(b'{"cca3": "DEU"}')


def test_mledoze_mirror(store):
    df = mirror_parse(mledoze, store).set_index("iso3")
    assert df["un_member"].sum() == 193
    assert df.at["XKX", "land_neighbours"] == "ALB;MKD;MNE;SRB"
    assert "XKX" in df.at["SRB", "land_neighbours"].split(";")
    assert not (df["land_neighbours"].str.contains("UNK")).any()
    assert df.at["DEU", "area_km2"] == pytest.approx(357_000, rel=0.01)
    assert df.at["VAT", "area_km2"] == 0.44
    assert df.at["FRA", "name_de"] == "Frankreich"


# --- coverage over the 198-country universe -------------------------------------------------------------


def test_mirror_coverage(store):
    countries = mirror_parse(mledoze, store)
    universe = set(countries.loc[countries["un_member"], "iso3"]) | {"VAT", "PSE", "XKX", "TWN", "ATA"}
    assert len(universe) == 198
    covered = {}
    for module in (gapminder, worldbank, mledoze):
        obs = module.to_observations(mirror_parse(module, store))
        covered[module.SOURCE] = obs[obs["iso3"].isin(universe)].groupby("field")["iso3"].nunique()
    assert covered["mledoze-countries"]["name_de"] == 198
    # Gapminder has no Kosovo or Antarctica series; World Bank no Taiwan, Vatican or Antarctica
    assert covered["gapminder-fasttrack"]["population"] == 196
    assert covered["worldbank-population"]["population"] == 195
