"""`geodeck play`: scripted input drives whole games at the terminal; every game is saved as a record that
`geodeck replay` accepts, also when the player leaves early."""

import json

import pytest
from click.testing import CliRunner
from fixtures import toygame

from pipeline import games
from pipeline.cli import cli
from pipeline.errors import GeodeckError
from pipeline.play import loop
from pipeline.play import seats as seating
from pipeline.records import record as records


def play(tmp_path, game: str, seats: str, lang: str, lines: list[str], seed: int = 5):
    path = tmp_path / f"{game}.json"
    args = ["play", game, "--seats", seats, "--lang", lang, "--seed", str(seed), "--record", str(path)]
    return CliRunner().invoke(cli, args, input="".join(f"{line}\n" for line in lines)), path


def replayed(path) -> dict:
    result = CliRunner().invoke(cli, ["replay", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_play_deutschland_through_a_whole_game_and_replay_its_record(tmp_path):
    lines = ["zz", "[/x]", "0", "?", "under", *["1"] * 24]  # 8 rounds, 3 guesses a round
    result, path = play(tmp_path, "deutschland", "human,bot:random,bot:expert,bot:random", "en", lines)
    assert result.exit_code == 0, result.output
    assert "'zz' is not a move: enter a number from 1 to 35 or the move itself" in result.output
    assert "'0' is not a move" in result.output and "'[/x]' is not a move" in result.output
    assert "'under' fits 35 moves (N under" in result.output
    assert "Input: the number of a move" in result.output and "furthest north" in result.output  # the help
    assert "Round 8 revealed" in result.output and "Result" in result.output
    record = records.load(path)
    assert record.finished and len(record.moves) == 8 * 4 * 3
    assert [s.plays for s in record.seats] == ["human", "bot:random", "bot:expert", "bot:random"]
    assert [s.name for s in record.seats] == ["Red", "Blue", "Green", "Yellow"]
    summary = replayed(path)
    assert summary["finished"] and [s["score"] for s in summary["seats"]] == record.scores


def test_the_same_seed_and_input_play_the_same_game(tmp_path):
    first = play(tmp_path / "a", "deutschland", "human,bot:random", "de", ["2"] * 18, seed=9)[1]
    second = play(tmp_path / "b", "deutschland", "human,bot:random", "de", ["2"] * 18, seed=9)[1]
    assert first.read_bytes() == second.read_bytes()


def test_end_of_input_leaves_cleanly_and_saves_the_record_so_far(tmp_path):
    result, path = play(tmp_path, "deutschland", "human,bot:random,bot:random", "de", ["1", "3"])
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert "Spiel nach Zug 6 verlassen" in result.output  # 2 human moves, the bots' moves between them
    record = records.load(path)
    assert not record.finished and len(record.moves) == 6
    assert not replayed(path)["finished"]


def test_q_leaves_the_game(tmp_path):
    result, path = play(tmp_path, "world-game", "human,bot:random", "en", ["q"])
    assert result.exit_code == 130 and "Left the game after move 0" in result.output
    assert records.load(path).moves == []


@pytest.mark.parametrize(
    "game,seats,lang,heading",
    [
        ("laender-toppen", "human,bot:expert,bot:random", "de", "Handkarten von Spieler 1"),
        ("laender-toppen", "bot:random,human", "en", "Player 2's hand"),
        ("world-game", "human,bot:expert,bot:random", "de", "Oberste Karte von Spieler 1"),
        ("world-game", "bot:random,human", "en", "Player 2's top card"),
    ],
)
def test_play_every_game_in_both_languages(tmp_path, game, seats, lang, heading):
    result, path = play(tmp_path, game, seats, lang, ["1"] * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert heading in result.output
    if game == "laender-toppen":  # other seats place face down: the table never names their cards
        assert ("legt eine Karte verdeckt" if lang == "de" else "places a card face down") in result.output
    assert replayed(path)["finished"]


def test_bad_seats_are_one_line_errors(tmp_path):
    result, _ = play(tmp_path, "deutschland", "human,bot:genius", "en", [])
    assert isinstance(result.exception, GeodeckError)
    assert "'bot:genius' is neither 'human' nor a bot" in str(result.exception)
    result = CliRunner().invoke(cli, ["play", "deutschland", "--players", "3", "--seats", "human,bot:random"])
    assert "--players 3 but --seats names 2 seats" in str(result.exception)
    result = CliRunner().invoke(cli, ["play", "deutschland", "--seats", "human,bot:random,bot:random,bot:random,human"])
    assert "2-4 players, not 5" in str(result.exception)


def test_a_game_without_terminal_or_notation_module_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(games, "_REGISTRY", dict(games.registered()))
    games.register(toygame.GAME)
    with pytest.raises(GeodeckError, match="toy-game cannot be played in the terminal: its slice has no module"):
        _ = games.get("toy-game").terminal
    with pytest.raises(GeodeckError, match="toy-game cannot be recorded or replayed"):
        _ = games.get("toy-game").notation


def test_a_move_may_be_typed_as_its_text():
    labels = ["pass", "Niger", "Nigeria", "Paris"]
    assert loop._fitting("niger", labels) == [1]  # spelt out: that one, although Nigeria contains it
    assert loop._fitting("nig", labels) == [1, 2]  # ambiguous: the player is asked to type more
    assert loop._fitting("ari", labels) == [3] and loop._fitting("Rome", labels) == []


def test_the_default_seats_are_experts_and_the_search_bot_is_a_seat():
    definition = games.get("world-game")
    assert seating.parse(None, 3, definition) == ["human", "bot:expert", "bot:expert"]
    assert seating.parse("human,bot:mcts", None, definition) == ["human", "bot:mcts"]
