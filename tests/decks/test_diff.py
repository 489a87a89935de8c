"""Deck diffs: thresholds, ranks, head-to-head flips, the `geodeck diff` exit code and publishing gates."""

import json
from datetime import date

import pytest
from click.testing import CliRunner
from fixtures.tiny.decks.synthetic import publish_then_refresh

from pipeline.cli import cli
from pipeline.decks import diff as diffing
from pipeline.decks import stage
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games

DAY = date(2026, 11, 29)


@pytest.fixture
def jumped(tmp_path, monkeypatch):
    """World-game 2026.11.0 published; build/ then holds Germany with 40 % more inhabitants."""
    return publish_then_refresh(tmp_path, monkeypatch, DAY, {("DEU", "population"): 1.4})


def deck(values: dict[str, dict], version="old", provenance: dict[str, dict] | None = None):
    return {
        "version": version,
        "cards": [
            {"id": i, "kind": "place", "fields": f, "provenance": (provenance or {}).get(i, {})}
            for i, f in values.items()
        ],
    }


def test_every_change_over_five_percent_names_its_reason():
    spec = load_spec(games.get("deutschland"))
    wb, fb = {"source": "worldbank", "vintage": "2024"}, {"source": "factbook", "vintage": "2025 est."}
    cited = {"source": "reviewed", "vintage": "2026-11", "citation": "Destatis 2023"}
    old_prov = {"s": {"population": wb}, "v": {"population": wb}, "c": {"population": cited}, "r": {"population": wb}}
    new_prov = {
        "s": {"population": fb},
        "v": {"population": wb | {"vintage": "2025"}},
        "c": {"population": cited | {"citation": "Destatis 2024"}},
        "r": {"population": wb},
        "q": {"population": wb},
    }
    old = deck({k: {"population": 100_000} for k in "svcrq"} | {"n": {"population": None}}, "old", old_prov)
    new_values = {"s": 120_000, "v": 94_000, "c": 106_000, "r": 110_000, "q": 105_000, "n": 5}
    new = deck({k: {"population": v} for k, v in new_values.items()}, "new", new_prov)
    result = diffing.diff_decks(spec, old, new)
    why = {c["card"]: c.get("why") for c in result["changes"]}
    assert why["q"] is None  # 5 % exactly: no reason needed
    assert why["s"] == {"kind": "source changed", "old": "worldbank (2024)", "new": "factbook (2025 est.)"}
    assert why["v"] == {"kind": "vintage changed", "old": "worldbank (2024)", "new": "worldbank (2025)"}
    assert why["c"] == {
        "kind": "citation changed",
        "old": "reviewed (2026-11) [Destatis 2023]",
        "new": "reviewed (2026-11) [Destatis 2024]",
    }
    assert why["r"]["kind"] == "series or rule changed" and why["r"]["old"] == why["r"]["new"] == "worldbank (2024)"
    assert why["n"] == {"kind": "series or rule changed", "old": "no provenance", "new": "no provenance"}
    override = {"source": "override", "vintage": "Census 2023", "citation": "Census 2023"}
    assert diffing.origin(override) == "override (Census 2023)"
    text = diffing.to_markdown(result)
    assert "Why each value changed by more than 5%:" in text
    assert "- s population 100,000 → 120,000 (+20.0%): source changed: worldbank (2024) → factbook (2025 est.)" in text
    assert sum(line.startswith("- ") and ": " in line and " → " in line for line in text.splitlines()) >= 5


def test_thresholds_per_field():
    spec = load_spec(games.get("deutschland"))
    old = deck({"a": {"population": 100_000, "ns": 50, "we": 10}})
    cases = [
        ({"population": 114_000, "ns": 51, "we": 9}, False),
        ({"population": 116_000, "ns": 50, "we": 10}, True),
        ({"population": 100_000, "ns": 52, "we": 10}, True),
        ({"population": 84_000, "ns": 50, "we": 10}, True),
    ]
    for fields, expected in cases:
        assert diffing.diff_decks(spec, old, deck({"a": fields}, "new"))["suspicious"] is expected, fields
    peak = load_spec(games.get("laender-toppen")).fields["highest_peak_m"]
    assert not diffing.suspicious(peak, 2963, 3013) and diffing.suspicious(peak, 2963, 3014)


