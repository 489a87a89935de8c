"""The counting rules declared in the deck specs (`counting`, pipeline/decks/counting.py): the decks follow
them and the kits state them in every language, filled from the deck (issue 36, item 3), their lists as CLDR
writes them (issue 43)."""

import re

import pytest

from pipeline.decks import counting, published, translated
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.i18n.catalogue import labelled
from pipeline.render import layouts
from pipeline.transform.reference import read_continents


def stated(game: str, lang: str) -> tuple[dict, str]:
    """The deck as the kit prints it in `lang` (its names taken from its cards where it predates the language,
    a new catalogue) and the counting rules the kit states."""
    definition = games.get(game)
    deck, _ = translated.completed(
        published.deck(definition, None)[1], load_spec(definition), registry.language(lang), definition.made_by
    )
    words = layouts.common_in(registry.language(lang))["kit"]["words"]["counting"]
    rows = layouts.load(games.get(game)).localised(registry.language(lang)).data.get("categories", [])
    labels = {row["field"]: row["words"]["label"] for row in rows}  # the categories' labels, as the kit passes them
    return deck, "\n".join(
        counting.statements(deck, load_spec(games.get(game)), words, registry.language(lang), labels)
    )


def two_continent_cards(deck: dict) -> set[str]:
    countries = [c["fields"] for c in deck["cards"] if c["kind"] != "joker"]
    return {f["iso3"] for f in countries if len(f.get("continents") or []) > 1}


def test_each_deck_shows_two_continents_as_its_spec_declares():
    """One declared rule per game: Länder toppen shows two continents for its listed countries only (the
    rulebook's Russia and Turkey), the World Game for every country on two continents."""
    listed = set(counting.declared(load_spec(games.get("laender-toppen")))["two_continents"])
    assert listed == {"RUS", "TUR"} and counting.declared(load_spec(games.get("world-game")))["two_continents"] == "all"
    lt, wg = (published.deck(games.get(game), None)[1] for game in ("laender-toppen", "world-game"))
    assert two_continent_cards(lt) == listed
    assert two_continent_cards(wg) == set(read_continents())


@pytest.mark.parametrize("lang", registry.codes())
def test_the_kits_state_every_counting_rule_filled_from_the_deck(lang):
    lt_deck, lt = stated("laender-toppen", lang)
    wg_deck, wg = stated("world-game", lang)
    words = layouts.common_in(registry.language(lang))["kit"]["words"]["counting"]
    for text in (lt, wg):
        assert words["heading"] in text and words["territory"] in text and words["disputed"] in text
        assert words["names"] in text and "Denali" in text
    assert words["neighbours"].split("{")[0] in wg and words["neighbours"].split("{")[0] not in lt
    brazil = next(c["fields"] for c in wg_deck["cards"] if c["fields"]["iso3"] == "BRA")
    assert (
        f"{brazil[f'name_{lang}']} {brazil['land_neighbours']} ({words['without']} {words['dependent']['BRA']})" in wg
    )
    assert all(words["countries"][c] in wg for c in ("XKX", "PSE"))
    # the difference between the games' continent rules, stated on the Länder toppen kit
    egypt = next(c["fields"] for c in lt_deck["cards"] if c["fields"]["iso3"] == "EGY")
    assert labelled(lang, egypt[f"name_{lang}"], words["continent"]["Africa"]) in lt and "World Game" in lt
    assert egypt["continents"] == ["Africa"]
    for label in ("inhabitants_m", "life_expectancy", "gdp_pcap_usd", "temperature_c"):
        assert words["fields"][label] in lt
    assert "2024" in lt and "2023" in lt and "1981-2010" in lt


def test_the_data_years_count_every_printed_value_by_period_and_source():
    """Issue 43: the line is true for every card, not for most: each field's values counted per year or period
    and source (most temperatures from CHELSA's 1981-2010 grid, said to be a grid cell, others from the Wikipedia
    list without a period, …)."""
    deck, lt = stated("laender-toppen", "en")
    words = layouts.common_in(registry.language("en"))["kit"]["words"]["counting"]
    line = next(line for line in lt.split("<br/>") if line.startswith(words["fields"]["temperature_c"] + ":"))
    printed = [card for card in deck["cards"] if card["fields"].get("temperature_c") is not None]
    counts = [int(n) for n in re.findall(r" on (\d+) cards?", line)]
    assert sum(counts) == len(printed) and len(counts) >= 3, line
    assert "1981-2010 (CHELSA" in line and words["no_period"] in line and words["reviewed"] in line
    chelsa = sum(1 for c in printed if c["provenance"]["temperature_c"]["source"] == "world-temperature-data")
    gridded = words["gridded"].format(source="CHELSA climatologies 1981-2010")
    assert f"1981-2010 ({gridded}) on {chelsa} cards" in line  # a grid cell, said where it stands for a station
    inhabitants = next(line for line in lt.split("<br/>") if line.startswith(words["fields"]["inhabitants_m"] + ":"))
    assert " on " not in inhabitants  # one origin: no count


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_data_years_say_in_every_language_that_chelsa_is_a_grid_cell(lang):
    """Issue 43: where CHELSA's grid stands in for a station normal, the kit's data line says so."""
    _, lt = stated("laender-toppen", lang)
    gridded = layouts.common_in(registry.language(lang))["kit"]["words"]["counting"]["gridded"]
    assert gridded != layouts.common_in(registry.language("en"))["kit"]["words"]["counting"]["gridded"]  # translated
    assert gridded.format(source="CHELSA climatologies 1981-2010") in lt


def test_a_neighbour_outside_the_deck_must_be_declared():
    spec = load_spec(games.get("world-game"))
    counting.check_neighbours("SRB", "XKX;HUN", {"SRB", "HUN"}, spec)  # Kosovo: declared
    with pytest.raises(GeodeckError, match="GIB.*neighbours_also"):
        counting.check_neighbours("ESP", "AND;FRA;GIB;PRT", {"ESP", "AND", "FRA", "PRT"}, spec)


def test_a_deck_without_a_declaration_states_nothing():
    _, deck = published.deck(games.get("deutschland"), None)
    assert counting.statements(deck, load_spec(games.get("deutschland")), {}, registry.language("de"), {}) == []
