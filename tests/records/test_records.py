"""Game records: random games of every engine recorded and replayed, the rulebooks' examples as golden records,
and every kind of bad record refused with one line naming the move and the rule."""

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conformance import cases

from pipeline.cli import cli
from pipeline.decks.files import content_hash
from pipeline.framework import core
from pipeline.games import registry as games
from pipeline.games.laender_toppen import engine as lt
from pipeline.paths import ROOT
from pipeline.records import ports as records_ports
from pipeline.records import record as records
from pipeline.records import replay, tape

GOLDEN = ROOT / "docs" / "records"
NOTATIONS = cases("notation")  # every game with a notation of its own (tests/conformance.py)
CASES = {param.values[0].name: param.values[0] for param in NOTATIONS}
DECKS = {name: case.deck for name, case in CASES.items()}


@cache
def new_game(name: str, players: int) -> Any:
    """The game of `name` for `players` seats, made once (a game is reused from play to play, as play-check
    reuses it)."""
    return CASES[name].game(players=players)


def record_game(name: str, players: int, seed: int, deck_hash: str) -> tuple[records.Record, Any]:
    """A game of random seats, recorded; returns the record and the state it was played on."""
    deck = DECKS[name]
    game = new_game(name, players)
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    seats = [records.Seat(name=f"seat {p}", plays="bot:random") for p in range(players)]
    while not state.is_terminal():  # random moves straight from the state (quicker than observations)
        legal = state.legal_actions()
        state.apply_action(core.sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal))
    return tape.record_of(games.get(deck["game"]), deck, state, seats, seed, deck_hash), state


@pytest.mark.parametrize("case", NOTATIONS)
def test_a_thousand_random_records_replay_to_their_scores(case):
    name, deck, deck_hash = case.name, case.deck, content_hash(case.deck)
    counts = case.player_counts
    for seed in range(1000):
        players = counts[seed % len(counts)]
        record, played = record_game(name, players, seed, deck_hash)
        assert record.finished and record.scores == played.scores() and record.winners == played.winners()
        again = records.from_dict(json.loads(record.to_json()))
        assert again == record
        state = replay.replay(
            games.get(again.game), again, deck, game=new_game(name, players)
        )  # the game made once per player count
        assert state.is_terminal() and state.scores() == played.scores()


def test_a_replay_plays_on_the_game_it_is_given_only_when_its_options_are_the_records():
    deck = DECKS["world-game"]
    record, played = record_game("world-game", 2, 0, content_hash(deck))
    given = new_game("world-game", 2)
    assert replay.replay(games.get(record.game), record, deck, game=given).game is given
    other = replay.replay(
        games.get(record.game), record, deck, game=new_game("world-game", 3)
    )  # made from the deck with the record's
    assert other.game.options() == record.options and other.scores() == played.scores()


def test_golden_deutschland_examples_1_and_2_score_red_6_blue_5_green_3_yellow_6():
    record = records.load(GOLDEN / "deutschland-examples-1-2.json")
    state = replay.replay(games.get(record.game), record, replay.deck_of(games.get(record.game), record))
    assert [seat.name for seat in record.seats] == ["Red", "Blue", "Green", "Yellow"]
    assert len(record.moves) == 12
    assert state.scores() == [6, 5, 3, 6] == record.scores
    rnd = state.rounds[0]
    names = [state.game.places[i].name for i in rnd.places]
    assert names == ["Emden", "Wismar", "Cottbus", "Jena", "Koblenz"]
    assert {g: names[next(iter(rnd.correct[g]))] for g in ("N", "S", "W", "O", "most", "fewest", "M")} == {
        "N": "Wismar",
        "S": "Koblenz",
        "W": "Emden",
        "O": "Cottbus",
        "most": "Koblenz",
        "fewest": "Wismar",
        "M": "Jena",
    }
    yellow_m = next(pts for p, g, _, _, pts in rnd.placements if p == 3 and g == 6)
    assert yellow_m == 3  # moved up after the two wrong guesses under Jena were removed


def test_golden_laender_toppen_tricks_kazakhstan_and_jamaica_take_them_and_the_split_is_the_rulebooks():
    record = records.load(GOLDEN / "laender-toppen-tricks.json")
    state = replay.replay(games.get(record.game), record, replay.deck_of(games.get(record.game), record))
    ids = [card.id for card in state.game.cards]
    area, people = state.tricks[0], state.tricks[-1]
    assert (area.slot, people.slot) == (0, 7)
    assert [ids[c] for _, c in area.played] == ["lt-BOL", "lt-SWE", "lt-KAZ", "lt-MAR"] and area.winners == (2,)
    assert [ids[c] for _, c in people.played] == ["lt-GRC", "lt-BEL", "lt-JAM", "lt-KEN"] and people.winners == (2,)
    piles = state.piles[2]
    europe, africa = (lt.CONTINENTS.index(c) for c in ("Europe", "Africa"))
    assert {"lt-GRC", "lt-BEL"} <= {ids[c] for c in piles[europe]}
    assert "lt-KEN" in {ids[c] for c in piles[africa]} and "lt-JAM" in {ids[c] for c in piles[state.game.face_down]}
    assert state.scores() == record.scores


