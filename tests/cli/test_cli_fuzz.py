"""Fuzz the command line, not only the parsers: every command with hostile values on its arguments and
options (found by walking the click commands, so a new option is fuzzed too). Each run ends with an exit
code (0 when the values happen to be valid), at most one error line, no traceback, and nothing written
outside the test's folders. The long work behind a command (printing, play-check, playing, building,
fetching) is replaced by a marker: the fuzz is about what reaches it, not about running it."""

import os
from contextlib import suppress
from datetime import timedelta
from pathlib import Path
from typing import Any

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import paths
from pipeline.cli import cli
from pipeline.games import registry as games

HOSTILE = [
    "",
    " ",
    "nan",
    "-inf",
    "1e309",
    "-1",
    "0",
    "99999999999999999999999",
    "0x10",
    "1,5",
    "[bold]x[/]",
    "../../../etc/passwd",
    "/dev/null",
    "/dev/zero",
    "/proc/version",
    "{tmp}",
    "{tmp}/file",
    "{tmp}/file/under.pdf",
    "{tmp}/new/out.pdf",
    "bogus://x",
    "2026.11.0",
    "9999.1.0",
    "x" * 3000,
    "ä\u202eü",
    "--help",
]

LONG_WORK = [
    "pipeline.render.printing.print_deck",
    "pipeline.render.kit.print_kit",
    "pipeline.render.accessories.print_accessories",
    "pipeline.render.calibration.render",
    "pipeline.playcheck.runner.check",
    "pipeline.play.loop.play",
    "pipeline.build.runner.build",
    "pipeline.extract.fetch.fetch_sources",
    "pipeline.extract.refresh.refresh",
    "pipeline.extract.http.download_to",
    "pipeline.review.page.write",
    "pipeline.studio.server.run",  # serves until Ctrl-C
]


class Reached(Exception):
    """The command's values passed every check and its long work would start."""


def commands() -> list[tuple[str, click.Command]]:
    found = []
    for name, command in cli.commands.items():
        if isinstance(command, click.Group):
            found += [(f"{name} {sub}", c) for sub, c in command.commands.items()]
        else:
            found.append((name, command))
    return sorted(found, key=lambda pair: pair[0])


def values_for(param: click.Parameter) -> st.SearchStrategy[str]:
    valid: list[str] = []
    if isinstance(param.type, click.Choice):
        valid = [str(c) for c in param.type.choices] or games.names()
    return st.sampled_from(valid + HOSTILE) if valid else st.sampled_from(HOSTILE)


@st.composite
def invocations(draw) -> list[str]:
    name, command = draw(st.sampled_from(commands()))
    args = name.split()
    for param in command.params:
        if isinstance(param, click.Argument):
            count = 1 if param.nargs == 1 else draw(st.integers(0, 2))
            if not param.required and not draw(st.booleans()):
                continue
            args += [draw(values_for(param)) for _ in range(count)]
        elif isinstance(param, click.Option) and draw(st.integers(0, 3)) == 0:
            if param.is_flag:
                args.append(param.opts[0])
            elif param.name != "help":
                args += [param.opts[0], draw(values_for(param))]
    return args


def files_under(folder: Path) -> dict[str, float]:
    """Each file under `folder` (symlinks to files too, not into folders) by path, with its mtime; by os.walk,
    one stat a file (run twice an example: pathlib's rglob and is_file took a third of the test's time)."""
    found = {}
    for root, _folders, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with suppress(FileNotFoundError):  # a dangling symlink: no file
                found[path] = os.stat(path).st_mtime
    return found


