"""The sources loader: every malformed definition (wrong types, a name other than the file's, a non-UTF-8 file,
unknown keys, hostile values) is one GeodeckError line naming the file, never another exception."""

import string
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import GeodeckError
from pipeline.extract import load_source, load_sources
from pipeline.paths import SOURCES_DIR

GOOD: dict[str, Any] = {
    "source": {
        "name": "demo",
        "producer": "p",
        "license": "l",
        "citation": "c",
        "vintage": "v",
        "date_accessed": "2026-11-01",
    },
    "refresh": {"method": "url", "urls": {"a.csv": "https://example.org/a.csv"}, "content_types": ["text/csv"]},
    "files": [{"path": "a.csv", "sha256": "0" * 64, "bytes": 3, "url": "https://example.org/a.csv"}],
}


def write(folder: Path, document: dict, name: str = "demo") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(tomlkit.dumps(document), encoding="utf-8")
    return path


DELETE = object()


def with_value(where: tuple, value: object, document: dict | None = None) -> dict:
    """GOOD (or `document`) with the value at `where` (a path of keys and indexes) replaced, or deleted."""
    document = tomllib.loads(tomlkit.dumps(GOOD)) if document is None else document
    node = document
    for key in where[:-1]:
        node = node[key]
    if value is DELETE:
        del node[where[-1]]
    else:
        node[where[-1]] = value
    return document


def test_the_good_definition_loads(tmp_path):
    source = load_source(write(tmp_path, GOOD))
    assert source.file("a.csv").bytes == 3 and source.refresh is not None
    assert source.refresh.content_types == ("text/csv",)


def test_a_definition_is_parsed_once_until_its_file_changes(tmp_path, monkeypatch):
    from pipeline.extract import sources

    edited = with_value(("files", 0, "bytes"), 4)
    parsed: list[str] = []
    loads = tomllib.loads

    def counted(text: str) -> dict:
        parsed.append(text)
        return loads(text)

    monkeypatch.setattr(sources.readers.tomllib, "loads", counted)
    path = write(tmp_path, GOOD)
    assert load_source(path) == load_source(path) and len(parsed) == 1
    write(tmp_path, edited)
    assert load_source(path).file("a.csv").bytes == 4 and len(parsed) == 2


