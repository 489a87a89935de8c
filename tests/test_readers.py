"""The one guarded reader (pipeline/readers.py): source definitions, the download validator cache, the build's
import and step caches, flag drawings and build tables refuse pipes, devices, deep nesting, long dotted keys
and wrong shapes in one line; a damaged cache is one warning and rebuilt; no module reads a file around it."""

import ast
import json
import os
import time
from pathlib import Path

import pytest

from pipeline import paths, readers
from pipeline.build import runner
from pipeline.errors import GeodeckError
from pipeline.extract import http
from pipeline.extract.sources import load_source
from pipeline.framework.step import Step

SOURCE = paths.SOURCES_DIR / "factbook.toml"


def test_a_source_definition_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "demo.toml")
    with pytest.raises(GeodeckError, match=r"demo\.toml: this source definition is not a regular file"):
        load_source(tmp_path / "demo.toml")  # fetch hung here


def test_geodeck_fetch_names_a_source_definition_that_is_a_pipe_in_one_error_line(geodeck, tmp_path, monkeypatch):
    from pipeline.extract import sources as definitions

    os.mkfifo(tmp_path / "demo.toml")
    monkeypatch.setattr(definitions.select, "__defaults__", (tmp_path,))
    code, output = geodeck(["fetch", "--offline"], GEODECK_STORE=str(tmp_path / "store"))
    assert code == 2 and output.startswith("error: ") and output.count("\n") == 1
    assert "demo.toml: this source definition is not a regular file" in output


def test_a_source_definition_linked_to_dev_zero_is_refused(tmp_path):
    (tmp_path / "demo.toml").symlink_to("/dev/zero")
    with pytest.raises(GeodeckError, match="is not a regular file"):
        load_source(tmp_path / "demo.toml")  # a MemoryError before


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000, "nests arrays or tables deeper than 64 levels"),  # RecursionError
        ("a" + ".a" * 50_000 + " = 1\n", "has a key of more than 64 dotted parts"),  # 218 s of parsing
        ("[" + ".".join(["t"] * 70) + "]\n", "has a key of more than 64 dotted parts"),
        ("x = {" + "a = {" * 70 + "}" * 71, "nests arrays or tables deeper than 64 levels"),
    ],
)
def test_toml_nesting_and_dotted_keys_are_refused_at_once(tmp_path, text, phrase):
    path = tmp_path / "demo.toml"
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(GeodeckError, match=phrase) as caught:
        load_source(path)
    assert time.monotonic() - started < 1 and "\n" not in str(caught.value)


def test_strings_comments_and_floats_do_not_count_as_nesting_or_keys():
    text = 'a.b."c.d" = 1.5 # [[[[ ...\ns = "' + "[{." * 100 + '"\nm = """\n' + "[." * 100 + '\n"""\n'
    assert readers.toml_document(text.encode())["a"]["b"]["c.d"] == 1.5


def test_every_project_toml_and_csv_is_within_its_limits():
    for path in [*paths.SOURCES_DIR.glob("*.toml"), *paths.TEMPLATES_DIR.rglob("*.toml")]:
        readers.read("toml", path)
    for path in [*paths.SOURCES_DIR.glob("*.csv"), *paths.TEMPLATES_DIR.rglob("*.csv")]:
        readers.read("csv", path)


def hostile(path: Path, how: str) -> None:
    if how == "pipe":
        os.mkfifo(path)
    elif how == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_text(how, encoding="utf-8")


CACHE_DAMAGE = ["pipe", "dev-zero", "[" * 100_000 + "]" * 100_000, "[]", '"abc"', "{", '{"a": 5}', '{"a": [1]}']


