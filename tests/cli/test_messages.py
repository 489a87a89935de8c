"""Error lines (issue 49): each capped in length, its start and its fix kept; a full disk names the file being
written; play-check advises only a --max-games the option takes; a failed report leaves no folder it made
(--report-dir DIR/GAME/)."""

import errno
import os

import pytest

from pipeline import atomic, outputs
from pipeline.cli_output import MAX_ERROR_LINE
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.games import registry
from pipeline.i18n import registry as languages
from pipeline.playcheck import MAX_GAMES
from pipeline.playcheck import report as reports


def test_an_error_line_is_capped_keeping_what_and_the_fix(geodeck, monkeypatch):
    from pipeline.cli import prints

    def long_error(*args, **kwargs):
        raise GeodeckError(f"'{'x' * 20_000}' does not fit its 60 × 8 mm box; shorten the label")

    monkeypatch.setattr(prints, "_deck", long_error)
    code, output = geodeck(["print", "deutschland", "--cards", "x"])
    (line,) = output.strip().splitlines()
    assert code == 2 and len(line) <= len("error: ") + MAX_ERROR_LINE, len(line)
    assert line.startswith("error: 'xxx") and line.endswith("box; shorten the label")
    assert "characters left out" in line


def test_a_full_disk_names_the_file_being_written(monkeypatch, tmp_path):
    full = os.open("/dev/full", os.O_WRONLY)
    monkeypatch.setattr(atomic.tempfile, "mkstemp", lambda **kw: (full, str(tmp_path / ".cards.zip.tmp")))
    target = tmp_path / "cards.zip"
    with pytest.raises(atomic.OutputError) as caught, atomic.writer(target) as handle:
        handle.write(b"x" * 10)  # buffered: the disk is found full when it is flushed
    assert str(caught.value).startswith(f"cannot write {target}: {os.strerror(errno.ENOSPC)}")
    assert not target.exists()


@pytest.mark.mirror  # the card's map layers come from the snapshot mirror
def test_a_full_disk_during_export_names_the_zip(geodeck, monkeypatch, tmp_path):
    real = atomic.tempfile.mkstemp
    target = tmp_path / "cards.zip"

    def full_for_the_zip(**kwargs):
        if kwargs.get("prefix") != f".{target.name}.":
            return real(**kwargs)
        return os.open("/dev/full", os.O_WRONLY), str(tmp_path / ".cards.zip.tmp")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", full_for_the_zip)
    deck = published.deck(registry.get("deutschland"))[1]
    args = ["export", "deutschland", "--service", "mpc", "--cards", deck["cards"][0]["id"], "--jobs", "1"]
    code, output = geodeck([*args, "--offline", "--out", str(target)])
    assert code == 2 and f"error: cannot write {target}: No space left on device" in output, output
    assert not target.exists()


def test_play_check_advises_only_a_max_games_the_option_takes():
    report = {"result": "undecided", "max_games_to_decide": 10_977_052}
    assert f"--max-games takes, {MAX_GAMES} at most," in reports._hint(report, languages.language("en"))
    assert "10977052" not in reports._hint(report, languages.language("en"))
    assert "--max-games 5494)" in reports._hint(report | {"max_games_to_decide": 5494}, languages.language("en"))


def test_a_failed_report_leaves_no_folder_it_made(tmp_path):
    target = tmp_path / "reports" / "deutschland" / "2026.11.0"  # --report-dir DIR: DIR/GAME/VERSION
    with pytest.raises(outputs.FolderError, match="No space left"), outputs.replacing(target, "--report-dir"):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "mine.txt").write_text("mine")
    with pytest.raises(outputs.FolderError), outputs.replacing(target, "--report-dir"):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert [p.name for p in (tmp_path / "reports").iterdir()] == ["mine.txt"]