BAD = {
    "url = 5": (("files", 0, "url"), 5, r"\[\[files\]\] 1: url is an integer \(5\); expected a string"),
    "url not a web address": (("files", 0, "url"), "file:///etc/passwd", "is not an http"),
    "bytes a string": (("files", 0, "bytes"), "3", "bytes is a string .*expected a whole number"),
    "bytes a float": (("files", 0, "bytes"), 3.0, "bytes is a float .*expected a whole number"),
    "bytes a boolean": (("files", 0, "bytes"), True, "bytes is a boolean"),
    "sha256 an array": (("files", 0, "sha256"), ["0" * 64], "sha256 is an array"),
    "a typo in a key": (("files", 0, "sha265"), "0" * 64, "unknown key sha265"),
    "producer a table": (("source", "producer"), {"a": 1}, r"\[source\]: producer is a table"),
    "no citation": (("source", "citation"), DELETE, "citation missing"),
    "kind unknown": (("source", "kind"), "zip", "kind 'zip' is not one of files, package"),
    "package without version": (("source", "kind"), "package", "a package source needs version"),
    "files a table": (("files",), {"path": "a.csv"}, "files must be"),
    "a file not a table": (("files", 0), "a.csv", r"\[\[files\]\] 1: expected a table, got a string"),
    "refresh a string": (("refresh",), "github", r"\[refresh\]: expected a table"),
    "refresh method": (("refresh", "method"), "ftp", "method 'ftp' is not one of"),
    "refresh urls": (("refresh", "urls", "a.csv"), 7, r"urls is a table .*expected a table of strings"),
    "content types": (("refresh", "content_types"), "text/csv", "content_types is a string"),
    "an unknown table": (("extra",), {"x": 1}, "unknown table extra"),
    "name a number": (("source", "name"), 5, "name is an integer"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_definition_is_one_line_naming_the_file(tmp_path, case):
    where, value, message = BAD[case]
    path = write(tmp_path, with_value(where, value))
    with pytest.raises(GeodeckError, match=message) as error:
        load_source(path)
    assert str(error.value).startswith(f"{path}: ") and "\n" not in str(error.value)


def test_a_name_other_than_the_files_is_an_error(tmp_path):
    path = write(tmp_path, GOOD, name="other")
    with pytest.raises(
        GeodeckError, match=r"other\.toml: source name 'demo' is not the file's name; set name = \"other\""
    ):
        load_source(path)


def test_a_duplicate_source_name_is_an_error(tmp_path):
    """Two definitions claiming one name: the second file's name differs from its own, so it is refused."""
    write(tmp_path, GOOD)
    write(tmp_path, GOOD, name="demo2")
    with pytest.raises(GeodeckError, match=r"demo2\.toml: source name 'demo' is not the file's name"):
        load_sources(tmp_path)


def test_a_file_pinned_twice_is_an_error(tmp_path):
    document = with_value(("files",), GOOD["files"] * 2)
    with pytest.raises(GeodeckError, match="file a.csv is pinned twice"):
        load_source(write(tmp_path, document))


def test_a_non_utf8_file_is_one_line(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_bytes(tomlkit.dumps(GOOD).replace('producer = "p"', 'producer = "M\xfcller"').encode("latin-1"))
    with pytest.raises(GeodeckError, match=r"demo\.toml: this source definition is not UTF-8 text \(byte \d+\)"):
        load_source(path)


def test_a_folder_named_like_a_definition_is_one_line(tmp_path):
    (tmp_path / "demo.toml").mkdir()
    with pytest.raises(GeodeckError, match=r"demo\.toml: this source definition is not a regular file"):
        load_sources(tmp_path)


def test_every_project_definition_loads_and_is_named_by_its_file():
    assert {p.stem for p in SOURCES_DIR.glob("*.toml")} == set(load_sources())


# Hostile values: every TOML type, odd strings, huge and negative numbers, nested arrays and tables.
scalars = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", "../x", "/etc/passwd", "a\\b", "https://", "http://x/\x00", "0" * 64, "package", "url"]),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.dates(),
    st.datetimes(),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(string.ascii_lowercase, max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = [
    ("source",),
    ("source", "name"),
    ("source", "kind"),
    ("source", "version"),
    ("source", "producer"),
    ("files",),
    ("files", 0),
    ("files", 0, "path"),
    ("files", 0, "sha256"),
    ("files", 0, "bytes"),
    ("files", 0, "url"),
    ("files", 0, "layer"),
    ("refresh",),
    ("refresh", "method"),
    ("refresh", "branch"),
    ("refresh", "urls"),
    ("refresh", "content_types"),
    ("refresh", "urls", "a.csv"),
    ("extra",),
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(KEYS), values), min_size=1, max_size=3))
def test_hostile_values_give_a_geodeck_error_or_a_source(tmp_path, changes):
    document = tomllib.loads(tomlkit.dumps(GOOD))
    for where, value in changes:
        try:
            document = with_value(where, value, document)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the place this one writes to
    path = tmp_path / "demo.toml"
    try:
        path.write_text(tomlkit.dumps(document), encoding="utf-8")
    except (ValueError, TypeError, UnicodeEncodeError):
        return  # not expressible as TOML (tomlkit refuses it): nothing a user could write
    check_loads(path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_give_a_geodeck_error(tmp_path, data):
    path = tmp_path / "demo.toml"
    path.write_bytes(data)
    check_loads(path)


def check_loads(path: Path) -> None:
    """load_source gives a Source or one GeodeckError line naming the file; any other exception fails."""
    try:
        load_source(path)
    except GeodeckError as error:
        assert str(error).startswith(f"{path}: ")
        assert "\n" not in str(error)


def test_geodeck_fetch_names_the_bad_definition_in_one_line(geodeck, tmp_path, monkeypatch):
    from pipeline.extract import sources as definitions

    write(tmp_path, with_value(("files", 0, "url"), 5))
    monkeypatch.setattr(definitions.select, "__defaults__", (tmp_path,))
    code, output = geodeck(["fetch", "--offline"], GEODECK_STORE=str(tmp_path / "store"))
    assert code == 2
    assert (
        "demo.toml: " in output and "1: url is an integer (5); expected a string" in output
    )  # [[files]]: see the printer
    assert "Traceback" not in output and len(output.strip().splitlines()) == 1
