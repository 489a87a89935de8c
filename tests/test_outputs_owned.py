"""Folders a user owns are never deleted or overwritten (pipeline/outputs.py): the review page, play-check's
report folder and saved records, print's folder replace only a folder geodeck wrote, refuse others without
--force, refuse empty paths, and are written whole or not at all."""

import os
from pathlib import Path

import pytest

from pipeline import outputs
from pipeline.atomic import OutputError
from pipeline.games import registry as games


def users_site(root: Path) -> Path:
    """The issue's folder: a page the user made, with a photo folder and a note."""
    site = root / "site"
    (site / "photos").mkdir(parents=True)
    (site / "index.html").write_text("x")
    (site / "important.txt").write_text("y")
    (site / "photos" / "a.jpg").write_text("z")
    return site


def files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}


def test_review_never_deletes_a_folder_holding_an_index_html(geodeck, tmp_path):
    site = users_site(tmp_path)
    before = files(site)
    code, output = geodeck(["review", "deutschland", "--out", site])
    assert code == 2 and "Traceback" not in output, output
    assert str(site) in output and "--force" in output and len(output.strip().splitlines()) == 1
    assert files(site) == before and sorted(p.name for p in tmp_path.iterdir()) == ["site"]


@pytest.mark.parametrize(
    "args",
    [
        ["review", "deutschland", "--out", ""],
        ["play-check", "deutschland", "--games", "2", "--report-dir", ""],
        ["play-check", "deutschland", "--games", "2", "--save-records", ""],
        ["print", "deutschland", "--what", "all", "--out", ""],
        ["print", "deutschland", "--out", " "],
    ],
)
def test_an_empty_output_path_is_refused(geodeck, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, output = geodeck(args)
    assert code == 2 and "is empty" in output and "Traceback" not in output, output
    assert list(tmp_path.iterdir()) == []


def test_saved_records_never_overwrite_a_users_files(geodeck, tmp_path):
    mine = tmp_path / "records"
    mine.mkdir()
    (mine / "0-random-0.json").write_text("my notes")
    code, output = geodeck(["play-check", "deutschland", "--games", "2", "--save-records", mine])
    assert code == 2 and "--force" in output and "Traceback" not in output, output
    assert files(mine) == {"0-random-0.json": "my notes"}


def test_a_report_folder_the_user_made_is_refused_before_the_work(geodeck, tmp_path):
    from pipeline.decks import published

    version = published.deck(games.get("deutschland"))[1]["version"]
    (tmp_path / "deutschland" / version).mkdir(parents=True)
    (tmp_path / "deutschland" / version / "thesis.tex").write_text("mine")
    code, output = geodeck(["play-check", "deutschland", "--games", "2", "--report-dir", tmp_path])
    assert code == 2 and "--force" in output and "thesis.tex" not in output, output
    assert (tmp_path / "deutschland" / version / "thesis.tex").read_text() == "mine"


def test_print_adds_pdfs_only_to_a_folder_of_pdfs(geodeck, tmp_path):
    mine = tmp_path / "desk"
    mine.mkdir()
    (mine / "letter.odt").write_text("mine")
    code, output = geodeck(["print", "deutschland", "--what", "all", "--out", mine, "--offline"])
    assert code == 2 and "--force" in output and "Traceback" not in output, output
    assert files(mine) == {"letter.odt": "mine"}
    (mine / "letter.odt").unlink()
    (mine / "old.pdf").write_text("%PDF")  # a folder of PDFs: print's own kind
    assert outputs.check(mine, "--out", force=False, own=("*.pdf",)) is False


def write(folder: Path, **content: str) -> None:
    for name, text in content.items():
        (folder / name).write_text(text)


def test_geodecks_own_folder_is_replaced_whole_and_marked(tmp_path):
    target = tmp_path / "out"
    with outputs.replacing(target, "--out") as staging:
        write(staging, a="1", b="2")
    assert files(target) == {"a": "1", "b": "2", outputs.MARKER: outputs.NOTE}
    with outputs.replacing(target, "--out") as staging:
        write(staging, a="3")
    assert files(target) == {"a": "3", outputs.MARKER: outputs.NOTE}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging or `.old.` folder left


def test_an_earlier_geodecks_unmarked_folder_is_its_own(tmp_path):
    target = tmp_path / "report"
    target.mkdir()
    write(target, **{"report.json": "{}", "cards.png": "old"})
    with outputs.replacing(target, "--report-dir", own=("report.json", "*.png")) as staging:
        write(staging, **{"report.json": "new"})
    assert files(target) == {"report.json": "new", outputs.MARKER: outputs.NOTE}


def test_force_adds_to_a_users_folder_and_removes_nothing(tmp_path):
    site = users_site(tmp_path)
    with pytest.raises(OutputError, match="--force"):
        outputs.check(site, "--out", force=False)
    with outputs.replacing(site, "--out", force=True) as staging:
        write(staging, **{"index.html": "page"})
    assert files(site) == {"index.html": "page", "important.txt": "y", "photos/a.jpg": "z"}  # not marked


@pytest.mark.parametrize("failure", ["in the work", "full disk at the swap"])
def test_a_failure_leaves_the_old_folder_and_nothing_else(tmp_path, monkeypatch, failure):
    target = tmp_path / "out"
    with outputs.replacing(target, "--out") as staging:
        write(staging, a="old")
    before = files(target)
    if failure == "in the work":
        with pytest.raises(OutputError, match="No space left"), outputs.replacing(target, "--out") as staging:
            write(staging, a="half")
            raise OSError(28, "No space left on device")
    else:
        real = Path.rename

        def full(self, destination):
            if self.name.startswith(".out.new."):
                raise OSError(28, "No space left on device")
            return real(self, destination)

        monkeypatch.setattr(Path, "rename", full)
        with pytest.raises(OutputError, match="No space left"), outputs.replacing(target, "--out") as staging:
            write(staging, a="new")
    assert files(target) == before and [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_report_that_fails_half_way_leaves_no_folder(tmp_path, monkeypatch):
    from pipeline.playcheck import report as reports

    def full(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(reports, "to_markdown", full)
    report = {"game": "deutschland", "version": "1.0"}
    monkeypatch.setattr("pipeline.playcheck.plots.PLOTS", {"p": lambda _report, _lang: b"png"})
    with pytest.raises(OutputError, match="No space left"):
        reports.write(report, tmp_path)
    assert list(tmp_path.rglob("*")) == [tmp_path / "deutschland"] or list(tmp_path.rglob("*")) == []


@pytest.mark.parametrize("kind", ["mount point", "file"])
def test_a_mount_point_or_a_file_is_refused(tmp_path, kind):
    path = Path("/proc") if kind == "mount point" else tmp_path / "file"
    if kind == "file":
        path.write_text("keep")
    with pytest.raises(OutputError, match="mount point" if kind == "mount point" else "not a folder but a file"):
        outputs.check(path, "--out", force=True)
    assert kind == "mount point" or path.read_text() == "keep"
    assert os.path.ismount("/proc")
