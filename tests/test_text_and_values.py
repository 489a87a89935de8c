"""Text from data is data and every value is checked: the deck, record and source readers refuse control
characters and bidi overrides, the terminals print markup as typed and show escapes instead of sending them,
records are checked field by field, and the command line refuses empty, repeated, non-ASCII and meaningless
values in one line (pipeline/text.py, pipeline/cli_output.py)."""

import io
import json
import os
import shutil

import pytest
from rich.table import Table

from pipeline import text
from pipeline.cli_output import Terminal
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.extract.sources import load_source
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.paths import ROOT, SOURCES_DIR
from pipeline.records import record as records

EXAMPLE = ROOT / "docs" / "records" / "world-game-example.json"
MARKUP = ["[/]", "[link=file:///etc/passwd]x[/link]"]


def edited_record(tmp_path, change) -> str:
    data = json.loads(EXAMPLE.read_text())
    change(data)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    return str(path)


def seats(*names):
    def change(data):
        for seat, name in zip(data["seats"], names):
            seat["name"] = name

    return change


def test_markup_in_a_seat_name_prints_as_typed(geodeck, tmp_path):
    code, output = geodeck(["replay", edited_record(tmp_path, seats(*MARKUP))])
    assert code == 0 and "Traceback" not in output, output
    assert all(name in output for name in MARKUP)


@pytest.mark.parametrize("name", ["\x1b]0;pwned\x07", "\x1b[2J", "Red\u202eder", "\x9b31m"])
def test_escape_sequences_in_a_record_are_refused_in_one_line(geodeck, tmp_path, name):
    code, output = geodeck(["replay", edited_record(tmp_path, seats(name))])
    assert code == 2 and len(output.strip().splitlines()) == 1 and "seats[0].name" in output, output
    assert text.unsafe(name) in output
    assert not text.UNSAFE.search(output)  # nothing of it reached the terminal


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(seed="abc"), "seed"),
        (lambda d: d.update(seed=-5), "seed"),
        (lambda d: d.update(seed=10**26), "seed"),
        (lambda d: d.update(seed=True), "seed"),
        (lambda d: d["seats"][0].update(plays="anything"), "seats.0.plays"),
        (lambda d: d["seats"][0].update(name=""), "seats.0.name"),
        (lambda d: d.pop("format"), "format"),
        (lambda d: d.update(deal=["x" * 20_000]), "deal[0]"),
    ],
)
def test_records_are_checked_field_by_field(tmp_path, change, where):
    data = json.loads(EXAMPLE.read_text())
    change(data)
    with pytest.raises(records.RecordError, match=rf"{where.replace('[', '.').replace(']', '.')}"):
        records.from_dict(data, "r.json")


def test_a_seat_kind_the_game_does_not_have_is_refused(geodeck, tmp_path):
    code, output = geodeck(["replay", edited_record(tmp_path, lambda d: d["seats"][1].update(plays="bot:oracle"))])
    assert code == 2 and "'bot:oracle' is not human or bot:random" in output, output


def draft(tmp_path, name: str, every: bool = False):
    """A copy of the Deutschland deck whose first place card (or `every` one, numbered) is named `name`, in every
    language (`name` and each `name_<lang>`)."""
    path = published.deck(games.get("deutschland"))[0]
    data = json.loads(path.read_text())
    places = [card for card in data["cards"] if "name" in card["fields"]]
    for number, card in enumerate(places if every else places[:1]):
        for key in [k for k in card["fields"] if k == "name" or k.startswith("name_")]:
            card["fields"][key] = f"{name}{number}" if every else name
    copy = tmp_path / "draft.json"
    copy.write_text(json.dumps(data))
    return copy


