"""Choosing card values from synthetic observations: precedence, tolerances, overrides, refusals, the
core-territory rule and the Antarctica card note."""

import pandas as pd
import pytest

from pipeline.errors import GeodeckError
from pipeline.fields import fields
from pipeline.transform.observations import frame
from pipeline.validate import overrides
from pipeline.validate.choose import COLUMNS, VALUE_COLUMNS, choose
from pipeline.validate.overrides import Override
from pipeline.validate.schema import check_master

UNIVERSE = ["ATA", "DEU", "FRA", "NLD"]
REFEREE = "owid-covid-latest"
GAP, FB = "gapminder-fasttrack", "factbook"


def obs(*rows):
    return frame([dict(zip(["iso3", "field", "value", "source", "vintage", "note"], r)) for r in rows])


def pick(table, overrides_=None):
    master, report = choose(table, UNIVERSE, overrides_ or {})
    return master.set_index("iso3"), report


def test_precedence_picks_the_declared_source_and_records_provenance():
    table = obs(
        ("DEU", "population", 83.5e6, "worldbank-population", "2024", ""),
        ("DEU", "population", 84.0e6, "gapminder-fasttrack", "2025", ""),
        ("DEU", "population", 84.1e6, "factbook", "2025", ""),
    )
    master, report = pick(table)
    assert master.loc["DEU", "population"] == 83.5e6
    assert master.loc["DEU", "population__source"] == "worldbank-population"
    assert master.loc["DEU", "population__vintage"] == "2024"
    assert master.loc["DEU", "population__conflict"] == ""  # within 5 %
    assert report["conflicts"] == []
    assert list(master.reset_index().columns) == COLUMNS
    assert len(master) == len(UNIVERSE)


def test_disagreement_beyond_tolerance_is_a_reported_conflict():
    table = obs(
        ("DEU", "area_km2", 357022.0, "factbook", "2026", ""),
        ("DEU", "area_km2", 300000.0, "mledoze-countries", "2026", ""),
    )
    master, report = pick(table)
    assert master.loc["DEU", "area_km2"] == 357022.0
    assert "mledoze-countries=300000" in master.loc["DEU", "area_km2__conflict"]
    [conflict] = report["conflicts"]
    assert conflict["tolerance"] == "±2%" and conflict["chosen_source"] == "factbook"
    assert conflict["values"] == {"factbook": "357022", "mledoze-countries": "300000"}


def test_neighbours_compare_as_sets_and_drop_non_card_territories():
    table = obs(
        ("FRA", "land_neighbours", "DEU;NLD", "factbook", "2026", ""),
        ("FRA", "land_neighbours", "NLD;DEU;GIB", "mledoze-countries", "2026", ""),
    )
    master, report = pick(table)
    assert master.loc["FRA", "land_neighbours"] == "DEU;NLD"
    assert master.loc["FRA", "land_neighbour_count"] == 2
    assert master.loc["FRA", "land_neighbour_count__source"] == "factbook"
    assert master.loc["FRA", "land_neighbours__conflict"] == ""
    assert report["neighbours_outside_universe"] == [{"iso3": "FRA", "source": "mledoze-countries", "dropped": ["GIB"]}]


def test_out_of_range_value_falls_back_to_the_next_source_with_a_report_line():
    table = obs(
        ("DEU", "life_expectancy", 810.0, "gapminder-fasttrack", "2025", ""),
        ("DEU", "life_expectancy", 81.0, "factbook", "2025", ""),
        ("DEU", "life_expectancy", 81.3, REFEREE, "2019", ""),
    )
    master, report = pick(table)
    assert master.loc["DEU", "life_expectancy"] == 81.0
    assert master.loc["DEU", "life_expectancy__source"] == "factbook"
    [refused] = report["refused"]
    assert refused["source"] == "gapminder-fasttrack" and refused["fallback"] == "factbook"


def test_nothing_valid_left_means_empty_and_reported():
    table = obs(("DEU", "capital_temp_c", 95.0, "wikipedia-city-temperatures", "2023", ""))
    master, report = pick(table)
    assert pd.isna(master.loc["DEU", "capital_temp_c"])
    assert master.loc["DEU", "capital_temp_c__source"] == ""
    assert {"iso3": "DEU", "field": "capital_temp_c", "reason": "every source's value was refused"} in report["empty"]
    assert report["coverage"]["capital_temp_c"] == 0


def test_vatican_zero_area_is_refused_in_favour_of_a_real_one():
    table = obs(
        ("DEU", "area_km2", 0.0, "factbook", "2026", ""), ("DEU", "area_km2", 0.44, "mledoze-countries", "2026", "")
    )
    master, _ = pick(table)
    assert master.loc["DEU", "area_km2"] == 0.44


