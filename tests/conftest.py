"""Shared fixtures: the snapshot mirror (../shared/snapshots), a throwaway store per session, and the towns and
geo stages built once per session on the mirror."""

from pathlib import Path

import pytest

from pipeline.build import Context, build
from pipeline.extract import open_store
from pipeline.paths import ROOT, default_mirror

MIRROR = default_mirror() or ROOT.parent / "shared" / "snapshots"


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "index.json").is_file():
        pytest.skip(f"snapshot mirror not found at {MIRROR}")
    return MIRROR


@pytest.fixture(scope="session")
def store(mirror, tmp_path_factory):
    """A store filled lazily from the mirror, never from the network."""
    return open_store(mirror=mirror, online=False, root=tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="session")
def towns_build(store, tmp_path_factory) -> Path:
    """A build folder holding the towns stage (transform + validate), built once; a test reads it by pointing
    GEODECK_BUILD at it (monkeypatch.setenv)."""
    root = tmp_path_factory.mktemp("build")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GEODECK_BUILD", str(root))
        build(Context(store), ["towns"])
    return root


@pytest.fixture(scope="session")
def geo_build(towns_build) -> Path:
    """The towns build folder with the Deutschland geo step (grid calibration, place selection) added, run once."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GEODECK_BUILD", str(towns_build))
        build(Context(None), ["geo-places"])
    return towns_build


@pytest.fixture
def geodeck(capsys, monkeypatch):
    """Run the `geodeck` command in-process as a user would (its error handling included): a function
    (args, **env) -> (exit code, stdout + stderr)."""
    from pipeline.cli import main

    def run(args: list[str], **env: str) -> tuple[int, str]:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr("sys.argv", ["geodeck", *map(str, args)])
        code = 0
        try:
            main()
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    return run


@pytest.fixture
def decks(tmp_path, monkeypatch) -> Path:
    """A copy of the committed decks (output/decks/) standing in for them, free to edit."""
    import shutil

    from pipeline import paths

    copy = tmp_path / "decks"
    shutil.copytree(paths.DECKS_DIR, copy)
    monkeypatch.setattr(paths, "DECKS_DIR", copy)
    return copy
