"""The editorial gate (issue 41, item 3; pipeline/games/region/gate.py): a deck with London in the wrong
division, two cards at one point, a village with a district's population, a crowded division or its best-known
places missing is refused, one line per problem, unless published with --accept (its CHANGELOG says so)."""

import pandas as pd
import pytest

from pipeline.games.region import build as region_build
from pipeline.games.region import gate

RULES = {"largest": 2, "share_factor": 2.0, "share_margin": 0.15, "share_cards": 3, "near_km": 0.5,
         "district_ratio": 3.0, "twin_km": 10, "second_source_off": 0.2}  # fmt: skip


def places(*rows, in_deck=None) -> pd.DataFrame:
    table = pd.DataFrame(
        rows, columns=["geonameid", "name", "division", "state", "capital", "lat", "lon", "population", "agglomeration"]
    )
    return table.assign(in_deck=in_deck or [True] * len(table), suburb="", second=0)


UK = (
    (1, "London", "ENG", "England", "country", 51.509, -0.126, 8961989, 8567000),
    (2, "Glasgow", "SCT", "Scotland", "", 55.865, -4.258, 626410, 1160000),
    (3, "Edinburgh", "SCT", "Scotland", "division", 55.952, -3.196, 514990, 504966),
    (4, "Cardiff", "WLS", "Wales", "division", 51.48, -3.18, 372089, 861400),
    (5, "Belfast", "NIR", "Northern Ireland", "division", 54.597, -5.925, 348005, 0),
)


@pytest.mark.mirror
def test_london_in_the_wrong_division_is_refused_by_its_code(store):
    right = places(*UK)
    assert gate.data_problems(store, "GBR", right) == []
    wrong = right.assign(state=["Oxfordshire", "Highland", "Highland", "Wales", "Northern Ireland"])
    problems = gate.data_problems(store, "GBR", wrong)
    assert problems[0] == "London is in England by its GeoNames admin1 code 'ENG', but its card says 'Oxfordshire'"
    assert len([p for p in problems if "by its GeoNames admin1 code" in p]) == 3  # one line per card


@pytest.mark.mirror
def test_a_reviewed_capital_printed_in_english_and_an_unknown_capital_are_problems(store):
    vienna = places((1, "Vienna", "09", "Wien", "country", 48.208, 16.372, 1691468, 2400000))
    assert gate.data_problems(store, "AUT", vienna)[0].startswith("Wien, capital of Wien in sources/reviewed/")
    chile = places((1, "Rancagua", "08", "O'Higgins Region", "", -34.17, -70.74, 212695, 0))  # Natural Earth: none
    assert gate.data_problems(store, "CHL", chile) == [
        "no capital known for O'Higgins Region: Natural Earth marks none near a GeoNames place; name them in "
        "sources/reviewed/region_divisions.csv"
    ]


def test_two_cards_at_one_point_and_a_village_with_its_district_s_population_are_refused():
    table = places(
        *UK,
        (6, "Londonderry County Borough", "NIR", "Northern Ireland", "", 54.997, -7.309, 87153, 0),
        (7, "Derry", "NIR", "Northern Ireland", "", 54.998, -7.309, 83652, 0),
        (8, "Saint Peters", "ENG", "England", "", 51.367, 1.417, 125370, 25000),
    )
    assert gate.deck_problems(table, {**RULES, "share_cards": 4}) == [
        "Londonderry County Borough and Derry are 0.11 km apart: one place printed twice",
        "Saint Peters has 125,370 inhabitants, more than its whole agglomeration's 25,000 (Natural Earth): a "
        "district's figure",
    ]
    assert gate.deck_problems(table.iloc[:5], RULES) == []
    hamilton = (9, "Hamilton", "SCT", "Scotland", "", 55.767, -4.033, 54480, 0)
    earnock = places(*UK, hamilton, (10, "Meikle Earnock", "SCT", "Scotland", "", 55.75, -4.033, 54480, 0))
    assert gate.deck_problems(earnock.assign(in_deck=[True] * 5 + [False, True]), {**RULES, "share_cards": 4}) == [
        "Meikle Earnock and Hamilton both have 54,480 inhabitants, 1.9 km apart: one is the other's district"
    ]


