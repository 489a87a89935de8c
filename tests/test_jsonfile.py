"""Every JSON read is bounded (pipeline/jsonfile.py): regular files only, a size cap checked before reading,
a nesting limit, no integers of thousands of digits, finite numbers; decks and records refuse each in one
line through the CLI, without a traceback; hostile records are refused in one line or replay."""

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import jsonfile
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.paths import ROOT
from pipeline.records import record as records
from pipeline.records import replay

RECORD = ROOT / "docs" / "records" / "deutschland-examples-1-2.json"


def test_a_regular_file_within_the_limits_is_read(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"a": [1, 2.5, "x", null, true, {"b": -3}]}', encoding="utf-8")
    assert jsonfile.load(path, 100) == {"a": [1, 2.5, "x", None, True, {"b": -3}]}


@pytest.mark.parametrize(
    ("make", "phrase"),
    [
        (lambda p: p.mkdir(), "is not a regular file"),
        (lambda p: os.mkfifo(p), "is not a regular file"),  # opened without blocking, never read
        (lambda p: p.write_text(" " * 2001), "is 2,001 bytes, more than the 2,000 allowed"),
        (lambda p: p.write_bytes(b'{"a": "\xff"}'), "is not UTF-8 text"),
        (lambda p: p.write_text('{"a": '), "is not JSON (Expecting value: line 1 column 7"),
        (lambda p: p.write_text("[" * 65 + "]" * 65), "nests arrays or objects deeper than 64"),
        (lambda p: p.write_text("1" * 1001), "has an integer of 1,001 digits"),
        (lambda p: p.write_text('{"a": [1, NaN]}'), "has nan at a.1, which is not a finite number"),
        (lambda p: p.write_text('{"a": -Infinity}'), "has -inf at a"),
        (lambda p: p.write_text('{"a": 1e999}'), "has inf at a"),
    ],
)
def test_each_limit_is_one_phrase(tmp_path, make, phrase):
    path = tmp_path / "x.json"
    make(path)
    with pytest.raises(jsonfile.Unreadable) as caught:
        jsonfile.load(path, 2000)
    assert phrase in str(caught.value) and "\n" not in str(caught.value)


def test_devices_are_refused_before_reading():
    with pytest.raises(jsonfile.Unreadable, match="is not a regular file"):
        jsonfile.load(Path("/dev/zero"), jsonfile.RECORD_BYTES)  # read until memory ran out before


def test_deep_nesting_is_refused_not_a_recursion_error():
    with pytest.raises(jsonfile.Unreadable, match="deeper than 64"):
        jsonfile.loads("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (lambda: "[" * 50_000 + "]" * 50_000, "deeper than 64"),
        (lambda: RECORD.read_text().replace('"seed": null', '"seed": ' + "7" * 5000), "integer of 5,000 digits"),
        (lambda: RECORD.read_text().replace('"scores": [', '"scores": [NaN, '), "has nan at scores.0"),
    ],
)
def test_replay_refuses_hostile_records_in_one_line(tmp_path, geodeck, content, phrase):
    path = tmp_path / "record.json"
    path.write_text(content(), encoding="utf-8")
    code, output = geodeck(["replay", path])
    assert code == 2 and phrase in output and "Traceback" not in output and len(output.strip().splitlines()) == 1


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_replay_and_play_check_refuse_what_is_not_a_regular_file(tmp_path, geodeck, special):
    path = Path(special) if special.startswith("/") else tmp_path / special
    if special == "fifo":
        os.mkfifo(path)
    elif special == "folder":
        path.mkdir()
    for args in (["replay", path], ["play-check", "world-game", "--deck", path, "--games", "5"]):
        code, output = geodeck(args)
        refused = "is not a regular file" in output or "is a directory" in output  # click refuses folders itself
        assert code == 2 and refused and "Traceback" not in output, (args, output)


def test_a_record_over_five_megabytes_is_refused(tmp_path, geodeck):
    path = tmp_path / "record.json"
    path.write_text(RECORD.read_text().replace('"deal": [', '"deal": [' + '"x", ' * 1_300_000), encoding="utf-8")
    code, output = geodeck(["replay", path])
    assert code == 2 and "more than the 5,000,000 allowed" in output


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=JSON, raw=st.binary(max_size=40))
def test_hostile_json_gives_a_value_or_unreadable_never_another_error(document, raw):
    for data in (json.dumps(document).encode(), raw, json.dumps(document).encode()[: len(raw)]):
        try:
            jsonfile.loads(data)
        except jsonfile.Unreadable as exc:
            assert "\n" not in str(exc)


RECORD_KEYS = ["format", "game", "deck", "options", "seats", "seed", "deal", "moves", "choices", "finished", "scores"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from([*RECORD_KEYS, "extra"]), value=JSON, index=st.integers(0, 20))
def test_hostile_records_are_refused_in_one_line_or_replay(tmp_path, key, value, index):
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    if isinstance(data.get(key), list) and data[key]:
        data[key][index % len(data[key])] = value  # one item of a list: a move, a card of the deal, a score
    else:
        data[key] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        record = records.load(path)
        replay.replay(
            games.get(record.game), record, replay.deck_of(games.get(record.game), record, None, str(path)), str(path)
        )
    except GeodeckError as exc:  # RecordError is one
        assert "\n" not in str(exc)


def test_a_keys_newline_is_shown_escaped_where_a_number_is_not_finite():
    """Hypothesis found it: {'\\n': inf} named its place with a raw newline, breaking the one-line error."""
    with pytest.raises(jsonfile.Unreadable) as caught:
        jsonfile.loads(b'{"\\n": Infinity}')
    assert "\n" not in str(caught.value) and "at \\n," in str(caught.value)
