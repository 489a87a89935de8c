"""Fuzz the files, not only the CLI: every reader kind registered in pipeline/readers.py is fed pipes, links to
/dev/zero, deep nesting, wrong types, files over its cap and control characters. Each read gives a document
or one line (an input: a GeodeckError; a cache: one warning, read as absent), with no traceback, no hang
(an alarm ends a read after 5 s) and nothing written (a damaged cache is removed, nothing else)."""

import contextlib
import io
import os
import re
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.jsonfile import Unreadable

SPECIAL = ["pipe", "dev-zero", "over-the-cap", "folder"]
SHAPES = ["[]", '"abc"', "null", "5", '{"a": 5}', '{"a": [1, "x"]}', '{"fingerprint": [], "outputs": 3}', "a = 1"]
CONTROLS = st.text(st.sampled_from("\x00\x07\x1b\x9b\u202e[]{}.=\"'\n#a1"), max_size=300)
CONTENTS = st.one_of(
    st.sampled_from(SPECIAL + SHAPES),
    st.integers(60, 100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(60, 100_000).map(lambda n: "a" + ".a" * n + " = 1"),
    st.integers(60, 5_000).map(lambda n: '{"a": ' * n + "1" + "}" * n),
    CONTROLS,
    CONTROLS.map(lambda text: '{"k": "' + text + '"}'),
    st.binary(max_size=300),
)


class Hung(Exception):
    pass


def make(path: Path, content: str | bytes, kind: readers.Kind) -> None:
    if content == "pipe":
        os.mkfifo(path)
    elif content == "dev-zero":
        path.symlink_to("/dev/zero")
    elif content == "folder":
        path.mkdir()
    elif content == "over-the-cap":
        with path.open("wb") as handle:
            handle.truncate(kind.max_bytes + 1)  # sparse: nothing written to disk
    else:
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))


def read(kind: readers.Kind, path: Path) -> str:
    """What reading `path` as `kind` said (stderr and the error line), within 5 s."""
    said = io.StringIO()

    def hung(_signum, _frame):
        raise Hung(f"reading a {kind.name} file took more than 5 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    try:
        with contextlib.redirect_stderr(said):
            if kind.parse is None:
                with readers.opened(kind.name, path) as handle:
                    handle.read(1 << 16)
            elif kind.cache:
                readers.read_cache(kind.name, path)
            else:
                readers.read_input(kind.name, path)
    except GeodeckError as error:
        assert not kind.cache, "a damaged cache is a warning, not an error"
        said.write(f"error: {error}\n")
    except Unreadable as why:
        assert kind.parse is None, "only opened kinds leave the wording to their caller"
        said.write(f"error: {path} {why}\n")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return said.getvalue()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(readers.KINDS)), content=CONTENTS)
def test_every_reader_kind_takes_a_hostile_file_in_one_line(tmp_path_factory, name, content):
    kind = readers.KINDS[name]
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "file"
    make(path, content, kind)
    before = sorted(folder.rglob("*"))
    said = read(kind, path)
    assert said.count("\n") <= 1 and "Traceback" not in said
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", said), f"raw control characters: {said!r}"
    if content in SPECIAL:
        assert said.count("\n") == 1, "a pipe, a device, a folder or a file over the cap is refused"
    after = sorted(folder.rglob("*"))
    assert after == before or (kind.cache and not after and said), "a read writes nothing (a cache: discards it)"


@pytest.mark.parametrize("name", sorted(readers.KINDS))
def test_each_kind_refuses_a_pipe_at_once(tmp_path, name):
    """Not left to chance: every kind, a pipe with no writer (a blocking open waited for ever before)."""
    make(tmp_path / "file", "pipe", readers.KINDS[name])
    assert "is not a regular file" in read(readers.KINDS[name], tmp_path / "file")