@pytest.fixture
def sandbox(tmp_path, monkeypatch, decks):
    """Store, build, print and record folders inside tmp_path; the long work raises Reached."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GEODECK_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.delenv("GEODECK_MIRROR", raising=False)
    monkeypatch.setattr(paths, "PRINT_DIR", tmp_path / "print")
    monkeypatch.setattr(paths, "OUTPUT_DIR", tmp_path / "output")

    def reached(*_args, **_kwargs):
        raise Reached

    for target in LONG_WORK:
        monkeypatch.setattr(target, reached)
    (tmp_path / "file").write_text("keep")
    return tmp_path


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=invocations())
def test_hostile_command_lines_end_cleanly_and_write_nothing_outside(args, sandbox, geodeck):
    project_output = files_under(paths.ROOT / "output")
    argv = [a.replace("{tmp}", str(sandbox)) for a in args]
    try:
        code, output = geodeck(argv)
    except Reached:
        return
    assert "Traceback" not in output, (argv, output)
    assert code in (0, 1, 2, 3, 130), (argv, code, output)
    if code != 0:
        assert output.count("error:") == 1 or code in (1, 3), (argv, output)
    assert (sandbox / "file").read_text() == "keep"
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
    assert files_under(paths.ROOT / "output") == project_output, argv


# Recipes and tables (issue 49): `deck new` of a recipe with one hostile value, or of a table with one hostile
# cell or of another type, is refused: exit 2, one line per problem, no traceback, within the deadline; nothing
# reaches the card search (a recipe that did would be a silent accept).

RECIPE_TABLE = Path(__file__).parents[1] / "fixtures" / "recipes" / "german-states.csv"
OSC, CSI, RLO = "\x1b]0;owned\x07", "\x1b[2J", "\u202e"
HOSTILE_WORDS = [f"A{OSC}", f"{CSI}A", f"A{RLO}B", "x" * 20_000, "\x00", "\x9b31m"]
HOSTILE_RECIPE = [
    *[(("recipe", "title"), value) for value in [*HOSTILE_WORDS, "T" * 300]],
    *[(("categories", 0, "words", "label"), value) for value in HOSTILE_WORDS],
    *[(("categories", 1, "words", "unit"), "{n} " + value) for value in HOSTILE_WORDS],
    *[(("categories", 2, "words", "strip"), ["A", value]) for value in HOSTILE_WORDS],
    *[(("recipe", "lang"), value) for value in ["xx", "de_DE", "../../etc", "zh", "DE", "de-AT", "", RLO]],
    *[(("recipe", key), "x") for key in ["titel", "lnag", "nmae"]],
    *[(("recipe", "cards"), value) for value in [-5, 0, 10**30, 1.5, True, "16"]],
    *[(("items", "header"), value) for value in [-5, 0, 10**30, "3"]],
    *[(("items", "sheet"), value) for value in ["", 3, "Nowhere"]],
    *[(("categories", 0, "pattern"), value) for value in ["0." + "0" * 300, "abc", "0.0000000", "'", ""]],
    *[(("categories", 0, "decimals"), value) for value in [-1, 99, 1e309]],
    (("recipe", "jokers"), [["Nord", "Süd" + OSC]]),
]
HOSTILE_CELLS = [
    *[("Fläche (km²)", value) for value in ["inf", "Infinity", "-inf", "1e308", "1e309", "1e400", "nan", "NaN"]],
    *[("Fläche (km²)", value) for value in ["1.5.5", "0x10", "½", "12 km²", "=1+1", "١٢"]],
    *[("Region", value) for value in ["", " "]],
    *[("Land", value) for value in ["", "bayern ", " BAYERN", f"A{OSC}", f"{RLO}B", "x" * 2_000]],
]
HOSTILE_FILES = [b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), b"PK\x03\x04" + bytes(64), b"\x00\x01", b"", b"\xff"]


def recipe_of(table: str, change: tuple | None = None) -> str:
    import tomlkit

    document = {
        "recipe": {
            "name": "fuzz",
            "game": "laender-toppen",
            "title": "Fuzz",
            "lang": "de",
            "cards": 16,
            "jokers": [["Nord", "Süd"], ["Ost", "West"], ["Nord", "Ost"], ["Süd", "West"]],
        },
        "items": {"table": table, "columns": {"name": "Land", "group": "Region", "source": "Quelle"}},
        "categories": [
            {"field": field, "words": {"label": field[:6], "unit": "{n}"}}
            for field in ("Fläche (km²)", "Einwohner (Mio.)", "Hauptstadt (Tsd. Einw.)")
        ],
    }
    if change is not None:
        (*path, last), value = change
        inner: Any = document
        for key in path:
            inner = inner[key]
        inner[last] = value
    return tomlkit.dumps(document)


def table_of(kind: str, change: tuple[str, str] | None, row: int) -> bytes:
    import io

    import pandas as pd

    frame = pd.read_csv(RECIPE_TABLE, dtype=str)
    if change is not None:
        column, value = change
        if frame.at[row, column].strip().casefold() == value.strip().casefold():  # a name written again: another row
            row = (row + 1) % len(frame)
        frame.loc[row, column] = value
    if kind == "csv":
        return frame.to_csv(index=False).encode("utf-8")
    buffer = io.BytesIO()
    frame.to_excel(buffer, index=False)
    return buffer.getvalue()


@st.composite
def hostile_decks(draw) -> tuple[str, bytes, str]:
    """(recipe, table bytes, table suffix) with exactly one hostile value somewhere."""
    kind = draw(st.sampled_from(["csv", "xlsx"]))
    where = draw(st.sampled_from(["recipe", "cell", "file"]))
    if where == "recipe":
        return recipe_of(f"table.{kind}", draw(st.sampled_from(HOSTILE_RECIPE))), table_of(kind, None, 0), kind
    if where == "cell":
        cell = draw(st.sampled_from(HOSTILE_CELLS))
        kind = "csv" if any(ord(c) < 32 for c in cell[1]) else kind  # XLSX holds no control character
        return recipe_of(f"table.{kind}"), table_of(kind, cell, draw(st.integers(0, 15))), kind
    data = draw(st.sampled_from([*HOSTILE_FILES, table_of("xlsx", None, 0)[:2_000]]))
    return recipe_of(f"table.{kind}"), data, kind


@settings(
    max_examples=120,
    deadline=timedelta(seconds=20),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=hostile_decks())
def test_hostile_recipes_and_tables_are_refused_in_one_line_each(case, tmp_path, monkeypatch, geodeck):
    recipe, data, kind = case
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "decks")

    def reached(*_args, **_kwargs):
        raise Reached

    monkeypatch.setattr("pipeline.games.custom.optimise.choose", reached)
    (tmp_path / f"table.{kind}").write_bytes(data)
    (tmp_path / "recipe.toml").write_text(recipe, encoding="utf-8")
    try:
        code, output = geodeck(["deck", "new", str(tmp_path / "recipe.toml"), "--games", "20", "--jobs", "1"])
    except Reached:
        pytest.fail(f"a hostile recipe or table reached the card search: {recipe[:300]!r}")
    lines = output.splitlines()
    assert "Traceback" not in output and code == 2, output[-2_000:]
    assert lines and all(line.startswith(("error: ", "note: ")) for line in lines), output[-2_000:]
    assert all(len(line) <= 1_000 for line in lines) and not any(c in output for c in "\x1b\x9b\u202e\x00")


# Catalogues from $GEODECK_LOCALES (issue 49): hostile headers and translations of real messages.
PLURAL_FORMS = [
    "nplurals=2; plural=(n != 1);",
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "nplurals=2; plural=(n/0);",
    "nplurals=2; plural=" + "(" * 5000 + "n" + ")" * 5000 + ";",
    "nplurals=2; plural=99;",
    "nplurals=2; plural=-1;",
    "nplurals=2; plural=__import__('os').system('id');",
    "nplurals=999999999999; plural=0;",
    "nplurals=-3; plural=0;",
    "nplurals=x; plural=0;",
    "nplurals=2; plural=n ? : 1;",
    "nplurals=2",
    "",
]
LANGUAGE = ["fr_FR", "", "tlh_XX", "../../etc", "de-AT", "en", "x" * 300]
MSGSTR = [
    "{0.__globals__}",
    "{nope}",
    "{version.__class__.__mro__}",
    "{n:>99999999}",
    "{n!x}",
    "{}{0}",
    "{{n}}",
    "{n}}",
    "<img src='/dev/zero'/>",
    '<a href="e:x">A</a>',
    "&lt;&#65; &",
    "<b>",
    "</b>",
    "<br/>",
    "\u202e",
    "x" * 20_000,
    "%(n)s",
    "",
]
FUZZED = [  # (msgid, its plural or None, its fields)
    ("{label}: {value}", None, {"label": "L", "value": "V"}),
    ("Version {version}", None, {"version": "2026.1.0"}),
    ("{n} card", "{n} cards", {}),
    ("<b>Goal:</b> win", None, {}),
]


def po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


@st.composite
def catalogues(draw) -> tuple[str, str]:
    """(folder name, catalogue text): a header and a few real messages translated with hostile pieces."""
    header = [f"Plural-Forms: {draw(st.sampled_from(PLURAL_FORMS) | st.text(max_size=40))}"]
    language = draw(st.sampled_from(LANGUAGE))
    if language or draw(st.booleans()):
        header.append(f"Language: {language}")
    lines = ['msgid ""', "msgstr " + po_string("\n".join(header) + "\n")]
    piece = st.sampled_from(MSGSTR) | st.text(alphabet='{}<>&!:.0n/bx \\"%', max_size=12)
    for msgid, plural, _ in draw(st.lists(st.sampled_from(FUZZED), max_size=4, unique_by=lambda m: m[0])):
        lines += ["", f"msgid {po_string(msgid)}"]
        if plural is not None:
            lines.append(f"msgid_plural {po_string(plural)}")
        for i in range(1 if plural is None else draw(st.integers(1, 3))):
            translated = (msgid if draw(st.booleans()) else "") + draw(piece)
            lines.append(
                f"msgstr {po_string(translated)}" if plural is None else f"msgstr[{i}] {po_string(translated)}"
            )
    if draw(st.integers(0, 9)) == 0:
        lines.append(draw(st.text(max_size=30)))  # a broken line
    return draw(st.sampled_from(["xx", "fr", "klingon", "x y"])), "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(catalogue=catalogues())
def test_a_hostile_catalogue_is_one_line_or_prints_only_text(catalogue, tmp_path_factory, monkeypatch):
    """Every command reads the registry first (tests/i18n/test_catalogue_checks.py runs `geodeck games`): a hostile
    catalogue is one error line naming it, or its messages fill their fields and pick a plural form for any n."""
    from pipeline.errors import GeodeckError
    from pipeline.i18n import catalogue as messages
    from pipeline.i18n import registry

    folder, text = catalogue
    root = tmp_path_factory.mktemp("locales")
    path = root / folder / "LC_MESSAGES" / f"{registry.domain()}.po"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("GEODECK_LOCALES", str(root))
    registry.languages.cache_clear()
    try:
        try:
            registry.codes()
        except GeodeckError as exc:
            assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc), str(exc)
            return
        for msgid, plural, fields in FUZZED:
            if plural is None:
                shown = messages.translate(folder, msgid, **fields)
            else:
                shown = messages.translate_plural(folder, msgid, plural, 3, **fields)
                for n in (0, 1, 2, 5, 22, 1000, 10**6):
                    messages.form(folder, (msgid, plural), n)
            assert "__" not in shown
    finally:
        monkeypatch.delenv("GEODECK_LOCALES")
        registry.languages.cache_clear()