def test_ranks_and_head_to_head_flips():
    spec = load_spec(games.get("deutschland"))
    old = deck({"a": {"population": 300}, "b": {"population": 200}, "c": {"population": 100}})
    new = deck({"a": {"population": 300}, "b": {"population": 90}, "c": {"population": 100}}, "new")
    result = diffing.diff_decks(spec, old, new)
    assert result["flips"]["population"] == [["b", "c"]]
    assert {r["card"]: (r["old"], r["new"]) for r in result["rank_changes"]["population"]} == {"b": (2, 3), "c": (3, 2)}
    [change] = result["changes"]
    assert (change["card"], change["abs"], change["rel"], change["flips"]) == ("b", -110, -0.55, 1)
    assert result["added"] == result["removed"] == []


def test_added_and_removed_cards():
    spec = load_spec(games.get("deutschland"))
    result = diffing.diff_decks(
        spec,
        deck({"a": {"population": 1}, "b": {"population": 2}}),
        deck({"b": {"population": 2}, "c": {"population": 3}}, "new"),
    )
    assert (result["added"], result["removed"], result["changes"]) == (["c"], ["a"], [])


def test_forty_percent_population_jump_is_flagged_and_exits_1(jumped):
    result = CliRunner().invoke(cli, ["diff", "world-game", "--format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    [change] = [c for c in report["changes"] if c["field"] == "population"]
    assert change["card"] == "wg-DEU" and change["suspicious"]
    assert change["rel"] == pytest.approx(0.4, abs=1e-6)
    assert report["old"] == "2026.11.0" and report["new"] == "fresh build"
    assert change["why"] == {
        "kind": "series or rule changed",  # the synthetic refresh kept source and vintage
        "old": "worldbank-population (2024)",
        "new": "worldbank-population (2024)",
    }
    markdown = CliRunner().invoke(cli, ["diff", "world-game", "--format", "markdown"])
    assert markdown.exit_code == 1 and "| wg-DEU | population |" in markdown.output
    assert "wg-DEU population" in markdown.output and "(+40.0%): series or rule changed" in markdown.output
    table = CliRunner().invoke(cli, ["diff", "world-game"])
    assert table.exit_code == 1 and "Why each value changed by more than 5%:" in table.output
    assert "wg-DEU population" in table.output and "series or rule changed" in table.output


def test_build_refuses_suspicious_changes_without_accept(jumped):
    _, decks = jumped
    with pytest.raises(GeodeckError, match="suspicious.*--accept"):
        stage.build_deck(games.get("world-game"), DAY)
    assert sorted(p.name for p in (decks / "world-game").iterdir()) == ["2026.11.0", "LATEST"]
    accepted = stage.build_deck(games.get("world-game"), DAY, accept="census revision")
    assert accepted.version == "2026.11.1"
    changelog = (decks / "world-game" / "2026.11.1" / "CHANGELOG.md").read_text()
    assert "Suspicious changes accepted: census revision" in changelog and "wg-DEU" in changelog
    assert "Why:" not in changelog
    assert CliRunner().invoke(cli, ["diff", "world-game", "2026.11.0", "2026.11.1"]).exit_code == 1
    clean = CliRunner().invoke(cli, ["diff", "world-game", "--format", "json"])
    assert clean.exit_code == 0 and json.loads(clean.output)["changes"] == []


def test_a_reason_without_suspicious_changes_is_the_changelog_s_why():
    diff = {"game": "region-fra", "old": "2026.12.0", "new": "2026.12.1", "suspicious": False, "flips": {}}
    diff |= {"changes": [], "added": ["rg-1"], "removed": ["rg-2"]}
    text = stage.changelog("Frankreich", "2026.12.1", [{"kind": "place"}], diff, "a fairer selection")
    assert text.rstrip().endswith("Why: a fairer selection") and "Suspicious" not in text


def test_a_diff_row_names_the_card_by_its_name_not_its_id():
    spec = load_spec(games.get("deutschland"))
    old = deck({"de-1": {"name": "Kiel", "population": 100}, "de-2": {"name": "Jena", "population": 50}})
    new = deck({"de-1": {"name": "Kiel", "population": 200}, "de-3": {"name": "Ulm", "population": 60}}, "new")
    result = diffing.diff_decks(spec, old, new)
    assert diffing.change_row(result["changes"][0], result)[0] == "Kiel"
    assert "- added: Ulm" in diffing.to_markdown(result) and "- removed: Jena" in diffing.to_markdown(result)
    assert result["added"] == ["de-3"]  # the JSON keeps the ids, with the names beside them