def test_the_best_known_places_must_be_cards_and_no_division_holds_far_more_than_its_share():
    missing = places(*UK, in_deck=[True, False, False, True, True])
    assert gate.deck_problems(missing, RULES) == [
        "not a card: Edinburgh (capital of Scotland), Glasgow (no. 2 by inhabitants)"
    ]
    towns = [(10 + i, f"Town {i}", "ENG", "England", "", 51.0 + i / 10, -1.0, 20000, 0) for i in range(6)]
    england = places(*UK, *towns)
    assert gate.deck_problems(england, RULES) == []  # England, 83 % of the inhabitants, holds 7 of 11 cards
    oxfordshire = england.assign(state=england["state"].where(england["geonameid"] < 10, "Oxfordshire"))
    assert gate.deck_problems(oxfordshire, RULES) == [  # the towns named as Natural Earth's nearest place did
        "Oxfordshire holds 6 of 11 cards (55%) for 1% of the candidates' inhabitants (at most 16%)"
    ]


@pytest.mark.mirror
def test_a_deck_failing_the_gate_is_published_only_with_accept_which_the_changelog_records(
    geodeck, decks, tmp_path, mirror, monkeypatch
):
    config = region_build.settings()
    strict = {**config, "gate": {**config["gate"], "largest": 60}, "search": {"tries": [{"places": 40}]}}
    monkeypatch.setattr(region_build, "settings", lambda: strict)  # 60 largest wanted in a deck of 40
    env = {"GEODECK_BUILD": str(tmp_path), "GEODECK_MIRROR": str(mirror)}
    code, output = geodeck(["region", "build", "NLD", "--offline"], **env)
    assert code != 0 and "editorial gate" in output and "not a card:" in output, output
    assert not (decks / "region-nld").exists()
    code, output = geodeck(["region", "build", "NLD", "--offline", "--accept", "a test deck"], **env)
    assert code == 0 and "region-nld" in output, output
    changelog = next((decks / "region-nld").glob("*/CHANGELOG.md")).read_text()
    assert "Published over the editorial gate (`--accept`, Why: below): not a card:" in changelog
    assert "a test deck" in changelog


def test_a_population_a_reviewed_table_cites_is_the_editor_s_word_not_a_district_s_figure():
    """Natural Earth's 21,863 for Fort McMurray predates the oil-sands town's growth: the figure cited in
    region_places.csv (a `population` row) is neither refused as a district's nor flagged."""
    from pipeline.games.region import reviewed

    row = (1, "Fort McMurray", "01", 56.73, -111.38, 66573)
    table = pd.DataFrame([row], columns=["geonameid", "name", "division", "lat", "lon", "population"])
    fixed = reviewed.corrected(table, "CAN", pd.DataFrame(columns=["name", "population"]))
    assert fixed.loc[0, ["population", "reviewed"]].tolist() == [66573, "population;"]
    assert "Census of Population 2016" in reviewed.population_citation("CAN", "Fort McMurray")
    deck = places((1, "Fort McMurray", "01", "Alberta", "", 56.73, -111.38, 66573, 21863)).assign(second=21863)
    assert gate.deck_problems(deck, RULES) == [
        "Fort McMurray has 66,573 inhabitants, more than its whole agglomeration's 21,863 (Natural Earth): a "
        "district's figure"
    ]
    assert gate.flagged(deck, 0.2).tolist() == [True]
    deck = deck.assign(reviewed=fixed["reviewed"])
    assert gate.deck_problems(deck, RULES) == [] and gate.flagged(deck, 0.2).tolist() == [False]
