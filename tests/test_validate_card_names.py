"""Recency rule and the derived card names (German capital, printed peak name) on synthetic observations."""

import pytest

from pipeline.errors import GeodeckError
from pipeline.transform.observations import frame
from pipeline.validate import card_names
from pipeline.validate.card_names import UNNAMED, UNNAMED_DE, Reviewed
from pipeline.validate.choose import choose, vintage_year
from pipeline.validate.precedence import MAX_VINTAGE_GAP_YEARS

UNIVERSE = ["AUT", "BHS", "BOL", "ITA", "KWT", "VAT"]
FB = "factbook"
SEVEN = "highest-points-7summits"


def obs(*rows):
    return frame([dict(zip(["iso3", "field", "value", "source", "vintage", "note"], r)) for r in rows])


def peak(iso3, name, metres, source=FB, vintage="2026"):
    return [(iso3, "highest_point_name", name, source, vintage, ""), (iso3, "highest_point_m", metres, source, vintage, "")]


def pick(rows, reviewed=None):
    master, report = choose(obs(*rows), UNIVERSE, {}, reviewed)
    return master.set_index("iso3"), report


def test_vintage_year_reads_the_latest_year():
    assert vintage_year("2025 est.") == 2025 and vintage_year("1981-2010") == 2010 and vintage_year("~2015") == 2015
    assert vintage_year("final edition, data updated 2026-01-22") == 2026 and vintage_year("not stated") is None


def test_stale_value_loses_to_a_fresh_one_whatever_the_precedence():
    rows = [("VAT", "population", 779.0, "gapminder-fasttrack", "2000", ""), ("VAT", "population", 1000.0, FB, "2024", "")]
    master, report = pick(rows)
    assert master.loc["VAT", "population"] == 1000.0 and master.loc["VAT", "population__source"] == FB
    assert report["stale"] == [{"iso3": "VAT", "field": "population", "source": "gapminder-fasttrack",
                                "value": "779", "vintage": "2000", "freshest": 2024}]
    assert report["refused"] == []


def test_value_within_the_recency_gap_keeps_its_precedence():
    old = str(2024 - MAX_VINTAGE_GAP_YEARS)
    rows = [("VAT", "population", 779.0, "gapminder-fasttrack", old, ""), ("VAT", "population", 1000.0, FB, "2024", "")]
    master, report = pick(rows)
    assert master.loc["VAT", "population"] == 779.0 and report["stale"] == []


def test_german_capital_from_the_reviewed_table_else_the_english_name():
    rows = [("AUT", "capital", "Vienna", FB, "2026", ""), ("BOL", "capital", "Sucre;La Paz", "reviewed", "2026-11", ""),
            ("ITA", "capital", "Rome", FB, "2026", "")]
    reviewed = Reviewed(capitals_de={"AUT": {"capital_en": "Vienna", "capital_de": "Wien"},
                                     "ITA": {"capital_en": "Rome", "capital_de": "Rom"}})
    master, _ = pick(rows, reviewed)
    assert master.loc["AUT", "capital_de"] == "Wien" and master.loc["AUT", "capital_de__source"] == "reviewed"
    assert master.loc["AUT", "capital"] == "Vienna"  # English cards keep the English name
    assert master.loc["BOL", "capital_de"] == "Sucre" and master.loc["BOL", "capital_de__source"] == "reviewed"
    assert master.loc["BOL", "capital"] == "Sucre;La Paz"


def test_german_capital_row_for_another_city_is_refused():
    reviewed = Reviewed(capitals_de={"ITA": {"capital_en": "Milan", "capital_de": "Mailand"}})
    with pytest.raises(GeodeckError, match="capitals_de.csv: ITA capital_en 'Milan' is not the card capital 'Rome'"):
        pick([("ITA", "capital", "Rome", FB, "2026", "")], reviewed)


def test_seven_summits_spelling_only_for_the_same_peak_and_name():
    rows = (peak("AUT", "Grossglockner", 3798.0) + peak("AUT", "Großglockner", 3798.0, SEVEN, "~2015")
            + peak("ITA", "Mont Blanc de Courmayeur", 4748.0) + peak("ITA", "Mount Blanc", 4810.0, SEVEN, "~2015"))
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


def test_reviewed_peak_names_and_the_unnamed_label_per_language():
    rows = peak("KWT", "3.6 km W. of Al-Salmi Border Post", 300.0) + peak("BHS", "1.3 km NE of Old Bight", 64.0)
    reviewed = Reviewed(peaks={
        "KWT": {"source_name": "3.6 km W. of Al-Salmi Border Post", "name": UNNAMED, "reason": "r", "citation": "c"},
        "BHS": {"source_name": "1.3 km NE of Old Bight", "name": "Mount Alvernia", "reason": "r", "citation": "c"}})
    master, report = pick(rows, reviewed)
    assert master.loc["KWT", "highest_point_name"] == UNNAMED and master.loc["KWT", "highest_point_name_de"] == UNNAMED_DE
    assert master.loc["BHS", "highest_point_name"] == master.loc["BHS", "highest_point_name_de"] == "Mount Alvernia"
    assert master.loc["BHS", "highest_point_name__source"] == "reviewed"
    assert {r["iso3"] for r in report["renamed"]} == {"KWT", "BHS"}


def test_descriptive_peak_without_review_fails_the_build():
    with pytest.raises(GeodeckError, match="KWT highest point .* is a description.*peak_names.csv"):
        pick(peak("KWT", "3.6 km W. of Al-Salmi Border Post", 300.0))


def test_reviewed_tables_on_disk_load_and_bad_rows_are_refused(tmp_path):
    import pycountry

    loaded = card_names.load([c.alpha_3 for c in pycountry.countries])
    assert loaded.capitals_de["AUT"]["capital_de"] == "Wien" and loaded.peaks["USA"]["name"] == "Denali"
    bad = tmp_path / "capitals_de.csv"
    bad.write_text("iso3,capital_en,capital_de,citation\nAUT,Vienna,Wien,\n", encoding="utf-8")
    with pytest.raises(GeodeckError, match="citation"):
        card_names.load(["AUT"], capitals_de=bad)
    with pytest.raises(GeodeckError, match="not a card country"):
        card_names.load(["DEU"], capitals_de=card_names.CAPITALS_DE)
