"""play-check: deterministic reports, verdicts against the named thresholds, the CLI's formats and exit code."""

import json

import pytest
from click.testing import CliRunner
from fixtures.tiny.games.decks import deutschland, laender_toppen, world_game

from pipeline import games
from pipeline.cli import cli
from pipeline.errors import GeodeckError
from pipeline.playcheck import runner as playcheck


@pytest.mark.parametrize("deck", [laender_toppen(), deutschland(), world_game()], ids=lambda d: d["game"])
def test_report_is_deterministic_and_complete(deck):
    first = playcheck.check(deck, games=40, seed=3)
    assert playcheck.to_json(first) == playcheck.to_json(playcheck.check(deck, games=40, seed=3))
    assert playcheck.to_json(first) != playcheck.to_json(playcheck.check(deck, games=40, seed=4))
    assert set(first["playouts"]) == {"random", "one-greedy", "greedy"}
    assert first["playouts"]["random"]["games"] == 40 and first["playouts"]["greedy"]["games"] == 10
    assert sum(first["playouts"]["random"]["seat_win_share"]) == pytest.approx(1, abs=1e-3)
    assert first["passed"] == all(v["passed"] for v in first["verdicts"])
    assert "| verdict |" in playcheck.to_markdown(first)


def test_ties_beyond_the_threshold_fail():
    deck = laender_toppen()
    for card in deck["cards"]:
        if card["kind"] == "country":
            card["fields"]["temperature_c"] = round(card["fields"]["temperature_c"] / 10) * 10  # few values
    report = playcheck.check(deck, games=60, seed=0)
    ties = {v["name"]: v for v in report["verdicts"]}
    assert not ties["ties: temperature_c above"]["passed"] and not report["passed"]
    assert ties["ties: temperature_c above"]["value"] > playcheck.MAX_TIE_SHARE
    assert ties["ties: area_km2 above"]["passed"]


def test_win_index_flags_dominant_useless_and_always_winning_cards():
    tally = playcheck.Tally(2)
    for _ in range(playcheck.MIN_CONTESTS):
        tally.comparison("area_km2 above", ["strong", "weak"], [1.0, 0.0], False)
        tally.comparison("area_km2 below", ["even", "weak"], [1.0, 0.0], False)
        tally.comparison("area_km2 below", ["even", "strong"], [0.0, 1.0], False)
    tally.comparison("area_km2 above", ["rare", "strong"], [0.5, 0.5], True)
    cards = playcheck._cards(tally, {"Europe": ["strong", "weak", "even"]})
    assert cards["dominant"] == {"strong": pytest.approx(1.975, abs=1e-3)} and cards["useless"] == {"weak": 0.0}
    assert cards["always_wins"] == {"area_km2 below": ["strong"]}  # above, it shared one tie
    assert "rare" not in cards["dominant"] and cards["judged"] == 3  # too few comparisons to judge
    assert tally.ties["area_km2 above"] == [playcheck.MIN_CONTESTS + 1, 1]
    report = {
        "players": 2,
        "cards": cards,
        "playouts": {k: {"seat_win_share": [0.5, 0.5], "games": 100, "ties": {}} for k in ("random", "greedy")},
    }
    verdicts = {v["name"].split(" (")[0]: v["passed"] for v in playcheck._verdicts(games.get("laender-toppen"), report)}
    assert verdicts == {"seat fairness": True, "dominant cards": False, "useless cards": False}


def test_cli_formats_and_exit_code(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(world_game()), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["play-check", "world-game", "--deck", str(path), "--games", "30", "--format", "json"])
    report = json.loads(result.output)
    assert report["players"] == 2 and result.exit_code == (0 if report["passed"] else 1)
    result = runner.invoke(
        cli,
        ["play-check", "world-game", "--deck", str(path), "--games", "30", "--players", "3", "--format", "markdown"],
    )
    assert "# play-check: world-game" in result.output and "3 players" in result.output
    with pytest.raises(GeodeckError, match="not laender-toppen"):
        playcheck.load("laender-toppen", deck=path)