@pytest.mark.parametrize("damage", CACHE_DAMAGE, ids=range(len(CACHE_DAMAGE)))
def test_a_damaged_import_cache_is_one_warning_and_rebuilt(tmp_path, monkeypatch, capsys, damage):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    (tmp_path / "steps").mkdir()
    hostile(tmp_path / "steps" / "imports.json", damage)
    sums = runner.Checksums()  # 7 tracebacks and two hangs among these before
    assert sums.imports == {}
    assert sums.modules(paths.ROOT / "pipeline" / "readers.py", "pipeline.readers")  # read again
    warning = capsys.readouterr().err
    assert warning.startswith(f"warning: {tmp_path / 'steps' / 'imports.json'}: this import list cache ")
    assert warning.count("\n") == 1 and "discarded" in warning


STAMP_DAMAGE = [*CACHE_DAMAGE, '{"fingerprint": 5, "outputs": {}}', '{"fingerprint": "f", "outputs": {"a": 1}}']


@pytest.mark.parametrize("damage", STAMP_DAMAGE, ids=range(len(STAMP_DAMAGE)))
def test_a_damaged_step_stamp_is_one_warning_and_the_step_runs_again(tmp_path, monkeypatch, capsys, damage):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path))
    (tmp_path / "steps").mkdir()
    step = Step("demo", "demo", "pipeline.readers")
    hostile(runner.stamp_path("demo"), damage)
    assert not runner.is_fresh(step, "fingerprint", runner.Checksums())
    warning = capsys.readouterr().err
    assert "this step stamp " in warning and "the step runs again" in warning and warning.count("\n") == 1


@pytest.mark.parametrize("damage", CACHE_DAMAGE[:5], ids=range(5))
def test_a_damaged_validator_cache_turns_conditional_requests_off_with_one_warning(tmp_path, capsys, damage):
    hostile(tmp_path / ".http-cache.json", damage)
    assert http.session(cache=tmp_path / ".http-cache.json").validators == {}
    assert capsys.readouterr().err.count("\n") == 1


def test_a_validator_cache_that_is_well_formed_is_read(tmp_path):
    (tmp_path / ".http-cache.json").write_text(json.dumps({"https://x/a": {"etag": "1"}}), encoding="utf-8")
    assert http.session(cache=tmp_path / ".http-cache.json").validators == {"https://x/a": {"etag": "1"}}


def test_a_build_table_replaced_by_a_pipe_is_reported_as_a_pipe(tmp_path):
    from pipeline.build import graph
    from pipeline.decks.stage import fresh_deck
    from pipeline.games import registry as games

    table = tmp_path / games.get("deutschland").input_table
    table.parent.mkdir(parents=True)
    os.mkfifo(table)
    with pytest.raises(GeodeckError) as caught:
        fresh_deck(games.get("deutschland"), build_root=tmp_path)
    assert "is not a regular file" in str(caught.value) and "does not exist" not in str(caught.value)
    table.unlink()
    with pytest.raises(
        GeodeckError, match="this build table does not exist; rebuild it with `geodeck build --stage geo-places`"
    ):
        fresh_deck(games.get("deutschland"), tmp_path, graph.rebuild(games.get("deutschland")))  # as the build asks


def test_a_repo_file_that_is_a_pipe_stops_a_fingerprint_in_one_line(tmp_path):
    from pipeline.hashing import file_sha256

    os.mkfifo(tmp_path / "layout.toml")  # a build's fingerprint hashes repo files: it hung here
    with pytest.raises(GeodeckError, match="layout.toml is not a regular file"):
        file_sha256(tmp_path / "layout.toml")
    (tmp_path / "a").write_bytes(b"abc")
    assert file_sha256(tmp_path / "a") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    with pytest.raises(FileNotFoundError):
        file_sha256(tmp_path / "absent")


def test_a_flag_drawing_cache_that_is_a_pipe_or_dev_zero_is_discarded(tmp_path, capsys):
    from pipeline.render import flags  # noqa: F401 (registers the drawing kind)

    for how in ("pipe", "dev-zero"):
        hostile(tmp_path / how, how)
        assert readers.read_cache("drawing", tmp_path / how) is None  # print hung / ran out of memory
    assert capsys.readouterr().err.count("this flag drawing cache is not a regular file") == 2