def test_gdp_in_another_dollar_base_is_refused_and_reported():
    table = obs(
        ("DEU", "gdp_pcap_ppp", 210600.0, "factbook", "2022", "data are in 2015 dollars"),
        ("FRA", "gdp_pcap_ppp", 55000.0, "factbook", "2024", "data are in 2021 dollars"),
        ("FRA", "gdp_pcap_ppp", 45000.0, REFEREE, "2019", "constant 2011 int$"),
    )
    master, report = pick(table)
    assert pd.isna(master.loc["DEU", "gdp_pcap_ppp"])
    assert master.loc["FRA", "gdp_pcap_ppp"] == 55000.0
    assert [(r["iso3"], r["reason"]) for r in report["refused"]] == [
        ("DEU", "in 2015 dollars, not constant 2021 dollars like the other values")
    ]
    assert {"iso3": "DEU", "field": "gdp_pcap_ppp", "reason": "every source's value was refused"} in report["empty"]


def test_override_wins_and_is_reported_with_what_it_replaced():
    table = obs(
        ("NLD", "highest_point_m", 862.0, "factbook", "2026", ""),
        ("NLD", "highest_point_name", "Mount Scenery", "factbook", "2026", ""),
    )
    rules = {
        ("NLD", "highest_point_m"): Override(
            "NLD", "highest_point_m", 322.0, "core national territory: Saba is Caribbean", "Factbook note", OFFICIAL
        ),
        ("NLD", "highest_point_name"): Override(
            "NLD",
            "highest_point_name",
            "Vaalserberg",
            "core national territory: Saba is Caribbean",
            "Factbook note",
            OFFICIAL,
        ),
    }
    master, report = pick(table, rules)
    assert master.loc["NLD", "highest_point_m"] == 322.0
    assert master.loc["NLD", "highest_point_name"] == "Vaalserberg"
    assert master.loc["NLD", "highest_point_m__source"] == "override"
    assert master.loc["NLD", "highest_point_m__vintage"] == "Factbook note"
    assert [(o["field"], o["replaced_value"]) for o in report["overrides"]] == [
        ("highest_point_m", "862"),
        ("highest_point_name", "Mount Scenery"),
    ]
    assert report["core_territory_countries"] == ["NLD"]


def test_core_area_replaces_the_same_sources_total_and_is_listed():
    table = obs(
        ("FRA", "area_km2", 643801.0, "factbook", "2026", ""),
        ("FRA", "area_core_km2", 551500.0, "factbook", "2026", "metropolitan France"),
        ("FRA", "area_km2", 551695.0, "mledoze-countries", "2026", ""),
        ("DEU", "area_km2", 357022.0, "factbook", "2026", ""),
    )
    master, report = pick(table)
    assert master.loc["FRA", "area_km2"] == 551500.0
    assert master.loc["FRA", "area_km2__conflict"] == ""  # mledoze's metropolitan figure agrees
    assert report["core_territory_countries"] == ["FRA"]
    [change] = report["core_territory"]
    assert (change["before"], change["after"]) == ("643801", "551500")


def test_paired_field_follows_the_source_of_its_key_field():
    table = obs(
        ("DEU", "highest_point_m", -5.0, "factbook", "2026", ""),
        ("DEU", "highest_point_name", "Zugspitze (Factbook)", "factbook", "2026", ""),
        ("DEU", "highest_point_m", 2962.0, "highest-points-7summits", "2015", ""),
        ("DEU", "highest_point_name", "Zugspitze", "highest-points-7summits", "2015", ""),
    )
    master, _ = pick(table)
    assert master.loc["DEU", "highest_point_m"] == 2962.0
    assert master.loc["DEU", "highest_point_name"] == "Zugspitze"


def test_paired_field_never_comes_from_another_source_than_its_key_field():
    table = obs(
        ("DEU", "highest_point_m", 2963.0, "factbook", "2026", ""),
        ("DEU", "highest_point_m", 2962.0, "highest-points-7summits", "2015", ""),
        ("DEU", "highest_point_name", "Zugspitze", "highest-points-7summits", "2015", ""),
        ("FRA", "label_lon", 2.0, "natural-earth", "4.1.0", ""),
    )
    master, report = pick(table)
    assert master.loc["DEU", "highest_point_m"] == 2963.0 and pd.isna(master.loc["DEU", "highest_point_name"])
    assert {
        "iso3": "DEU",
        "field": "highest_point_name",
        "reason": "no value from factbook, the source of highest_point_m",
    } in report["empty"]
    assert pd.isna(master.loc["FRA", "label_lon"])  # no label_lat: a lone longitude is no point


def test_antarctica_has_no_inhabitant_values_by_design():
    table = obs(
        ("ATA", "population", 1000.0, "factbook", "2025", ""), ("ATA", "area_km2", 14.2e6, "factbook", "2026", "")
    )
    master, report = pick(table)
    assert pd.isna(master.loc["ATA", "population"]) and master.loc["ATA", "area_km2"] == 14.2e6
    reasons = {e["field"]: e["reason"] for e in report["empty"] if e["iso3"] == "ATA"}
    assert "not permanently inhabited" in reasons["population"] and "gdp_pcap_ppp" in reasons


