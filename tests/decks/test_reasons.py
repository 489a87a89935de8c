"""The changelog of a new deck version gives each card added or removed its reason: the horizontal writer
(pipeline.decks.reasons) and each game's `reasons`, on the synthetic tables."""

import dataclasses
import re
import types
from datetime import date

import numpy as np
import pandas as pd
import pytest
from fixtures.tiny.decks.synthetic import countries_table, places_table, write_inputs

from pipeline.decks import reasons, stage
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.games.laender_toppen import deck as laender_toppen
from pipeline.games.region import build
from pipeline.games.region import deck as region_deck
from pipeline.geo.world_numbers import numbered

DAY = date(2026, 11, 29)


def republished(tmp_path, game: str, countries=None, places=None) -> str:
    """GAME published from the synthetic tables, then again from these; the second version's CHANGELOG.md."""
    root, decks = write_inputs(tmp_path / "build"), tmp_path / "decks"
    first = stage.build_deck(games.get(game), DAY, decks_dir=decks, build_root=root)
    assert "## Cards in and out" not in (decks / game / first.version / "CHANGELOG.md").read_text()
    write_inputs(root, countries, places)
    second = stage.build_deck(games.get(game), DAY, decks_dir=decks, build_root=root)
    assert second.published
    return (decks / game / second.version / "CHANGELOG.md").read_text()


def test_world_game_changelog_says_why_a_country_came_in_and_went_out(tmp_path):
    countries = countries_table()
    countries.loc[countries["iso3"] == "XKX", "un_member"] = True
    countries.loc[countries["iso3"] == "KEN", "un_member"] = False
    log = republished(tmp_path, "world-game", countries)
    assert "## Cards in and out\n\n- in: Country XKX (wg-XKX): UN member state\n" in log
    assert "- out: Country KEN (wg-KEN): not a UN member\n" in log


def test_laender_toppen_changelog_names_the_missing_value_and_the_newcomer_s_economy_rank(tmp_path):
    countries, spec = countries_table(), load_spec(games.get("laender-toppen"))
    _, why = laender_toppen.choose(numbered(countries), spec)
    gone = next(code for code, reason in sorted(why.items()) if reason.startswith("best known of Africa"))
    countries.loc[countries["iso3"] == gone, "gdp_pcap_ppp"] = np.nan
    log = republished(tmp_path, "laender-toppen", countries)
    assert f"- out: Country {gone} (lt-{gone}): no card value for gdp_pcap_ppp\n" in log
    [added] = [line for line in log.splitlines() if line.startswith("- in: ")]
    assert re.fullmatch(r"- in: Country \w+ \(lt-\w+\): best known of [\w ]+: economy rank \d+ of its \d+ .+", added)


def test_laender_toppen_gives_every_country_a_reason(tmp_path):
    countries = numbered(countries_table())
    spec = load_spec(games.get("laender-toppen"))
    small = dataclasses.replace(spec, options={**spec.options, "country_cards": 60})  # the 500,000 floor applies
    table = laender_toppen.reasons(countries, small).set_index("card")
    assert len(table) == len(countries) and table.index.is_unique
    chosen = table.loc[[f"lt-{code}" for code in laender_toppen.select(countries, small)], "reason"]
    assert chosen.str.match(r"(familiar: |best known of )").all() and len(chosen) == 60
    assert table.at["lt-DEU", "reason"] == "familiar: named in the rulebook, EU member, G20 member"
    assert (
        table.at["lt-ATA", "reason"] == "the Antarctica card"
        and table.at["lt-PSE", "reason"] == "not a UN member state"
    )
    people = countries.set_index("iso3")["population"]
    members = countries.loc[countries["un_member"], "iso3"]
    tiny = people[(people < 500_000) & people.index.isin(members) & ~("lt-" + people.index).isin(chosen.index)].index[0]
    assert table.at[f"lt-{tiny}", "reason"] == f"population under 500,000 ({people[tiny] / 1e6:.2f} M)"
    assert table["reason"].str.contains("share taken by the").any()


