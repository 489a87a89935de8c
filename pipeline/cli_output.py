"""What every CLI command shares: the two terminals, `out` for results (stdout) and `console` for progress
and errors (stderr), and the snapshot-store options (--mirror, --offline)."""

from pathlib import Path

import click
from rich.console import Console

console = Console(stderr=True)
out = Console()

mirror_option = click.option(
    "--mirror",
    type=click.Path(path_type=Path),
    envvar="GEODECK_MIRROR",
    help="Folder with byte-exact copies of the raw files (e.g. ../shared/snapshots); used before the live URL.",
)
offline_option = click.option("--offline", is_flag=True, help="Never download; use only the store and the mirror.")
