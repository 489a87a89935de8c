"""The engines compiled with mypyc (pipeline/compiled.py): never stale, never different from their source."""

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import compiled
from pipeline.games import registry as games

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
GEODECK = str(Path(sys.executable).parent / "geodeck")
BUILT = all(map(compiled.extensions, compiled.sources())) and not compiled.stale()  # by `make install`


def package(tmp_path: Path) -> Path:
    """A package laid out like pipeline: framework/core.py and two games' engine.py, each with an extension."""
    root = tmp_path / "pkg"
    for source in ("framework/core.py", "games/a/engine.py", "games/b/engine.py", "games/b/cards.py"):
        path = root / source
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("VALUE = 'source'\n")
        if source != "games/b/cards.py":
            path.with_name(path.stem + SUFFIX).write_bytes(b"not really compiled")
    return root


def test_an_extension_older_than_its_source_runs_every_engine_from_source(tmp_path):
    root = package(tmp_path)
    assert compiled.stale(root) == {}
    assert set(compiled.stale(root, pure=True)) == {"pkg.framework.core", "pkg.games.a.engine", "pkg.games.b.engine"}
    engine = root / "games" / "a" / "engine.py"
    os.utime(engine, (engine.stat().st_atime, engine.stat().st_mtime + 10))
    # all of them: compiled modules call each other's native code and cannot mix with source modules
    assert set(compiled.stale(root)) == {"pkg.framework.core", "pkg.games.a.engine", "pkg.games.b.engine"}


def test_a_moved_engine_leaves_orphans_that_are_found(tmp_path):
    root = package(tmp_path)
    moved = root / "games" / "a" / "engine.py"
    (root / "games" / "b" / f"engine__mypyc{SUFFIX}").write_bytes(b"mypyc's library of b's engine")
    assert compiled.orphans(root) == []
    moved.rename(root / "games" / "b" / "shared.py")  # a's engine moved away: its extension stays behind
    assert compiled.orphans(root) == [moved.with_name(f"engine{SUFFIX}")]
    old_core = root / "games" / f"core{SUFFIX}"  # the core compiled where it was before pipeline/framework/
    old_core.write_bytes(b"the core's old extension")
    assert compiled.orphans(root) == [moved.with_name(f"engine{SUFFIX}"), old_core]


def test_an_orphaned_extension_is_never_imported(tmp_path, monkeypatch):
    root = package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (root / "games" / "a" / "engine.py").unlink()  # moved: only its extension is left
    finder = compiled.FromSource({}, frozenset({"pkg.games.a.engine"}))
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    for name in ("pkg", "pkg.games", "pkg.games.a", "pkg.games.a.engine"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ModuleNotFoundError) as gone:
        importlib.import_module("pkg.games.a.engine")
    assert gone.value.name == "pkg.games.a.engine"  # as a missing module: a family's engine is taken instead


def test_the_source_is_found_ahead_of_the_extension(tmp_path, monkeypatch):
    root = package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    finder = compiled.FromSource(compiled.stale(root, pure=True))
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    for name in ("pkg", "pkg.games", "pkg.games.a", "pkg.games.a.engine"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    module = importlib.import_module("pkg.games.a.engine")
    assert module.__file__ == str(root / "games" / "a" / "engine.py") and module.VALUE == "source"


def test_every_engine_is_compiled_with_the_shared_api():
    names = {compiled.module_name(source) for source in compiled.sources()}
    assert "pipeline.framework.core" in names
    engines = {d.module("engine").__name__ for d in games.registered().values()}
    assert engines <= names  # region decks play Deutschland's
    if BUILT and os.environ.get(compiled.PURE) != "1":
        assert set(compiled.running_compiled()) == names & set(sys.modules)


@pytest.mark.skipif(not BUILT, reason="the engines are not compiled here (make install compiles them)")
@pytest.mark.parametrize("game", games.names())
def test_compiled_and_source_engines_play_the_same_games(game):
    """The same play-check, byte for byte, from the compiled engines and from their sources: 20 games of each
    kind of playout (5 per ladder rung, 1 of the search bot) play every bot of the ladder on both engines."""
    command = [
        GEODECK,
        "play-check",
        game,
        "--games",
        "20",
        "--max-games",
        "20",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--format",
        "json",
    ]
    reports = [
        subprocess.run(command, capture_output=True, env=os.environ | {compiled.PURE: pure}).stdout
        for pure in ("0", "1")
    ]
    assert reports[0] and reports[0] == reports[1]
