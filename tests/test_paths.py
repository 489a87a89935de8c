"""Folder overrides: an empty environment variable means unset, never the current folder."""

import ast
from pathlib import Path

import pytest

from pipeline import paths


@pytest.mark.parametrize("value", ["", " "])
def test_empty_variables_mean_unset(monkeypatch, tmp_path, value):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for variable in ("GEODECK_STORE", "GEODECK_BUILD", "GEODECK_MIRROR"):
        monkeypatch.setenv(variable, value)
    assert paths.store_dir() == tmp_path / "home" / ".cache" / "geodeck"
    assert paths.build_dir() == paths.ROOT / "build"
    assert paths.default_mirror() is None


def test_set_variables_are_used(monkeypatch, tmp_path):
    for variable in ("GEODECK_STORE", "GEODECK_BUILD", "GEODECK_MIRROR"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    assert (paths.store_dir(), paths.build_dir(), paths.default_mirror()) == (
        tmp_path / "GEODECK_STORE",
        tmp_path / "GEODECK_BUILD",
        tmp_path / "GEODECK_MIRROR",
    )


def test_fetch_with_an_empty_store_variable_writes_nothing_here(geodeck, mirror, tmp_path, monkeypatch):
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, output = geodeck(["fetch", "highest-points-7summits", "--offline", "--mirror", mirror], GEODECK_STORE="")
    assert code == 0, output
    assert list(Path.cwd().iterdir()) == []
    assert (tmp_path / "home" / ".cache" / "geodeck").is_dir()


OUTPUT_FOLDERS = {"OUTPUT_DIR", "DECKS_DIR", "PRINT_DIR"}


def _binds_an_output_folder(tree: ast.Module) -> list[int]:
    """Lines where a module takes an output folder's value before a call: `from pipeline.paths import
    OUTPUT_DIR`, or `paths.OUTPUT_DIR` read at import (a module-level statement or a default argument)."""
    lines = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module == "pipeline.paths"
        and OUTPUT_FOLDERS & {alias.name for alias in node.names}
    ]
    read_at_import: list[ast.AST] = [
        statement for statement in tree.body if not isinstance(statement, ast.FunctionDef | ast.ClassDef)
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            read_at_import += node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
    for root in read_at_import:
        lines += [
            node.lineno
            for node in ast.walk(root)
            if isinstance(node, ast.Attribute) and node.attr in OUTPUT_FOLDERS and not isinstance(node.ctx, ast.Store)
        ]
    return lines


def test_output_folders_are_read_when_called():
    """A test points paths.OUTPUT_DIR (and PRINT_DIR, DECKS_DIR) at its own folder (conftest `own_folders`); a
    module that copied the value at import would still write into the checkout's output/ (issue 47: an export
    test left a zip there)."""
    found = {
        str(path.relative_to(paths.ROOT)): lines
        for path in sorted((paths.ROOT / "pipeline").rglob("*.py"))
        if path.name != "paths.py" and (lines := _binds_an_output_folder(ast.parse(path.read_text())))
    }
    assert found == {}


def test_the_guard_finds_an_import_time_folder():
    bound = ast.parse(
        "from pipeline.paths import PRINT_DIR\nfrom pipeline import paths\nEXPORT = paths.OUTPUT_DIR / 'export'\n"
        "def write(folder=paths.DECKS_DIR): ...\ndef later(): return paths.OUTPUT_DIR\n"
    )
    assert _binds_an_output_folder(bound) == [1, 3, 4]
