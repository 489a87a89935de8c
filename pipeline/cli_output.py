"""The two terminals of the CLI: `out` for results (stdout), `console` for progress and errors (stderr)."""

from rich.console import Console

console = Console(stderr=True)
out = Console()
