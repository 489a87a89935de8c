"""Outputs are written only where they may be and never lost: `--out` replaces only regular files, a game's
record is on disk after every move and never overwritten without --force, options that a combination makes
meaningless are errors, error text is printed verbatim, and play-check's workers end with it."""

import os
import subprocess
import sys
import time

import pytest

from pipeline import atomic
from pipeline.cli_output import error_line
from pipeline.i18n import registry as languages
from pipeline.play import loop
from pipeline.records import record as records


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "under a file", "empty"])
def test_an_atomic_write_replaces_only_a_regular_file(tmp_path, kind):
    target = {
        "folder": tmp_path,
        "fifo": tmp_path / "fifo",
        "device": __import__("pathlib").Path(os.devnull),
        "under a file": tmp_path / "file" / "x.pdf",
        "empty": __import__("pathlib").Path(""),
    }[kind]
    if kind == "fifo":
        os.mkfifo(target)
    (tmp_path / "file").write_text("keep")
    with pytest.raises(atomic.OutputError, match="cannot write"):
        atomic.write_bytes(target, b"data")
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)  # the device is still a device
    assert (tmp_path / "file").read_text() == "keep"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_one_error_and_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(atomic.OutputError, match="out.txt"):
            atomic.write_text(target, "new")
    finally:
        tmp_path.chmod(0o700)
    assert target.read_text() == "old"


