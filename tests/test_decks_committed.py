"""The committed decks under output/decks/: counts, card rules, CSV round trip and a valid datapackage."""

import json
from collections import Counter

import pytest

from pipeline.decks import files, versions
from pipeline.decks.spec import load_spec
from pipeline.paths import DECKS_DIR
from pipeline.transform.observations import CONTINENTS

COUNTS = {"laender-toppen": {"country": 119, "antarctica": 1, "joker": 8},
          "deutschland": {"place": 96, "guess": 24}, "world-game": {"country": 194}}


def latest(game):
    version = versions.latest(DECKS_DIR / game)
    if version is None:
        pytest.skip(f"no committed {game} deck")
    return DECKS_DIR / game / version


@pytest.mark.parametrize("game", sorted(COUNTS))
def test_committed_deck_counts_round_trip_and_package(game):
    folder = latest(game)
    deck = files.read_deck(folder / "deck.json")
    assert dict(Counter(c["kind"] for c in deck["cards"])) == COUNTS[game]
    assert deck["version"] == folder.name and deck["game"] == game
    spec = load_spec(game)
    assert files.cards_from_csv(spec, (folder / "deck.csv").read_text()) == deck["cards"]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["content_hash"] == files.content_hash(spec, deck["cards"])
    frictionless = pytest.importorskip("frictionless")
    assert frictionless.validate(str(folder / "datapackage.json")).valid


def test_committed_laender_toppen_rules():
    cards = files.read_deck(latest("laender-toppen") / "deck.json")["cards"]
    [antarctica] = [c["fields"] for c in cards if c["kind"] == "antarctica"]
    assert [antarctica[k] for k in ("inhabitants_m", "life_expectancy", "gdp_pcap_usd")] == [None] * 3
    assert all(antarctica[k] is not None for k in ("area_km2", "highest_peak_m", "temperature_c"))
    jokers = [c["fields"]["continents"] for c in cards if c["kind"] == "joker"]
    assert all(len(set(j)) == 2 for j in jokers) and {c for j in jokers for c in j} == set(CONTINENTS)
    by_iso = {c["fields"].get("iso3"): c["fields"] for c in cards}
    assert by_iso["RUS"]["continents"] == by_iso["TUR"]["continents"] == ["Europe", "Asia"]
    countries = [c["fields"] for c in cards if c["kind"] == "country"]
    assert all(v is not None for f in countries for v in f.values())


def test_committed_world_game_members_and_numbers():
    cards = [c["fields"] for c in files.read_deck(latest("world-game") / "deck.json")["cards"]]
    codes = {f["iso3"] for f in cards}
    assert "VAT" in codes and not codes & {"PSE", "XKX", "TWN", "ATA"}
    assert sorted(f["map_number"] for f in cards) == list(range(1, 195))