def test_markup_in_card_names_does_not_break_play(geodeck, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # the human sees the table, then leaves
    args = ["play", "deutschland", "--deck", draft(tmp_path, MARKUP[0], every=True), "--seats", "human,bot:random"]
    code, output = geodeck([*args, "--seed", "1", "--record", tmp_path / "r.json"])
    assert code == 130 and "Traceback" not in output, output
    assert "[/]" in output


def test_escape_sequences_in_a_deck_are_refused(tmp_path):
    with pytest.raises(GeodeckError, match=r"cards\[0\]\.fields\.name holds U\+001B"):
        published.read(draft(tmp_path, "Kiel\x1b]0;pwned\x07"), games.get("deutschland"))


def test_a_bidi_override_in_a_source_definition_is_refused(tmp_path):
    path = tmp_path / "factbook.toml"
    shutil.copy(SOURCES_DIR / "factbook.toml", path)
    path.write_text(path.read_text().replace("citation = ", 'citation = "\u202e" + ', 1).replace('" + "', "", 1))
    with pytest.raises(GeodeckError, match=r"source\.citation holds U\+202E"):
        load_source(path)


def test_the_terminal_shows_escapes_and_markup_as_typed():
    table = Table("seat")
    for name in [*MARKUP, "\x1b]0;title\x07", "a\u202eb"]:
        table.add_row(name)
    screen = io.StringIO()
    terminal = Terminal(file=screen, width=80, force_terminal=False)
    terminal.print(table)
    terminal.print("[bold]x[/] \x1b[2J")
    shown = screen.getvalue()
    assert all(name in shown for name in MARKUP) and "[bold]x[/]" in shown
    assert "\\x1b]0;title" in shown and "a\\u202eb" in shown and not text.UNSAFE.search(shown)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["print", "deutschland", "--version", ""], "'--version': is empty"),
        (["diff", "deutschland", ""], "'[OLD]': is empty"),
        (["print", "deutschland", "--back-offset", ""], "'--back-offset': is empty"),
        (["region", "build", "FRA", "--title", ""], "'--title': is empty"),
        (["region", "build", "FRA", "--title", "x" * 3000], "3,000 characters long, more than 200"),
        (["region", "build", "FRA", "--title", "a\u202eb"], "U+202E"),
        (["build", "--accept", "   "], "'--accept': is empty"),
        (["play-check", "deutschland", "--games", "1", "--games", "2"], "--games is given 2 times"),
        (["play-check", "deutschland", "--games", "1", "--jobs", "١٢"], "is not a whole number"),
        (["play-check", "deutschland", "--games", "1", "--jobs", "５"], "is not a whole number"),
        (["play-check", "deutschland", "--games", "1", "--jobs", "1_0"], "is not a whole number"),
        (["play-check", "deutschland", "--games", "1", "--jobs", " 3"], "is not a whole number"),
        (["print", "deutschland", "--duplex", "none", "--back-offset", "3,3"], "--back-offset and --duplex"),
        (["fetch", "factbook", "--offline", "--mirror", "/dev/zero"], "is not a folder"),
        (["fetch", "factbook", "--offline", "--mirror", "/etc/passwd"], "is not a folder"),
        (["fetch", "factbook", "--offline", "--mirror", "{tmp}/fifo"], "is not a folder"),
        (["fetch", "factbook", "--offline", "--mirror", "m" * 3000], "(3,000 characters)' does not exist"),
    ],
)
def test_lenient_values_are_one_line_errors(geodeck, tmp_path, args, message):
    os.mkfifo(tmp_path / "fifo")
    code, output = geodeck([a.replace("{tmp}", str(tmp_path)) for a in args], GEODECK_STORE=str(tmp_path / "s"))
    assert code == 2 and "Traceback" not in output and len(output.strip().splitlines()) == 1, output
    assert message in output


@pytest.mark.mirror
def test_grid_takes_negative_coordinates(geodeck, store, mirror):
    args = ["grid", "-52", "-13", "--format", "json", "--offline", "--mirror", mirror]
    code, output = geodeck(args, GEODECK_STORE=str(store.root))
    assert code == 1 and json.loads(output.splitlines()[0])["lat"] == -52.0, output


def test_a_typed_digit_of_another_kind_is_not_a_move_number(tmp_path):
    from pipeline.play import loop

    answers = iter(["²", "q"])  # "²".isdigit(), but int("²") fails
    deck = published.deck(games.get("deutschland"))[1]
    screen = Terminal(file=io.StringIO())
    seats = ["human", "bot:random"]
    _, finished = loop.play(
        games.get("deutschland"),
        deck,
        seats,
        languages.language("en"),
        3,
        tmp_path / "r.json",
        screen,
        ask=lambda _: next(answers),
    )
    assert not finished


def test_a_mirror_from_the_environment_is_checked_too(geodeck, tmp_path):
    env = {"GEODECK_STORE": str(tmp_path), "GEODECK_MIRROR": "/etc/passwd"}
    code, output = geodeck(["fetch", "factbook", "--offline"], **env)
    assert code == 2 and "$GEODECK_MIRROR: '/etc/passwd' is not a folder" in output, output


def test_a_keys_newline_is_shown_escaped_in_the_one_line_error():
    """Hypothesis found it: a record whose key is a newline, holding a control character."""
    with pytest.raises(GeodeckError) as caught:
        text.check_all({"format": {"\n": "\x1f"}}, "record")
    assert "\n" not in str(caught.value) and "format.\\n" in str(caught.value)