def test_deutschland_changelog_gives_the_geo_step_s_reason(tmp_path):
    places = places_table()
    places.loc[0, ["in_deck", "reason"]] = [False, "replaced for the spread: card Ort 1, 3 km away"]
    places.loc[97, ["in_deck", "reason"]] = [True, "state capital of Hessen"]
    log = republished(tmp_path, "deutschland", places=places)
    assert (
        "## Cards in and out\n\n- in: Ort 97 (de-00000097): state capital of Hessen\n"
        "- out: Ort 0 (de-00000000): replaced for the spread: card Ort 1, 3 km away\n\n## Names in every language"
    ) in log
    with pytest.raises(GeodeckError, match="no `reason` column; rebuild it"):
        stage.card_reasons(
            games.get("deutschland"),
            {"added": ["de-00000097"], "removed": []},
            write_inputs(tmp_path / "old", places=places.drop(columns="reason")),
        )


def test_a_card_the_game_no_longer_considers_and_a_malformed_table():
    table = pd.DataFrame({"card": ["x-1"], "label": ["One"], "reason": ["in: test"]}).set_index("card")
    diff = {"added": ["x-1"], "removed": ["x-2"]}
    assert reasons.lines(diff, table) == ["- in: One (x-1): in: test", "- out: x-2 (x-2): no longer a candidate"]
    named = {**diff, "names": {"x-2": "Walbersdorf"}}  # the removed card's name in the last version
    assert reasons.lines(named, table)[1] == "- out: Walbersdorf (x-2): no longer a candidate"
    assert reasons.lines({"added": [], "removed": []}, table) == []
    builder = types.SimpleNamespace(cards=lambda table, spec: [], reasons=lambda frame, spec: frame)
    with pytest.raises(GeodeckError, match="one row per card"):
        reasons.table(
            builder,
            pd.DataFrame({"card": ["a", "a"], "label": [1, 2], "reason": [3, 4]}),
            load_spec(games.get("deutschland")),
        )


def test_region_reasons_name_the_pins_and_the_spread():
    rng = np.random.default_rng(3)
    n = 60
    places = pd.DataFrame(
        {
            "geonameid": np.arange(1000, 1000 + n),
            "name": [f"Place {i}" for i in range(n)],
            "state": [f"Division {i % 5}" for i in range(n)],
            "capital": ["country"] + ["division"] * 4 + [""] * (n - 5),
            "population": rng.integers(15_000, 2_000_000, n),
            "lat": rng.uniform(43, 50, n),
            "lon": rng.uniform(-1, 7, n),
            "country": "FRA",
            "suburb": "",
        }
    )
    largest = build.settings()["places"]["largest"]
    pinned = build.pins(places, 45, largest, [])
    free = [i for i in range(n) if i not in pinned][: 45 - len(pinned)]
    places["in_deck"] = places.index.isin(pinned + free)
    left = max(set(range(n)) - set(pinned + free))
    places.loc[left, "suburb"] = "a suburb of Place 0 (3 km away, 9.0 times its inhabitants)"
    table = region_deck.reasons(places, load_spec(games.get("region-fra")))["reason"]
    assert table[0].startswith("the capital") and table[2].endswith("capital of Division 2")
    assert table.str.contains(f"one of the {largest} largest places").sum() == largest
    known = r"well known: no\. \d+ of the 30 most populous places standing on their own"  # 2/3 of 45 cards
    assert table[free].str.fullmatch(rf"spread: nearest card Place \d+, \d+ km away|{known}").all()
    assert table[free].str.fullmatch(known).any()
    assert table[left] == "a suburb of Place 0 (3 km away, 9.0 times its inhabitants)"
    spread = r"(replaced for the spread: card|familiarity: the larger) Place \d+(, | is a card, )\d+ km away"
    assert table[~places["in_deck"]].drop(left).str.fullmatch(spread).all()
