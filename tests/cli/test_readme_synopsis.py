"""The README's command synopsis says what the CLI takes (issue 47: it offered `--lang de|en` where six
languages exist): every option it shows is one of that command's, and where it lists an option's values, they
are the values the option accepts."""

import re

import click
import pytest

from pipeline.cli import cli
from pipeline.i18n import registry
from pipeline.paths import ROOT
from pipeline.render import services

README = (ROOT / "README.md").read_text(encoding="utf-8")
NAMED = {"--lang": registry.codes, "--service": services.names}  # options whose values are declared as data
OPTION = re.compile(r"(--[a-z][a-z-]*)(?:[ =]([a-z0-9-]+(?:\|[A-Za-z0-9-]+)+))?")


def synopses() -> list[str]:
    """Each `geodeck …` form of the README's synopsis block (continuation lines joined, comments dropped)."""
    block = README.split("    geodeck --help\n", 1)[1].split("\n\n", 1)[0]
    forms: list[str] = []
    for line in block.splitlines():
        text = line.split("  # ", 1)[0].strip()
        if text.startswith("geodeck "):
            forms.append(text)
        else:
            forms[-1] += " " + text
    return [
        part if part.startswith("geodeck ") else "geodeck " + part for f in forms for part in f.split(" | geodeck ")
    ]


def command_of(form: str) -> tuple[click.Command, str]:
    """The (sub)command a form names and the rest of its words."""
    command: click.Command = cli
    words = form.split()[1:]
    while isinstance(command, click.Group) and words and words[0] in command.commands:
        command = command.commands[words.pop(0)]
    return command, " ".join(words)


@pytest.mark.parametrize("form", synopses())
def test_each_option_and_its_values_are_the_commands(form):
    command, rest = command_of(form)
    assert command is not cli, f"{form}: names no command"
    options = {name: p for p in command.params if isinstance(p, click.Option) for name in p.opts}
    for name, values in OPTION.findall(rest):
        assert name in options, f"{form}: {command.name} has no option {name}"
        accepted = options[name].type
        if values and name in NAMED:  # a name from data (a language, a card service), not a click.Choice
            assert set(values.split("|")) == set(NAMED[name]()), f"{form}: {name} takes {'|'.join(NAMED[name]())}"
        elif values:
            assert isinstance(accepted, click.Choice), f"{form}: {name} takes no fixed values, not {values}"
            listed = values.split("|")
            shown, placeholder = {v for v in listed if not v.isupper()}, any(v.isupper() for v in listed)
            accepts = set(accepted.choices)  # all of them, or some and a placeholder (STEP) for the rest
            assert shown <= accepts if placeholder else shown == accepts, f"{form}: {name} takes {'|'.join(accepts)}"


def test_the_synopsis_is_read():
    assert len(synopses()) > 15 and all(command_of(form)[0] is not cli for form in synopses())