OFFICIAL = "official statistics"


def write(tmp_path, text):
    path = tmp_path / "overrides.csv"
    path.write_text("iso3,field,value,reason,citation,source_class\n" + text)
    return path


def test_overrides_file_is_typed_and_checked(tmp_path):
    good = write(tmp_path, "VAT,area_km2,0.44,Factbook total reads 0,Factbook land area,official statistics\n")
    assert overrides.load(good, universe=["VAT"])["VAT", "area_km2"].value == 0.44
    for row, message in [
        ("VAT,area_km2,0,r,c,other\n", "outside the plausible range"),
        ("VAT,area,1,r,c,other\n", "unknown field"),
        ("XXX,area_km2,1,r,c,other\n", "not a card country"),
        ("VAT,area_km2,1,,c,other\n", "reason and a citation"),
        ("VAT,highest_point_m,78,r,c,other\n", "also needs highest_point_name"),
        ("VAT,label_lat,41.9,r,c,other\n", "also needs label_lon"),
        ("VAT,area_km2,0.44,r,c,other\nVAT,area_km2,0.5,r,c,other\n", "a second override"),
        ("VAT,area_km2,0.44,r,c,travel page\n", "source_class 'travel page' is not one of"),
    ]:
        with pytest.raises(GeodeckError, match=message):
            overrides.load(write(tmp_path, row), universe=["VAT"])


def test_markdown_report_lists_conflicts_overrides_and_gaps():
    from pipeline.validate import report as reporting

    table = obs(
        ("DEU", "area_km2", 357022.0, "factbook", "2026", ""),
        ("DEU", "area_km2", 300000.0, "mledoze-countries", "2026", ""),
    )
    rules = {
        ("FRA", "area_km2"): Override(
            "FRA", "area_km2", 551500.0, "core national territory: metropolitan", "Factbook France", OFFICIAL
        )
    }
    _, found = pick(table, rules)
    text = reporting.to_markdown(found)
    assert "| DEU | area_km2 | factbook=357022; mledoze-countries=300000 | ±2% | 357022 (factbook) |" in text
    assert "| FRA | area_km2 | 551500 |" in text and "Countries changed: FRA." in text
    assert "| NLD | area_km2 | no source has a value |" in text
    assert "| area_km2 | 2 | 2 |" in text  # coverage: DEU and FRA of the four


def gdp(gapminder: float, factbook: float, referee: float):
    """The master table and report for France's GDP per capita from the two card sources and the referee."""
    return pick(
        obs(
            ("FRA", "gdp_pcap_ppp", gapminder, GAP, "2024", ""),
            ("FRA", "gdp_pcap_ppp", factbook, FB, "2024", "data are in 2021 dollars"),
            ("FRA", "gdp_pcap_ppp", referee, REFEREE, "2019", ""),
        )
    )


def test_referee_decides_a_conflict_and_the_report_shows_all_three_values():
    master, report = gdp(30000.0, 20000.0, 15000.0)  # 1.21 x 15,000 = 18,150: the Factbook is near it
    assert master.loc["FRA", "gdp_pcap_ppp"] == 20000.0 and master.loc["FRA", "gdp_pcap_ppp__source"] == FB
    [decision] = report["referee"]
    assert decision["values"] == {GAP: "30000 (2024)", FB: "20000 (2024)"}
    assert decision["referee"] == "18150 (2019)" and decision["chosen"] == FB
    assert "closest" in decision["why"] and "+ 0.25 for 5 years" in decision["why"]  # 5 % a year
    [conflict] = report["conflicts"]
    assert conflict["why"].startswith("referee: factbook: closest to owid-covid-latest")


def test_one_series_wins_whatever_the_other_sources_say_and_disagreements_are_reported():
    """Life expectancy and population have no referee: the declared series (UN WPP 2024, World Bank 2024)
    is the card value for every country it covers, the other sources are cross-checks (Nigeria)."""
    master, report = pick(
        obs(
            ("FRA", "life_expectancy", 54.462, "owid-life-expectancy-unwpp", "2023", ""),  # Nigeria
            ("FRA", "life_expectancy", 64.5, GAP, "2023", ""),
            ("FRA", "life_expectancy", 63.0, FB, "2024 est.", ""),
            ("DEU", "population", 2402306.0, "worldbank-population", "2024", ""),  # Moldova
            ("DEU", "population", 3067070.0, GAP, "2023", ""),
            ("NLD", "life_expectancy", 80.6, GAP, "2023", ""),  # no UN WPP value: the fallback, flagged
        )
    )
    assert master.loc["FRA", "life_expectancy"] == 54.462
    assert master.loc["FRA", "life_expectancy__source"] == "owid-life-expectancy-unwpp"
    assert master.loc["DEU", "population"] == 2402306.0 and master.loc["NLD", "life_expectancy__source"] == GAP
    assert report["referee"] == []
    conflicts = {(c["iso3"], c["field"]) for c in report["conflicts"]}
    assert {("FRA", "life_expectancy"), ("DEU", "population")} <= conflicts