def test_every_example_record_replays_to_its_scores():
    paths = sorted(GOLDEN.glob("*.json"))
    assert [p.name for p in paths] == [
        "deutschland-examples-1-2.json",
        "laender-toppen-tricks.json",
        "world-game-example.json",
    ]
    for path in paths:
        record = records.load(path)
        state = replay.replay(games.get(record.game), record, replay.deck_of(games.get(record.game), record), str(path))
        assert state.scores() == record.scores and state.is_terminal() == record.finished
        assert path.read_text(encoding="utf-8") == record.to_json()  # written as geodeck writes records


def write(tmp_path: Path, data: dict | str, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def golden() -> dict:
    return json.loads((GOLDEN / "deutschland-examples-1-2.json").read_text(encoding="utf-8"))


def refused(tmp_path: Path, data: dict | str) -> str:
    """The one-line message `geodeck replay` refuses the record with (via main: exit code 2, no traceback)."""
    path = write(tmp_path, data)
    with pytest.raises(records.RecordError) as caught:
        state_of(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def state_of(path: Path):
    record = records.load(path)
    return replay.replay(
        games.get(record.game), record, replay.deck_of(games.get(record.game), record, None, str(path)), str(path)
    )


def test_bad_records_are_refused_with_one_line(tmp_path):
    assert "not a game record" in refused(tmp_path, "{not json")
    assert "not a game record: moves: Field required (docs" in refused(
        tmp_path, {k: v for k, v in golden().items() if k != "moves"}
    )
    assert "format: Input should be 'geodeck-record/1', got 'other/1'" in refused(
        tmp_path, {**golden(), "format": "other/1"}
    )
    data = golden()
    data["moves"][3]["player"] = True
    assert "moves.3.player" in refused(tmp_path, data)
    data = golden()
    data["deal"][2] = "de-99999999"
    assert "unknown card 'de-99999999' in the deal" in refused(tmp_path, data)
    data = golden()
    data["deck"]["content_hash"] = "0" * 64
    assert "content hash 000000000000…" in refused(tmp_path, data) and "--deck FILE" in refused(tmp_path, data)
    data = golden()
    data["moves"][4]["move"] = data["moves"][0]["move"]  # Red plays W again
    message = refused(tmp_path, data)
    assert message.endswith(
        "move 5 (Red, 'W de-03402000') is illegal: Deutschland: player 0 has already placed their W/M guess card "
        "this round (rule: each guess card once per round; M is the back of the W card)"
    )
    data = golden()
    data["moves"][1]["move"] = "N de-99999999"
    assert "move 2 (Blue, 'N de-99999999'): unknown card 'de-99999999'" in refused(tmp_path, data)
    data = golden()
    data["moves"][1]["player"] = 2
    assert "move 2: it is Blue's turn, not Green's" in refused(tmp_path, data)
    data = golden()
    data["options"]["players"] = 9
    assert "options {'players': 9, 'face_down': False} do not make a deutschland game" in refused(tmp_path, data)
    data = golden()
    data["scores"] = [6, 5, 3, 7]
    assert "differ from the replayed [6, 5, 3, 6]" in refused(tmp_path, data)


def test_replay_cli_prints_the_scores_and_refuses_an_illegal_move_in_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["replay", str(GOLDEN / "deutschland-examples-1-2.json"), "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert [s["score"] for s in summary["seats"]] == [6, 5, 3, 6] and summary["moves"] == 12
    assert not summary["finished"]
    table = runner.invoke(cli, ["replay", str(GOLDEN / "laender-toppen-tricks.json")])
    assert table.exit_code == 0 and "64 moves replayed" in table.output


def test_main_reports_a_bad_record_in_one_line_without_traceback(tmp_path, capsys, monkeypatch):
    from pipeline import cli as cli_module

    data = golden()
    data["moves"][4]["move"] = data["moves"][0]["move"]
    path = write(tmp_path, data)
    monkeypatch.setattr("sys.argv", ["geodeck", "replay", str(path)])
    with pytest.raises(SystemExit) as exit_:
        cli_module.main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "move 5 (Red" in err and "is illegal" in err


def test_laender_toppen_moves_name_the_card_and_the_rule():
    game = lt.Game.from_deck(DECKS["laender-toppen"], players=2)
    notation = records_ports.notation(games.get("laender-toppen"))
    ata = game.antarctica
    assert ata is not None
    order = list(range(len(game.cards)))
    order[0], order[ata] = ata, 0  # player 0 holds Antarctica
    state = game.initial_state(order)
    with pytest.raises(ValueError, match="unknown card 'lt-XXX'"):
        notation.read(state, "lt-XXX: area_km2 above")
    with pytest.raises(ValueError, match="not a Länder toppen move"):
        notation.read(state, "lt-ATA: somewhere")
    with pytest.raises(ValueError, match="cards are being placed"):
        notation.read(state, "lt-ATA: Europe")
    action = notation.read(state, "lt-ATA: inhabitants_m above")
    assert notation.write(state, action) == "lt-ATA: inhabitants_m above"
    with pytest.raises(core.IllegalAction, match="Antarctica"):
        state.apply_action(action)


def test_a_record_keeps_the_owners_choice_for_russia_or_turkey_at_scoring():
    deck = DECKS["laender-toppen"]
    for seed in range(100):  # a game in which Russia or Turkey ends on a continent pile
        record, state = record_game("laender-toppen", 2, seed, content_hash(deck))
        ids = [card.id for card in state.game.cards]
        laid = [
            (card, pile)
            for piles in state.piles
            for pile in range(state.game.face_down)
            for card in piles[pile]
            if ids[card] in ("lt-RUS", "lt-TUR")
        ]
        if laid:
            break
    card, pile = laid[0]
    other = next(c for c in state.game.cards[card].continents if c != pile)
    state.choose_continent(card, other)
    chosen = tape.record_of(games.get(deck["game"]), deck, state, record.seats, record.seed)
    assert chosen.choices == [f"{ids[card]}: {lt.CONTINENTS[other]}"] and record.choices == []
    assert replay.replay(games.get(chosen.game), chosen, deck).scores() == state.scores() == chosen.scores
    wrong = chosen.model_copy(update={"choices": [f"{ids[card]}: Africa"]})
    with pytest.raises(records.RecordError, match=r"choice 'lt-(RUS|TUR): Africa': Länder toppen: .* may be assigned"):
        replay.replay(games.get(wrong.game), wrong, deck)


def test_play_check_saves_the_records_it_plays_and_they_replay(tmp_path):
    deck_path = write(tmp_path, DECKS["world-game"], "deck.json")
    folder = tmp_path / "records"
    args = [
        "play-check",
        "world-game",
        "--deck",
        str(deck_path),
        "--games",
        "8",
        "--max-games",
        "8",
        "--format",
        "json",
    ]
    plain = CliRunner().invoke(cli, args)
    saved = CliRunner().invoke(cli, [*args, "--save-records", str(folder), "--jobs", "2"])  # saved by workers
    assert saved.exit_code in (0, 1, 3) and saved.output == plain.output  # recording changes nothing
    files = sorted(folder.glob("*.json"))
    # random, seats at 2-4 players, three ladder rungs of 8 // 4 and the search bot's rung of one game at 2
    # and at 4 players
    assert len(files) == 8 + 3 * 8 + 2 * (3 * 2 + 1)
    assert (folder / "0-random-7.json").is_file() and (folder / "0-ladder-expert-skilled-1.json").is_file()
    for path in files:
        record = records.load(path)
        assert record.finished and tape.file_stem(str(record.seed)) == path.stem
        assert (
            replay.replay(
                games.get(record.game), record, replay.deck_of(games.get(record.game), record, deck_path)
            ).scores()
            == record.scores
        )


def test_a_legal_move_swapped_for_another_that_keeps_the_score_is_refused(tmp_path):
    """Issue 48: a record carries the hash of its moves; a move swapped for another legal one that ends the game
    with the same scores replays, but its hash no longer fits."""
    name = "deutschland"
    record, played = record_game(name, 2, 5, content_hash(DECKS[name]))
    assert record.moves_hash == record.moves_digest() and '"moves_hash": "' in record.to_json()
    history, game = played.history(), played.game
    for index in reversed(range(len(history))):  # the latest move with a legal twin that keeps the scores
        state = game.initial_state(played.deal)
        for action in history[:index]:
            state.apply_action(action)
        rest, scores = history[index + 1 :], played.scores()
        twins = [a for a in state.legal_actions() if a != history[index] and _ends_alike(state, a, rest, scores)]
        if twins:
            notation = records_ports.notation(games.get(name))
            moves = list(record.moves)
            moves[index] = records.Move(player=moves[index].player, move=notation.write(state, twins[0]))
            break
    data = json.loads(record.to_json())
    data["moves"] = [m.model_dump() for m in moves]
    with pytest.raises(records.RecordError, match="the record was changed after it was written"):
        replay.replay(games.get(name), records.from_dict(data), DECKS[name])
    del data["moves_hash"]  # a record written before issue 48: not checked
    assert replay.replay(games.get(name), records.from_dict(data), DECKS[name]).scores() == played.scores()


def _ends_alike(state, action: int, rest: list[int], scores: list) -> bool:
    """Whether `action` in place of the recorded move, then the recorded `rest`, ends the game with `scores`."""
    again = state.clone()
    again.apply_action(action)
    try:
        for later in rest:
            again.apply_action(later)
    except core.IllegalAction:
        return False
    return again.is_terminal() and again.scores() == scores
