"""No traceback reaches a user: every command, fed bad values, exits non-zero with a message naming the
bad input (the walk below), and numeric options are finite and bounded."""

import pytest

BAD = [
    (["fetch", "nope"], "unknown source nope"),
    (["fetch", "highest-points-7summits", "--mirror", "/nonexistent/mirror", "--offline"], "does not exist"),
    (["build", "--stage", "everything"], "'--stage'"),
    (["diff", "monopoly"], "'GAME'"),
    (["diff", "world-game", "../../../tmp"], "not a deck version"),
    (["diff", "world-game", "2031.01.0", "2026.11.0"], "does not exist"),
    (
        ["diff", "deutschland", "2020.1.0"],
        "'2020.1.0' is not a deck version (versions look like 2026.11.0); known versions of deutschland: 2026.11.0",
    ),
    (
        ["review", "laender-toppen", "2031.01.0", "2026.11.1"],
        "does not exist; known versions of laender-toppen: 2026.11.0",
    ),
    (["review", "world-game", "--lang", "xx"], "no language 'xx'"),
    (["grid", "nan", "nan"], "'nan' is not a number from -90 to 90°"),
    (["grid", "inf", "10"], "'inf' is not a number from -90 to 90°"),
    (["grid", "1e300", "10"], "'1e300' is not a number from -90 to 90°"),
    (["grid", "abc", "10"], "'[LAT]': 'abc' is not a number from -90 to 90°"),
    (["grid"], "give LAT and LON"),
    (["print", "world-game", "--bleed", "nan"], "'--bleed': 'nan' is not a number from 0 to 10 mm"),
    (["print", "world-game", "--bleed", "inf"], "'--bleed': 'inf' is not a number from 0 to 10 mm"),
    (["print", "world-game", "--bleed", "1e300", "--layout", "one-up"], "from 0 to 10 mm"),
    (["print", "world-game", "--bleed", "-1"], "from 0 to 10 mm"),
    (["print", "world-game", "--back-offset", "nan,0"], "--back-offset 'nan,0' is not X,Y in millimetres"),
    (["print", "world-game", "--back-offset", "５,0"], "--back-offset '５,0' is not X,Y in millimetres"),
    (["print", "world-game", "--back-offset", "1e9,0"], "from -10 to 10 mm"),
    (["print", "world-game", "--back-offset", "0,-inf"], "is not X,Y in millimetres"),
    (["print", "world-game", "--back-offset", "1;2"], "is not X,Y in millimetres"),
    (["print", "world-game", "--paper", "a0"], "'--paper'"),
    (["print", "world-game", "--version", "../../x"], "not a deck version"),
    (["print", "deutschland", "--version", "9999.1.0"], "known versions of deutschland: 2026.11.0"),
    (["print", "world-game", "--what", "all", "--out", "x.pdf"], "names their folder"),
    (["play-check", "world-game", "--games", "0"], "'--games': '0' is not a whole number from 1 to 1,000,000"),
    (["play-check", "world-game", "--games", "nan"], "from 1 to 1,000,000"),
    (["play-check", "world-game", "--games", "1e9"], "from 1 to 1,000,000"),
    (
        ["play-check", "laender-toppen", "--players", "0", "--games", "5"],
        "'--players': '0' is not a whole number from 1 to 99",
    ),
    (["play-check", "deutschland", "--players", "5", "--games", "5"], "played by 2-4 players, not 5"),
    (["play-check", "world-game", "--players", "-1"], "from 1 to 99"),
    (["play-check", "world-game", "--players", "1000"], "from 1 to 99"),
    (["play-check", "world-game", "--seed", "-1"], "'--seed'"),
    (["play-check", "world-game", "--seed", "nan"], "'--seed'"),
    (["play-check", "world-game", "--deck", "/nonexistent/deck.json"], "does not exist"),
    (["play", "deutschland", "--seats", "human,bot:genius"], "'bot:genius' is neither 'human' nor a bot"),
    (["play", "deutschland", "--players", "3", "--seats", "human,bot:random"], "--players 3 but --seats names 2"),
    (["play", "deutschland", "--players", "5"], "played by 2-4 players, not 5"),
    (["play", "deutschland", "--players", "0"], "'--players': '0' is not a whole number from 1 to 99"),
    (["play", "deutschland", "--seed", "nan"], "'--seed'"),
    (["replay", "/nonexistent/record.json"], "does not exist"),
    (["verify", "monopoly"], "'[GAME]'"),
    (["nope"], "No such command"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_values_give_one_line_and_no_traceback(args, message, geodeck, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output = geodeck(args, GEODECK_STORE=str(tmp_path / "store"), GEODECK_BUILD=str(tmp_path / "build"))
    assert code != 0, output
    assert "Traceback" not in output
    if message:
        assert message in output.replace("\n", " "), output
    assert not list(tmp_path.glob("*.pdf"))


def test_players_zero_is_not_silently_four(geodeck):
    """`--players 0` used to play the default 4 players and pass."""
    code, output = geodeck(["play-check", "laender-toppen", "--players", "0", "--games", "5"])
    assert code == 2 and "'--players': '0' is not a whole number from 1 to 99" in output
