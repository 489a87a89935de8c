"""What every CLI command shares: the two terminals, `out` for results (stdout) and `console` for progress
and errors (stderr), and the snapshot-store options (--mirror, --offline)."""

from pathlib import Path

import click
from click.core import ParameterSource
from rich.console import Console
from rich.measure import Measurement
from rich.text import Text

UNCUT = 1000  # columns: the widest result printed uncut to a file or pipe


class Results(Console):
    """stdout. Written to a file or pipe, a table or line prints at its natural width (up to UNCUT columns)
    instead of rich's 80, so `geodeck diff … > file` keeps every column; what fills any width (a rule) and
    the terminal keep the console's width."""

    def print(self, *objects, **kwargs) -> None:
        width = self.width
        if objects and not self.is_terminal:
            natural = max(self._natural(thing, kwargs) for thing in objects)
            if width < natural <= UNCUT:
                self.width = natural  # rich caps print(width=) at the console's width
        try:
            super().print(*objects, **kwargs)
        finally:
            self.width = width

    def _natural(self, thing, kwargs: dict) -> int:
        """The columns `thing` takes uncut (a string rendered as print would: markup, emoji)."""
        if isinstance(thing, str):
            thing = self.render_str(thing, markup=kwargs.get("markup"), emoji=kwargs.get("emoji"))
        return Measurement.get(self, self.options.update_width(UNCUT + 1), thing).maximum


console = Console(stderr=True)
out = Results()

mirror_option = click.option(
    "--mirror",
    type=click.Path(path_type=Path),
    envvar="GEODECK_MIRROR",
    help="Folder with byte-exact copies of the raw files (e.g. ../shared/snapshots); used before the live URL.",
)
offline_option = click.option("--offline", is_flag=True, help="Never download; use only the store and the mirror.")


def error_line(message: str) -> None:
    """`error: MESSAGE` on stderr, the message verbatim (square brackets are text, not markup)."""
    console.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False, soft_wrap=True)


def given(ctx: click.Context, name: str) -> bool:
    """Whether the user typed option `name` on the command line (not a default, not the environment)."""
    return ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE


def flag(ctx: click.Context, name: str) -> str:
    """The option's first spelling on the command line (e.g. `--what`), for messages."""
    for param in ctx.command.params:
        if param.name == name and param.opts:
            return param.opts[0]
    return name


def refuse_together(ctx: click.Context, name: str, others: tuple[str, ...], why: str) -> None:
    """A usage error (exit 2) when option `name` and any of `others` are both on the command line: an option
    that the combination makes meaningless is an error, never silently ignored."""
    if not given(ctx, name):
        return
    for other in others:
        if given(ctx, other):
            raise click.UsageError(f"{flag(ctx, name)} and {flag(ctx, other)} do not go together: {why}")
