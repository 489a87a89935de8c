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

DAY = date(2026, 11, 29)


@pytest.fixture
def jumped(tmp_path, monkeypatch):
    """World-game 2026.11.0 published; build/ then holds Germany with 40 % more inhabitants."""
    return publish_then_refresh(tmp_path, monkeypatch, DAY, {("DEU", "population"): 1.4})


def deck(values: dict[str, dict], version="old"):
    return {
        "version": version,
        "cards": [{"id": i, "kind": "place", "fields": f, "provenance": {}} for i, f in values.items()],
    }


def test_thresholds_per_field():
    spec = load_spec("deutschland")
    old = deck({"a": {"population": 100_000, "ns": 50, "we": 10}})
    cases = [
        ({"population": 114_000, "ns": 51, "we": 9}, False),
        ({"population": 116_000, "ns": 50, "we": 10}, True),
        ({"population": 100_000, "ns": 52, "we": 10}, True),
        ({"population": 84_000, "ns": 50, "we": 10}, True),
    ]
    for fields, expected in cases:
        assert diffing.diff_decks(spec, old, deck({"a": fields}, "new"))["suspicious"] is expected, fields
    peak = load_spec("laender-toppen").fields["highest_peak_m"]
    assert not diffing.suspicious(peak, 2963, 3013) and diffing.suspicious(peak, 2963, 3014)


def test_ranks_and_head_to_head_flips():
    spec = load_spec("deutschland")
    old = deck({"a": {"population": 300}, "b": {"population": 200}, "c": {"population": 100}})
    new = deck({"a": {"population": 300}, "b": {"population": 90}, "c": {"population": 100}}, "new")
    result = diffing.diff_decks(spec, old, new)
    assert result["flips"]["population"] == [["b", "c"]]
    assert {r["card"]: (r["old"], r["new"]) for r in result["rank_changes"]["population"]} == {"b": (2, 3), "c": (3, 2)}
    [change] = result["changes"]
    assert (change["card"], change["abs"], change["rel"], change["flips"]) == ("b", -110, -0.55, 1)
    assert result["added"] == result["removed"] == []


def test_added_and_removed_cards():
    spec = load_spec("deutschland")
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
    markdown = CliRunner().invoke(cli, ["diff", "world-game", "--format", "markdown"])
    assert markdown.exit_code == 1 and "| wg-DEU | population |" in markdown.output
    assert CliRunner().invoke(cli, ["diff", "world-game"]).exit_code == 1


def test_build_refuses_suspicious_changes_without_accept(jumped):
    _, decks = jumped
    with pytest.raises(GeodeckError, match="suspicious.*--accept"):
        stage.build_deck("world-game", DAY)
    assert sorted(p.name for p in (decks / "world-game").iterdir()) == ["2026.11.0", "LATEST"]
    accepted = stage.build_deck("world-game", DAY, accept="census revision")
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
