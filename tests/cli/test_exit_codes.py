"""One exit-code enum for every command (issue 29): no command module exits with a literal number, and
the README's table lists every code."""

import re
from pathlib import Path

from pipeline import cli
from pipeline.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
LITERAL_EXIT = re.compile(r"(?:exit|SystemExit)\(\d+\)")


def test_commands_exit_with_the_enum_never_a_literal():
    modules = sorted((ROOT / "pipeline" / "cli").glob("*.py")) + sorted(
        (ROOT / "pipeline" / "games").glob("*/commands.py")
    )
    found = [f"{path.name}: {hit}" for path in modules for hit in LITERAL_EXIT.findall(path.read_text())]
    assert len(modules) > 6 and found == []


def test_the_readme_lists_every_exit_code():
    rows = re.findall(r"^\| (\d+) \| ([A-Z]+) \|", (ROOT / "README.md").read_text(), re.M)
    assert rows == [(str(code.value), code.name) for code in ExitCode]


def test_each_command_group_is_its_own_module():
    groups = {name: cli.cli.commands[name].callback.__module__ for name in ("fetch", "print", "play-check", "games")}
    assert groups == {
        "fetch": "pipeline.cli.data",
        "print": "pipeline.cli.prints",
        "play-check": "pipeline.cli.play",
        "games": "pipeline.cli.info",
    }
