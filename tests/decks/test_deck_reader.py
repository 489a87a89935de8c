"""One deck reader for drafts and published decks (pipeline.decks.published.read + pipeline.decks.schema):
a draft given with --deck to play-check, play or replay passes the build's checks, so an engine never sees
a value a build would refuse; each refusal is one line naming the card and field, exit code 2."""

import copy
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixtures.tiny.games.decks import world_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.cli import cli
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.games import registry as games
from pipeline.paths import DECKS_DIR

GAME = "laender-toppen"
VERSION = (DECKS_DIR / GAME / "LATEST").read_text().strip()
DECK = json.loads((DECKS_DIR / GAME / VERSION / "deck.json").read_text(encoding="utf-8"))


def card(deck: dict, ident: str) -> dict:
    return next(c for c in deck["cards"] if c["id"] == ident)


def setting(ident: str, name: str, value):
    def edit(deck):
        card(deck, ident)["fields"][name] = value

    return edit


def removing(ident: str, key: str, inside: str | None = None):
    def edit(deck):
        del (card(deck, ident)[inside] if inside else card(deck, ident))[key]

    return edit


def cards(count: int):
    def edit(deck):
        base = deck["cards"]
        deck["cards"] = [{**base[i % len(base)], "id": f"lt-X{i}"} for i in range(count)]

    return edit


def duplicate(deck):
    deck["cards"][1]["id"] = deck["cards"][0]["id"]


HOSTILE = {  # the drafts: each was a traceback or a silent accept
    "NaN": (setting("lt-DEU", "area_km2", float("nan")), "card lt-DEU: field area_km2: nan is not a finite number"),
    "inf": (setting("lt-DEU", "gdp_pcap_usd", float("inf")), "card lt-DEU: field gdp_pcap_usd: inf is not an int"),
    "negative": (setting("lt-DEU", "area_km2", -357), "card lt-DEU: field area_km2: -357 is outside its range"),
    "string": (setting("lt-DEU", "inhabitants_m", "83"), "card lt-DEU: field inhabitants_m: '83' is not a number"),
    "null": (setting("lt-DEU", "temperature_c", None), "card lt-DEU: field temperature_c: null, but"),
    "bool": (setting("lt-DEU", "highest_peak_m", True), "field highest_peak_m: True is not an integer"),
    "10^300": (setting("lt-DEU", "highest_peak_m", 10**300), "card lt-DEU: field highest_peak_m: 1000000000000"),
    "beyond range": (setting("lt-DEU", "life_expectancy", 140), "field life_expectancy: 140 is outside its range 40"),
    "empty continents": (setting("lt-DEU", "continents", []), "field continents: [] is not a non-empty list"),
    "unknown continent": (setting("lt-DEU", "continents", ["Atlantis"]), "'Atlantis' is not one of North America"),
    "missing field": (removing("lt-DEU", "area_km2", "fields"), "card lt-DEU: fields must be those of a country"),
    "missing kind": (removing("lt-DEU", "kind"), "card lt-DEU: kind None is not one of country, antarctica, joker"),
    "no cards": (cards(0), "has 0 cards; a laender-toppen deck has 120-128"),
    "3 cards": (cards(3), "has 3 cards; a laender-toppen deck has 120-128"),
    "1,280 cards": (cards(1280), "has 1,280 cards; a laender-toppen deck has 120-128"),
    "duplicate ids": (duplicate, "is on two cards; ids are unique"),
}


def draft(tmp_path, edit=None, name="draft.json") -> str:
    deck = copy.deepcopy(DECK)
    if edit:
        edit(deck)
    path = tmp_path / name
    path.write_text(json.dumps(deck), encoding="utf-8")  # NaN and Infinity as Python writes them
    return str(path)


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_play_check_refuses_each_hostile_draft_in_one_line(tmp_path, geodeck, hostile):
    edit, phrase = HOSTILE[hostile]
    code, output = geodeck(["play-check", GAME, "--deck", draft(tmp_path, edit), "--games", "5", "--jobs", "1"])
    assert code == 2 and phrase in output and "Traceback" not in output, output
    assert len(output.strip().splitlines()) == 1


def test_play_and_replay_read_drafts_through_the_same_reader(tmp_path, geodeck):
    path = draft(tmp_path, HOSTILE["NaN"][0])
    record = DECKS_DIR.parent.parent / "docs" / "records" / "laender-toppen-tricks.json"
    for args in (
        ["play", GAME, "--deck", path, "--seats", "bot:random,bot:random"],
        ["replay", record, "--deck", path],
    ):
        code, output = geodeck(args)
        assert code == 2 and HOSTILE["NaN"][1] in output and "Traceback" not in output, (args, output)


def test_a_valid_draft_is_read_and_published_decks_still_pass(tmp_path):
    assert published.read(Path(draft(tmp_path)), games.get(GAME)) == DECK
    for game in games.names():
        for folder in sorted((DECKS_DIR / game).glob("*.*.*")):
            published.deck(games.get(game), folder.name)  # every committed version passes the reader's checks


def test_a_draft_with_a_published_label_reports_under_a_draft_name(tmp_path):
    deck = {**world_game(), "version": "2026.11.1"}  # a published version's label
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck), encoding="utf-8")
    reports = tmp_path / "reports"
    args = ["play-check", "world-game", "--deck", str(path), "--games", "20", "--max-games", "20"]
    args += ["--jobs", "1", "--report-dir", reports]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code in (0, 1, 3), result.output
    assert [p.name for p in (reports / "world-game").iterdir()] == ["draft-2026.11.1"]


VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
HOSTILE_JSON = st.recursive(
    VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    where=st.sampled_from(["field", "card", "top", "cards"]),
    index=st.integers(0, 127),
    key=st.sampled_from(["area_km2", "continents", "name_de", "highest_peak_m", "id", "kind", "fields", "x"]),
    value=HOSTILE_JSON,
)
def test_hostile_drafts_are_refused_or_play_never_another_error(tmp_path, where, index, key, value):
    deck = copy.deepcopy(DECK)
    target = deck["cards"][index]
    if where == "field":
        target["fields"][key] = value
    elif where == "card":
        target[key] = value
    elif where == "top":
        deck[key] = value
    else:
        deck["cards"] = value
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(deck), encoding="utf-8")
    try:
        read = published.read(path, games.get(GAME))
    except GeodeckError as exc:
        assert "\n" not in str(exc)
        return
    for players in range(1, 10):  # what the reader lets through plays, at every count the rules allow
        try:
            game = games.get(GAME).engine.Game.from_deck(read, players=players)
        except GeodeckError:
            continue
        rng = random.Random(index)
        core.playout(game.new_initial_state(rng), [core.random_policy] * players, rng)
