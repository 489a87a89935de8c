"""`geodeck studio`: the local web page (pipeline/studio/, docs/studio.md)."""

import click

from pipeline.cli_output import out


@click.command("studio")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve on; another than this computer's (e.g. 0.0.0.0 for a classroom network) asks every "
    "browser once for the access token printed at start.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="Port to serve on.")
@click.option("--no-browser", is_flag=True, help="Do not open the browser.")
def studio(host, port, no_browser):
    """Make, check, print and export decks in your browser: the studio, served until Ctrl-C."""
    from pipeline.studio import server

    server.run(host, port, not no_browser, lambda line: out.print(line, highlight=False, markup=False, soft_wrap=True))