# Calls that read a file, allowed outside pipeline/readers.py and pipeline/jsonfile.py only where listed here.
RAW_READS = {"read_text", "read_bytes", "open", "fdopen", "read_parquet", "read_csv", "svg2rlg", "load", "loads"}
ALLOWED = {
    ("atomic.py", "fdopen"): "writes",
    ("decks/versions.py", "open"): "writes a staged deck file, fsyncs a folder",
    ("extract/http.py", "open"): "the download it just wrote",
    ("extract/refresh.py", "loads"): "an upstream answer, bounded by the download limits",
    ("extract/store.py", "open"): "a store or mirror file, is_file() first, hashed in chunks",
    ("locking.py", "open"): "the lock file (written)",
    ("compiled.py", "open"): "the compile log (written)",
    ("compiled.py", "fdopen"): "a copy of stdout, the terminal the compile's progress goes to",
    ("workers.py", "open"): "the kernel's /proc/meminfo and /proc/PID/stat",
    ("build/runner.py", "read_bytes"): "a Python module of the package, already imported",
    ("render/drawings.py", "loads"): "the parser of the drawing kind (render/flags.py: DRAWING)",
    ("render/press.py", "open"): "pikepdf opens the PDF it just drew, in memory",
    ("render/services.py", "open"): "pikepdf opens the PDF img2pdf just made of the faces, in memory",
    ("render/tts.py", "open"): "Pillow opens a face PNG it just rendered, in memory",
    ("render/flags.py", "open"): "Pillow opens a PNG it just rendered, in memory",
    ("games/custom/pictures.py", "open"): "Pillow opens a picture read by readers.read('picture'), in memory",
    ("render/flags.py", "svg2rlg"): "an SVG opened by readers.opened",
    ("framework/core.py", "loads"): "a serialised state passed in memory",
    ("i18n/extract.py", "loads"): "a template Babel opened for `pybabel extract` (make messages)",
    ("playcheck/play.py", "loads"): "a deck passed in memory",
    ("validate/towns.py", "loads"): "pandas' own JSON in memory",
    ("geo/grid.py", "read_csv"): "text read by readers.read_input",
    ("transform/reviewed_temperatures.py", "read_csv"): "text read by readers.read_input",
    ("studio/drafts.py", "read_bytes"): "the form the studio wrote itself, hashed as its preview's key",
    ("studio/drafts.py", "read_text"): "the recipe the studio wrote from its own form, checked by recipe.load",
    ("studio/listing.py", "read_text"): "the report.md `geodeck play-check` wrote, shown escaped",
}
PINNED = (  # parse the bytes of pinned store files (sha256-checked)
    "transform/parsers/",
    "render/maps.py",
    "games/deutschland/states.py",
    "games/region/geography.py",
    "games/world_game/accessories.py",
)


def raw_reads() -> set[tuple[str, str]]:
    found = set()
    for path in sorted((paths.ROOT / "pipeline").rglob("*.py")):
        module = path.relative_to(paths.ROOT / "pipeline").as_posix()
        if module in ("readers.py", "jsonfile.py") or module.startswith(PINNED):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in RAW_READS:
                continue
            owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
            if owner not in ("jsonfile", "readers") and (name not in ("load", "loads") or owner in ("json", "tomllib")):
                found.add((module, name))
    return found


def test_no_module_reads_a_file_around_the_guarded_reader():
    found = raw_reads()
    unlisted = found - set(ALLOWED)
    assert not unlisted, f"read these through pipeline.readers (register a Kind) or list them in ALLOWED: {unlisted}"
    assert not set(ALLOWED) - found, "ALLOWED lists a read that is gone: remove it"


def test_every_registered_kind_has_a_cap_and_says_how_it_recovers():
    for kind in readers.KINDS.values():
        assert kind.max_bytes > 0 and kind.what
        assert kind.rebuilt if kind.cache else kind.fix, f"{kind.name} says neither its fix nor its rebuild"