def test_a_full_disk_is_one_error_and_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def full(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(atomic.OutputError, match="No space left on device"):
        atomic.write_text(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["print", "deutschland", "--out", os.devnull], "is not a regular file"),
        (["print", "deutschland", "--out", "{tmp}"], "it is a folder"),
        (["print", "deutschland", "--out", "{tmp}/file/x.pdf"], "is not a folder"),
        (["print", "deutschland", "--what", "all", "--out", "{tmp}/file"], "is not a folder"),
        (["print", "deutschland", "--kit", "--what", "cards"], "--kit and --what do not go together"),
        (["print", "deutschland", "--kit", "--calibration"], "--kit and --calibration do not go together"),
        (["print", "deutschland", "--calibration", "--what", "accessories"], "--calibration and --what"),
        (["print", "deutschland", "--calibration", "--version", "2026.11.0"], "--calibration and --version"),
        (["print", "deutschland", "--layout", "one-up", "--gutter", "2"], "--gutter and --layout"),
        (["print", "deutschland", "--what", "accessories", "--duplex", "short"], "prints no cards"),
        (["play-check", "deutschland", "--deck", "{tmp}/d.json", "--version", "2026.11.0"], "--deck and --version"),
        (["play-check", "deutschland", "--scheduler", "tcp://x:1", "--jobs", "2"], "--scheduler and --jobs"),
        (["play-check", "deutschland", "--scheduler", " "], "is empty"),
        (["play-check", "deutschland", "--games", "100", "--max-games", "10"], "10 is fewer than --games 100"),
        (["play-check", "deutschland", "--games", "2", "--scheduler", "bogus://x"], "cannot reach the Dask"),
        (["play-check", "deutschland", "--games", "2", "--report-dir", "{tmp}/file"], "is a file"),
        (["play-check", "deutschland", "--games", "2", "--save-records", "{tmp}/file/r"], "is not a folder"),
        (["play", "deutschland", "--deck", "{tmp}/d.json", "--version", "2026.11.0"], "--deck and --version"),
        (["play", "deutschland", "--seats", "bot:random,bot:random", "--record", "{tmp}/file/r.json"], "not a folder"),
        (["grid", "--report", "50", "10"], "drop LAT LON or --report"),
    ],
)
def test_bad_outputs_and_meaningless_combinations_are_one_line_errors(geodeck, tmp_path, args, message):
    (tmp_path / "file").write_text("keep")
    code, output = geodeck([a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2, output
    assert "Traceback" not in output and message in output.replace("\n", " "), output
    assert (tmp_path / "file").read_text() == "keep"


@pytest.mark.parametrize(
    "args", [["print", "deutschland", "--calibration"], ["export", "deutschland", "--service", "mpc", "--offline"]]
)
def test_out_over_an_existing_file_is_refused_without_force(geodeck, tmp_path, args):
    mine = tmp_path / ("mine.pdf" if args[0] == "print" else "mine.zip")
    mine.write_text("mine")
    code, output = geodeck([*args, "--out", str(mine)])
    assert code == 2 and f"--out {mine}: the file exists; pass --force to replace it" in output, output
    assert mine.read_text() == "mine"
    if args[0] == "print":  # the calibration sheet: a quick print
        code, output = geodeck([*args, "--out", str(mine), "--force"])
        assert code == 0 and mine.read_bytes().startswith(b"%PDF"), output


def play(tmp_path, path, seed=3, force=False, ask=None):
    from pipeline.decks import published
    from pipeline.games import registry as games

    deck = published.deck(games.get("deutschland"))[1]
    return loop.play(
        games.get("deutschland"),
        deck,
        ["human" if ask else "bot:random", "bot:random"],
        languages.language("en"),
        seed,
        path,
        __import__("rich.console").console.Console(file=open(os.devnull, "w")),
        ask=ask or loop.ask_terminal,
        force=force,
    )


def test_the_record_is_on_disk_after_every_move_and_survives_a_crash(tmp_path):
    path = tmp_path / "game.json"
    answers = iter(["1", "1", "1"])

    def ask(_prompt):
        moves = records.load(path).moves  # what is on disk before the human's next move
        seen.append(len(moves))
        answer = next(answers, None)
        if answer is None:
            raise RuntimeError("the terminal crashed")
        return answer

    seen: list[int] = []
    with pytest.raises(RuntimeError):
        play(tmp_path, path, ask=ask)
    assert seen[0] == 0 and seen == sorted(seen) and seen[-1] > seen[0]
    assert len(records.load(path).moves) == seen[-1]  # nothing played is lost


def test_an_existing_record_is_never_overwritten_without_force(tmp_path, geodeck):
    path = tmp_path / "game.json"
    play(tmp_path, path, seed=3)
    first = path.read_bytes()
    with pytest.raises(records.RecordError, match="--force"):
        play(tmp_path, path, seed=4)
    assert path.read_bytes() == first
    play(tmp_path, path, seed=4, force=True)
    assert path.read_bytes() != first
    args = ["play", "deutschland", "--seats", "bot:random,bot:random", "--seed", "4", "--record", str(path)]
    code, output = geodeck(args)
    assert code == 2 and "already holds a record; pass --force" in output


def test_error_text_is_printed_verbatim(capsys):
    error_line("bad [refresh] table: [nan, nan] and [bold]x[/]")
    assert "bad [refresh] table: [nan, nan] and [bold]x[/]" in capsys.readouterr().err


def test_an_environment_error_is_one_line(geodeck, monkeypatch):
    from pipeline.decks import published

    def vanished(*_args, **_kwargs):
        raise FileNotFoundError(2, "No such file or directory", "output/decks/deutschland/LATEST")

    monkeypatch.setattr(published, "deck", vanished)
    code, output = geodeck(["print", "deutschland"])
    assert code == 2 and "Traceback" not in output
    assert "output/decks/deutschland/LATEST: No such file or directory" in output


def test_a_worker_ends_when_play_check_is_killed(tmp_path):
    """`workers.worker_setup` (play-check's and the build's workers) in a child of a stand-in parent: `kill -9`
    of the parent ends the child."""
    parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    code = (
        "import time; from pipeline import workers; workers.PARENT_POLL_S = 0.1; "
        f"workers.worker_setup({parent.pid}); time.sleep(60)"
    )
    worker = subprocess.Popen([sys.executable, "-c", code])
    time.sleep(1.0)
    assert worker.poll() is None  # alive while its parent is
    parent.kill()
    parent.wait()
    assert worker.wait(timeout=10) == 1