def test_two_agreeing_card_sources_outvote_the_referee():
    table = obs(
        ("FRA", "gdp_pcap_ppp", 20078.8, GAP, "2024", ""),
        ("FRA", "gdp_pcap_ppp", 20100.0, FB, "2024", "data are in 2021 dollars"),
        ("FRA", "gdp_pcap_ppp", 8787.6, REFEREE, "2019", ""),
    )
    master, report = pick(table)
    assert master.loc["FRA", "gdp_pcap_ppp"] == 20078.8 and report["referee"] == []


def test_a_value_no_two_sources_support_is_refused_and_reported():
    table = obs(
        ("FRA", "gdp_pcap_ppp", 467496.4, GAP, "2024", ""),  # Monaco: Gapminder only, no referee value
        ("DEU", "gdp_pcap_ppp", 60000.0, GAP, "2024", ""),
        ("DEU", "gdp_pcap_ppp", 30000.0, FB, "2024", ""),  # disagree, and no referee value
        ("NLD", "gdp_pcap_ppp", 70000.0, GAP, "2024", ""),
        ("NLD", "gdp_pcap_ppp", 10000.0, REFEREE, "2019", ""),  # far outside 25 % + 5 % a year
    )
    master, report = pick(table)
    assert master.loc[["FRA", "DEU", "NLD"], "gdp_pcap_ppp"].isna().all()
    refused = {d["iso3"]: d for d in report["referee"]}
    assert refused["FRA"]["case"] == "single source" and refused["FRA"]["chosen"] == ""
    assert "has no value" in refused["DEU"]["why"]
    assert "no value within the tolerance" in refused["NLD"]["why"]
    assert {"iso3": "NLD", "field": "gdp_pcap_ppp", "reason": refused["NLD"]["why"]} in report["empty"]


def test_override_settles_a_value_the_sources_do_not_support():
    table = obs(("FRA", "gdp_pcap_ppp", 79564.8, GAP, "2024", ""))
    settled = {("FRA", "gdp_pcap_ppp"): Override("FRA", "gdp_pcap_ppp", 79564.8, "IMF agrees", "IMF WEO", OFFICIAL)}
    master, report = pick(table, settled)
    assert master.loc["FRA", "gdp_pcap_ppp"] == 79564.8 and report["referee"] == []


def test_old_values_of_recency_fields_are_reported():
    table = obs(
        ("DEU", "population", 83.5e6, "worldbank-population", "2024", ""),
        ("DEU", "population", 84.0e6, GAP, "2023", ""),
        ("FRA", "population", 60.0e6, FB, "2015", ""),
        ("FRA", "population", 60.5e6, GAP, "2016", ""),
    )
    _, report = pick(table)
    assert report["old"] == [{"iso3": "FRA", "field": "population", "year": 2016, "newest": 2024}]


def test_the_master_table_contract_holds_for_a_chosen_table_and_names_every_breach():
    master, _ = choose(obs(("DEU", "population", 83.5e6, "worldbank-population", "2024", "")), UNIVERSE, {})
    check_master(master, COLUMNS, VALUE_COLUMNS, len(UNIVERSE))
    broken = master.copy()
    broken.loc[0, "iso3"], broken.loc[2, "iso3"] = "deu", broken.loc[1, "iso3"]
    broken.loc[1, "population"] = -5.0
    broken.loc[3, "population__source"] = pd.NA
    with pytest.raises(ValueError) as raised:
        check_master(broken, COLUMNS, VALUE_COLUMNS, len(UNIVERSE) + 1)
    for breach in ("4 rows, not one per card country (5)", "iso3 not three capitals: ['deu']", "iso3 twice: ['DEU']"):
        assert breach in str(raised.value)
    bounds = fields()["population"].range
    assert bounds is not None
    low, high = bounds
    assert f"population outside {low:g}..{high:g}: [-5.0]" in str(raised.value)
    assert "population__source is not text throughout" in str(raised.value)
    with pytest.raises(ValueError, match="missing \\['area_km2'\\]"):
        check_master(master.drop(columns="area_km2"), COLUMNS, VALUE_COLUMNS, len(UNIVERSE))
    with pytest.raises(ValueError, match="not in the declared order"):
        check_master(master[COLUMNS[::-1]], COLUMNS, VALUE_COLUMNS, len(UNIVERSE))
