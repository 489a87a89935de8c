"""Fuzz the command line, not only the parsers: every command with hostile values on its arguments and
options (found by walking the click commands, so a new option is fuzzed too). Each run ends with an exit
code (0 when the values happen to be valid), at most one error line, no traceback, and nothing written
outside the test's folders. The long work behind a command (printing, play-check, playing, building,
fetching) is replaced by a marker: the fuzz is about what reaches it, not about running it."""

import os
from pathlib import Path

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
    return {str(p): p.stat().st_mtime for p in folder.rglob("*") if p.is_file()} if folder.exists() else {}


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
