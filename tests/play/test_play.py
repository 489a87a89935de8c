"""`geodeck play`: scripted input drives whole games at the terminal; every game is saved as a record that
`geodeck replay` accepts, also when the player leaves early."""

import dataclasses
import io
import json
import random

import pytest
from click.testing import CliRunner
from conformance import cases
from fixtures import toygame

from pipeline.cli import cli
from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.play import loop
from pipeline.play import ports as play_ports
from pipeline.play import seats as seating
from pipeline.records import ports as records_ports
from pipeline.records import record as records

NO_FLAG = ("challenges", ("continent", "location", "capital"))  # a human's World Game where no flag can be shown


def play(tmp_path, game: str, seats: str, lang: str, lines: list[str], seed: int = 5):
    path = tmp_path / f"{game}.json"
    args = ["play", game, "--seats", seats, "--lang", lang, "--seed", str(seed), "--record", str(path)]
    if game == "world-game" and "human" in seats:  # CliRunner's output is no terminal: it shows no flag
        args += ["--variant", f"{NO_FLAG[0]}={','.join(NO_FLAG[1])}"]
    return CliRunner().invoke(cli, args, input="".join(f"{line}\n" for line in lines)), path


def replayed(path) -> dict:
    result = CliRunner().invoke(cli, ["replay", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_play_deutschland_through_a_whole_game_and_replay_its_record(tmp_path):
    lines = ["zz", "[/zz]", "0", "?", "under", *["1"] * 24]  # 8 rounds, 3 guesses a round
    result, path = play(tmp_path, "deutschland", "human,bot:random,bot:expert,bot:random", "en", lines)
    assert result.exit_code == 0, result.output
    assert "'zz' is not a move: enter a number from 1 to 35 or the move itself" in result.output
    assert "'0' is not a move" in result.output and "'[/zz]' is not a move" in result.output
    assert "'under' fits 35 moves (N under" in result.output
    assert "Input: the number of a move" in result.output and "furthest north" in result.output  # the help
    assert "Round 8 revealed" in result.output and "Result" in result.output
    record = records.load(path)
    assert record.finished and len(record.moves) == 8 * 4 * 3
    assert not record.private and '"private"' not in path.read_text(encoding="utf-8")  # a finished game hides nothing
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
    assert record.private and "private: it shows every hidden card" not in result.output  # issue 35: marked
    assert "privat: er zeigt alle verdeckten Karten" in result.output
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
    result, path = play(tmp_path, game, seats, lang, ["1", "-"] * 3000)  # - passes a typed World Game answer
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
    games.register(dataclasses.replace(toygame.GAME, name="bare-game", package="fixtures.tiny"))  # no modules
    with pytest.raises(GeodeckError, match="bare-game cannot be played in the terminal: its slice has no module"):
        _ = play_ports.terminal(games.get("bare-game"))
    with pytest.raises(GeodeckError, match="bare-game cannot be recorded or replayed"):
        _ = records_ports.notation(games.get("bare-game"))


def test_a_move_may_be_typed_as_its_text():
    labels = ["pass", "Niger", "Nigeria", "Paris"]
    assert loop._fitting("niger", labels) == [1]  # spelt out: that one, although Nigeria contains it
    assert loop._fitting("nig", labels) == [1, 2]  # ambiguous: the player is asked to type more
    assert loop._fitting("ari", labels) == [3] and loop._fitting("Rome", labels) == []
    spelt = ["Brésil → Superficie au-dessus", "Łódź → Fläche unten", "Österreich → Größe oben", "M (Mitte) unter Jena"]
    assert loop._fitting("bresil sup au", spelt) == [0] and loop._fitting("lodz fl unt", spelt) == [1]
    assert loop._fitting("oesterr groesse", spelt) == [2] == loop._fitting("osterr grosse", spelt)
    assert loop._fitting("m unter jena", spelt) == [3] and loop._fitting("mi unter jena", spelt) == []


def test_the_default_seats_are_experts_and_the_search_bot_is_a_seat():
    definition = games.get("world-game")
    assert seating.parse(None, 3, definition) == ["human", "bot:expert", "bot:expert"]
    assert seating.parse("human,bot:mcts", None, definition) == ["human", "bot:mcts"]


def _answering(kind: str, lang: str):
    """The published World Game deck, seat 0 answering the `kind` challenge that seat 1 set on its top card."""
    from pipeline.decks import published
    from pipeline.games.world_game import engine, terminal
    from pipeline.play.view import View
    from pipeline.render import layouts

    _, deck = published.deck(games.get("world-game"))
    game = engine.Game.from_deck(deck, players=2, challenges=engine.KINDS)
    state = game.initial_state(list(range(len(deck["cards"]))))
    state.apply_action(engine.CALL)
    state.apply_action(game.set_base + engine.KINDS.index(kind))
    view = View(
        languages.language(lang),
        ("P1", "P2"),
        {c["id"]: c["fields"] for c in deck["cards"]},
        layouts.load(games.get("world-game")),
    )
    return state, view, lambda text: terminal.read(state, state.legal_actions(), text, view), terminal


@pytest.mark.parametrize(
    "kind,typed,meant",
    [
        ("capital", ["Moskau", "moscow", " MOSCOW "], "answer Moscow"),
        ("capital", ["Kiew", "kyjiw", "Kiev"], "answer Kyiv"),
        ("capital", ["chisinau", "Kischinau"], "answer Chișinău"),
        ("capital", ["Peking", "beijing", "Bejing"], "answer Beijing"),
        ("capital-reverse", ["Holland", "niederlande", "the Netherlands"], "answer Netherlands"),
        ("capital-reverse", ["elfenbeinküste", "Cote d'Ivoire", "ivory coast"], "answer Ivory Coast"),
        ("capital-reverse", ["Türkei", "turkey", "Turkiye"], "answer Türkiye"),
        ("location", ["12", "Nr. 12", "no 12"], "answer 12"),
        ("continent", ["Europa und Asien", "asia, europe", "Asien & Europa"], "answer Asia and Europe"),
        ("continent", ["südamerika", "South America"], "answer South America"),
    ],
)
def test_world_game_answers_are_typed_and_matched_forgivingly(kind, typed, meant):
    state, _, read, _ = _answering(kind, "de")
    for text in typed:
        action = read(text)
        assert isinstance(action, int), (text, action)
        assert state.action_to_string(0, action) == meant, text


def test_another_seats_answer_stays_sealed_on_the_screen():
    """Issue 35: answers are given at once, so the screen shows a bot's (or the other human's) answer or pass
    only when all are revealed, never before the human at the screen answers."""
    state, view, _, terminal = _answering("capital", "en")
    answer = state.legal_actions()[1]
    assert terminal.label(state, answer, view, False) == terminal.label(state, state.game.pass_action, view, False)
    assert terminal.label(state, answer, view, False) == "answers, sealed (or passes)"
    assert terminal.label(state, answer, view, True) != "answers, sealed (or passes)"  # one's own answer


def test_world_game_answers_are_never_listed():
    state, view, read, terminal = _answering("capital", "en")
    assert terminal.free_text(state, state.legal_actions(), view).startswith("Your answer (type it")
    assert read("-") == state.game.pass_action and read("pass") == state.game.pass_action
    wrong = read("Wa")  # partial input: one line, no candidates
    assert wrong == "'Wa' names no capital on the cards: type the answer again (spelling) or - to pass."
    assert "Washington" not in read("Washingtown Hills")
    state, view, read, terminal = _answering("flag", "en")
    assert terminal.free_text(state, [state.game.pass_action, 99], view) and read("Atlantis").startswith("'Atlantis'")


def _table(game: str, deck: dict, players: int, lang: str):
    from pipeline.play.view import View
    from pipeline.render import layouts

    definition = games.get(game)
    rules = definition.engine.Game.from_deck(deck, players=players)
    state = rules.new_initial_state(__import__("random").Random(1))
    names = tuple(play_ports.terminal(definition).seat_names(players, languages.language(lang)))
    view = View(
        languages.language(lang), names, {c["id"]: c["fields"] for c in deck["cards"]}, layouts.load(games.get(game))
    )
    return state, play_ports.terminal(definition), view


@pytest.mark.parametrize("case", cases("terminal"))
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_terminal_names_the_seats_draws_the_table_and_tells_the_moves_apart(case, lang):
    """The terminal contract on every game (tests/conformance.py): a name per seat, the rules, and through
    the first moves of a random game the board the seat to move sees and a distinct label for each legal move."""
    from rich.console import Console

    state, terminal, view = _table(case.name, case.deck, case.players, lang)
    assert len(view.names) == state.players and len(set(view.names)) == state.players
    drawn = io.StringIO()
    console = Console(file=drawn, width=120)
    rng = random.Random(2)
    for _ in range(12):  # the first moves (a short game: all of them)
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            labels = [terminal.label(state, action, view, True) for action in state.legal_actions()]
            assert all(labels) and len(set(labels)) == len(labels), labels
            console.print(terminal.board(state, player, view))
        state.apply_action(
            core.sample_chance(state, rng) if player == core.CHANCE else rng.choice(state.legal_actions())
        )
    assert drawn.getvalue().strip() and terminal.rules(view).strip()


def test_a_move_is_typed_without_arrows_or_remarks():
    from fixtures.tiny.games.decks import laender_toppen

    state, terminal, view = _table("laender-toppen", laender_toppen(), 2, "en")
    legal = state.legal_actions()
    labels = [terminal.label(state, a, view, True) for a in legal]
    assert "→" in labels[0]
    typed = labels[0].replace("→", " ").upper()  # e.g. "KENYA   AREA ABOVE"
    assert loop._fitting(typed, labels) == [0]


@pytest.mark.parametrize(
    "lang,why,rule",
    [
        ("en", "is not allowed: Red has", "M is the back of the W card"),
        ("de", "ist nicht erlaubt: Rot hat", "M ist die Rückseite der W-Karte"),
    ],
)
def test_m_after_w_is_refused_with_the_rule(lang, why, rule):
    from fixtures.tiny.games.decks import deutschland

    from pipeline.games.grid import engine

    state, terminal, view = _table("deutschland", deutschland(), 2, lang)
    width = len(state.places)
    state.apply_action(engine.W * width)  # player 0: W under the first place
    state.apply_action(state.legal_actions()[0])  # player 1
    place = view.card(state.game.places[state.places[1]].id)
    typed = f"M {'unter' if lang == 'de' else 'under'} {place}"
    assert loop._fitting(typed, [terminal.label(state, a, view, True) for a in state.legal_actions()]) == []
    refused = loop._refused(state, typed, terminal, view)
    assert refused is not None and refused.startswith(f"{typed!r} {why}") and rule in refused
    assert loop._refused(state, "Atlantis", terminal, view) is None


def test_a_text_without_letters_or_digits_is_refused_without_labelling_every_move(monkeypatch):
    """Länder toppen has over a thousand actions to label: a stray "-" no longer costs a search through them."""
    from fixtures.tiny.games.decks import laender_toppen

    state, terminal, view = _table("laender-toppen", laender_toppen(), 2, "en")
    labelled: list[int] = []

    def label(state, action, *args):
        labelled.append(action)
        return "x"

    monkeypatch.setattr(terminal, "label", label)
    assert loop._refused(state, "- ?!", terminal, view) is None and labelled == []
    assert loop._refused(state, "Atlantis", terminal, view) is None and len(labelled) > 1000


def _watched(game: str, seats: list[str], lines: list[str], seed: int, lang: str = "en", **options) -> str:
    import os
    from pathlib import Path
    from tempfile import TemporaryDirectory

    from rich.console import Console

    from pipeline.decks import published

    _, deck = published.deck(games.get(game))
    answers = iter(lines)
    with TemporaryDirectory() as folder, open(os.devnull, "w") as hidden:
        console = Console(width=400, record=True, file=hidden)
        path = Path(folder) / "r.json"
        loop.play(
            games.get(game),
            deck,
            seats,
            languages.language(lang),
            seed,
            path,
            console,
            lambda _: next(answers),
            options=options,
        )
    return console.export_text()


def test_every_world_game_round_is_shown_with_its_tie_breaking_cards_and_units():
    for seed in range(1, 12):  # random players tie on land neighbours within a few games
        shown = _watched("world-game", ["bot:random", "bot:random"], [], seed)
        ties = [line for line in shown.splitlines() if "a tie of" in line]
        if ties:
            break
    rounds = [line for line in shown.splitlines() if line.startswith("Round ")]
    assert [int(line.split(":")[0][6:]) for line in rounds] == list(range(1, len(rounds) + 1))  # every round
    assert ties and all("the next cards: " in line and " takes " in line for line in ties), ties[:1]
    assert any(" km² " in line or " m, " in line for line in rounds)  # values with their units


def test_the_right_answer_is_shown_after_every_challenge():
    """Issue 35: the World Game never showed the right answer after a challenge."""
    shown = _watched("world-game", ["bot:expert", "bot:novice"], [], 3)  # 38 rounds, 18 of them challenges
    challenges = [line for line in shown.splitlines() if line.startswith("Round ") and "called a challenge" in line]
    assert len(challenges) > 10 and all("; the answer: " in line for line in challenges), challenges[:1]
    state, view, _, terminal = _answering("capital", "de")
    state.apply_action(state.game.pass_action)  # the caller passes: the setter wins, the answer is shown
    card = view.cards[state.game.ids[state.turns[-1].card]]
    assert f"; Antwort: {' oder '.join(card['capitals_de'])}) → P2" in terminal.revealed(state, 0, view)


def test_the_flag_challenge_is_refused_where_the_terminal_shows_no_picture(tmp_path):
    """Issue 35: a flag was shown as two regional-indicator letters ("DE" for Germany: the answer); where no
    picture can be drawn (here: output that is no terminal) a human's game with the flag challenge is refused
    before anything is written, naming the fix."""
    path = tmp_path / "r.json"
    args = ["play", "world-game", "--seats", "human,bot:random", "--seed", "1", "--lang", "en", "--record", str(path)]
    result = CliRunner().invoke(cli, args, input="q\n")
    assert isinstance(result.exception, GeodeckError) and not path.exists()
    assert str(result.exception) == (
        "the flag challenge needs a terminal that shows a flag as a picture (256 colours or more); play without "
        "it: --variant challenges=continent,location,capital"
    )
    result = CliRunner().invoke(cli, [*args, "--variant", "challenges=continent,location,capital"], input="q\n")
    assert result.exit_code == 130, result.output  # bots alone play it: test_the_right_answer_is_shown_…


def test_no_color_refuses_the_flag_challenge_with_the_fix(tmp_path, monkeypatch):
    """Issue 48: with NO_COLOR a truecolor terminal drew the flag as 12 lines of uncoloured blocks; now no
    picture is drawn and a human's game with the flag challenge is refused, naming both fixes."""
    import io

    from rich.console import Console

    from pipeline.play import pictures

    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(force_terminal=True, color_system="truecolor", file=io.StringIO())
    assert pictures.drawer(console, lambda: None) is None
    path = tmp_path / "r.json"
    args = ["play", "world-game", "--seats", "human,bot:random", "--seed", "1", "--lang", "en", "--record", str(path)]
    result = CliRunner().invoke(cli, args, input="q\n")
    assert isinstance(result.exception, GeodeckError) and not path.exists()
    assert str(result.exception) == (
        "the flag challenge needs colours, which NO_COLOR turns off: unset NO_COLOR, or play without it: "
        "--variant challenges=continent,location,capital"
    )


def test_history_is_one_key_away():
    lines = ["h", "1", "1", "h", *["1", "-"] * 3000]
    shown = _watched("world-game", ["human", "bot:expert"], lines, 11, challenges=NO_FLAG[1])
    assert "Nothing revealed yet." in shown
    first = next(line for line in shown.splitlines() if line.startswith("Round 1:"))
    assert shown.count(first) >= 2  # shown when played, and again by h


def test_laender_toppen_shows_every_trick_and_scores_its_piles_like_scores():
    from fixtures.rulebook import laender_toppen_rulebook
    from fixtures.tiny.games.decks import laender_toppen

    from pipeline.games.laender_toppen import engine

    state, terminal, view = _table("laender-toppen", laender_toppen_rulebook(laender_toppen()), 4, "en")
    rng = __import__("random").Random(0)  # a random game of six categories where Russia or Turkey counts for Asia
    state = state.game.new_initial_state(rng)
    differs = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        piles = state.observation(0).piles
        table = terminal._piles(state, piles, view)
        points = [int(cell) for cell in table.columns[-1]._cells]
        assert points == state.scores()
        differs += points != engine.every_points(engine.pile_counts(piles))  # Russia/Turkey counted where best
    assert differs, "no Russia/Turkey case met: choose another seed"
    lines = [terminal.revealed(state, i, view) for i in range(terminal.progress(state))]
    assert len(lines) == len(state.tricks) and lines[0].startswith("Round 1: Trick Area above: ")
    assert all("value)" in line or "tie for" in line or "only country card" in line for line in lines)


@pytest.mark.parametrize(
    "game,seats,variants,options",
    [
        ("laender-toppen", "bot:random,bot:expert", ["fast"], {"fast": True}),
        ("deutschland", "bot:random,bot:expert,bot:novice", ["face-down"], {"face_down": True}),
        (
            "world-game",
            "bot:expert,bot:novice,bot:skilled",
            ["challenges=continent,capital", "setter=1"],
            {"challenges": ["continent", "capital"], "fixed_setter": 1},
        ),
        ("world-game", "bot:expert,bot:novice", ["children=continent/flag,capital"], {}),
    ],
)
def test_the_rulebooks_variants_are_options_of_play(tmp_path, game, seats, variants, options):
    path = tmp_path / "game.json"
    args = ["play", game, "--seats", seats, "--seed", "4", "--record", str(path)]
    result = CliRunner().invoke(cli, [*args, *(a for v in variants for a in ("--variant", v))])
    assert result.exit_code == 0, result.output[-2000:]
    record = records.load(path)
    assert record.options.items() >= options.items()
    if variants[0].startswith("children"):
        assert record.options["player_challenges"] == [["continent"], ["flag", "capital"]]
    assert replayed(path)["finished"]


def test_variant_list_lists_the_variants_and_plays_nothing(tmp_path):
    """Issue 35: `--variant list` was in the help but exited 2."""
    result = CliRunner().invoke(cli, ["play", "world-game", "--variant", "list"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("--variant challenges=KIND,…: the challenges in play")
    assert len(result.output.splitlines()) == 4
    result = CliRunner().invoke(cli, ["play", "deutschland", "--variant", "list"])
    assert result.exit_code == 0 and result.output.startswith("--variant face-down")


@pytest.mark.parametrize(
    "beside, refused",
    [
        (["--variant", "reverse"], "--variant list and --variant reverse do not go together"),
        (["--record", "r.json"], "--variant and --record do not go together"),
        (["--seed", "3"], "--variant and --seed do not go together"),
    ],
)
def test_what_variant_list_would_ignore_is_refused(geodeck, tmp_path, monkeypatch, beside, refused):
    monkeypatch.chdir(tmp_path)
    code, text = geodeck(["play", "world-game", "--variant", "list", *beside])
    assert code == 2 and refused in text and "plays nothing" in text
    assert list(tmp_path.iterdir()) == []


def test_play_help_names_every_bot_of_every_game():
    """Issue 35: `play --help` left out mcts."""
    shown = " ".join(CliRunner().invoke(cli, ["play", "--help"], terminal_width=200).output.split())
    levels = {level for definition in games.registered().values() for level in definition.engine.BOTS}
    assert levels and all(level in shown for level in levels), levels


def test_unknown_or_bad_variants_are_one_line_errors():
    result = CliRunner().invoke(cli, ["play", "world-game", "--variant", "lists"])
    assert isinstance(result.exception, GeodeckError)
    assert "--variant 'lists': world-game has no variant 'lists' (its variants: challenges=KIND" in str(
        result.exception
    )
    result = CliRunner().invoke(cli, ["play", "world-game", "--variant", "setter=left"])
    assert "--variant 'setter=left': 'left' is not a number of seats" in str(result.exception)
    result = CliRunner().invoke(cli, ["play", "world-game", "--variant", "setter=5"])
    assert "fixed_setter counts the seats to the caller's left, 1-1 with 2 players, not 5" in str(result.exception)


def test_hot_seat_hides_the_table_between_two_humans(monkeypatch, tmp_path):
    from fixtures.tiny.games.decks import deutschland
    from rich.console import Console

    asked: list[str] = []
    shown: list[str] = []  # what the screen showed since it was last cleared, at each hand-over

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if "take the screen" in prompt:
            shown.append(console.export_text())
            return ""
        return "1" if len(asked) < 40 else "q"

    console = Console(record=True, width=200)
    monkeypatch.setattr(console, "clear", lambda *args, **kwargs: console.export_text(clear=True))
    loop.play(
        games.get("deutschland"),
        deutschland(),
        ["human", "human"],
        languages.language("en"),
        1,
        tmp_path / "r.json",
        console,
        ask,
    )
    handovers = [p for p in asked if "take the screen" in p]
    assert handovers[:3] == [
        "Red's turn: take the screen and press Enter",
        "Blue's turn: take the screen and press Enter",
        "Red's turn: take the screen and press Enter",
    ]
    assert all("guess cards:" not in screen for screen in shown)  # no hand left on the screen


def test_every_deutschland_round_is_shown_with_its_extremes_and_points():
    shown = _watched("deutschland", ["bot:expert", "bot:novice", "bot:random"], [], 2, "de")
    rounds = [line for line in shown.splitlines() if line.startswith("Runde ") and " aufgedeckt: N: " in line]
    assert [int(line.split()[1]) for line in rounds] == list(range(1, 7))  # three players: six rounds
    assert all(line.count(" +") == 3 and "meiste Einwohner: " in line for line in rounds)


@pytest.mark.parametrize(
    "lang,country,typed,meant",
    [
        ("en", "Canada", "Canada ar above", ("Canada", 0, False)),
        ("en", "Yemen", "Yemen temp below", ("Yemen", None, True)),
        ("de", "Uganda", "Uganda hoechster berg oben", ("Uganda", None, False)),
    ],
)
def test_moves_are_typed_as_people_type_them(lang, country, typed, meant):
    """Issue 48: word beginnings and ASCII spellings (oe for ö) name a move; an ambiguous word shows the moves
    it fits."""
    from pipeline.decks import published
    from pipeline.play.view import View
    from pipeline.render import layouts

    definition = games.get("laender-toppen")
    deck = published.deck(definition)[1]
    card = next(i for i, c in enumerate(deck["cards"]) if c["fields"].get("name_en") == country)
    state, terminal, view = _table("laender-toppen", deck, 2, lang)
    view = View(
        languages.language(lang), view.names, view.cards, layouts.load(definition, languages.language(lang))
    )  # the categories in `lang`
    state = state.game.initial_state([card] + [i for i in range(len(deck["cards"])) if i != card])
    legal = state.legal_actions()
    labels = [terminal.label(state, a, view, True) for a in legal]
    fits = loop._fitting(typed, labels)
    assert len(fits) == 1, [labels[i] for i in fits]
    chosen, slot = divmod(legal[fits[0]] - state.game.place, state.game.slots)
    side = typed.split()[-1]
    assert chosen == card and bool(slot % 2) == (side in ("below", "unten"))
    assert typed.split()[1][:2].casefold() in loop._plain(labels[fits[0]])
    vague = loop._fitting(" ".join(typed.split()[:-1]), labels)  # no side: above and below both fit
    shown = loop._wrong(typed, [labels[i] for i in vague], len(labels), view)  # the moves it fits, shown
    assert len(vague) == 2 and all(labels[i] in shown for i in vague)
