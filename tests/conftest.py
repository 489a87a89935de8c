"""Shared fixtures: the snapshot mirror (../shared/snapshots), a throwaway store per session, and the towns and
geo stages built once per session on the mirror.

No test depends on the machine: every test runs with its own HOME, a default store, build and output folder
of its session (`own_folders`), and `~/.cache/geodeck` in that HOME is a file, so a test that reaches the default
store fails loudly instead of passing on a developer's filled cache; a test marked `mirror` skips without
the mirror, saying how to name one."""

from pathlib import Path

import pytest

from pipeline import paths
from pipeline.build.runner import build
from pipeline.build.step import Context
from pipeline.extract import open_store
from pipeline.paths import ROOT, default_mirror

MIRROR = default_mirror() or ROOT.parent / "shared" / "snapshots"
NO_MIRROR = f"snapshot mirror not found at {MIRROR}: run `make test MIRROR=DIR` or set GEODECK_MIRROR=DIR"


def pytest_runtest_setup(item):
    if item.get_closest_marker("mirror") and not (MIRROR / "index.json").is_file():
        pytest.skip(NO_MIRROR)


@pytest.fixture(scope="session", autouse=True)
def own_folders(tmp_path_factory):
    """HOME, the default store and the output folders of this test session, never the user's or the
    checkout's; `~/.cache/geodeck` is a file, so the default store path cannot be used by accident. The
    default store is empty: a command a test runs finds pinned files through the mirror, if there is one."""
    home = tmp_path_factory.mktemp("home")
    (home / ".cache").mkdir()
    (home / ".cache" / "geodeck").write_text("a test used the default store: give it the `store` fixture\n")
    output = tmp_path_factory.mktemp("output")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("GEODECK_STORE", str(tmp_path_factory.mktemp("default-store")))
        mp.setenv("GEODECK_BUILD", str(tmp_path_factory.mktemp("default-build")))  # kept tables too (regions)
        if (MIRROR / "index.json").is_file():  # as `make test` exports it, however pytest is started
            mp.setenv("GEODECK_MIRROR", str(MIRROR))
        mp.setattr(paths, "OUTPUT_DIR", output)
        mp.setattr(paths, "PRINT_DIR", output / "print")
        yield home


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "index.json").is_file():
        pytest.skip(NO_MIRROR)
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
    """A copy of the committed decks (output/decks/) standing in for them, free to edit. The games the
    registry makes from the copy's decks (a region built by the test) are forgotten after it."""
    import shutil

    from pipeline.games import registry

    copy = tmp_path / "decks"
    shutil.copytree(paths.DECKS_DIR, copy)
    monkeypatch.setattr(paths, "DECKS_DIR", copy)
    for name in ("_REGISTRY", "_MAKERS"):
        monkeypatch.setattr(registry, name, type(getattr(registry, name))(getattr(registry, name)))
    monkeypatch.setattr(registry, "_DISCOVERED", registry._DISCOVERED)
    return copy
