"""What every CLI command shares: the two terminals, `out` for results (stdout) and `console` for progress
and errors (stderr), and the snapshot-store options (--mirror, --offline)."""

from pathlib import Path

import click
from rich.console import Console
from rich.measure import Measurement

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
