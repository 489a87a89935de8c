"""What every CLI command shares: the two terminals, `out` for results (stdout) and `console` for progress
and errors (stderr), and the snapshot-store options (--mirror, --offline)."""

from pathlib import Path

import click
from click.core import ParameterSource
from rich.console import Console
from rich.text import Text

console = Console(stderr=True)
out = Console()

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
