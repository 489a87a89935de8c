"""`geodeck games`: the registered games."""

import click
from rich.table import Table

from pipeline.cli_output import out
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games import registry as games


@click.command("games")
@click.option("--names", is_flag=True, help="Only the names, one per line (for scripts and the Makefile).")
@click.option(
    "--which",
    type=click.Choice(["all", "built-in", "local"]),
    default="all",
    show_default=True,
    help="built-in: the games `geodeck build` publishes; local: those a command of their own makes (region decks).",
)
def list_games(names, which):
    """The games geodeck builds, prints and play-checks (each a folder pipeline/games/<game>/)."""
    from pipeline.decks.spec import load_spec

    chosen = {
        name: definition
        for name, definition in games.registered().items()
        if which == "all" or definition.in_build == (which == "built-in")
    }
    if names:
        click.echo("\n".join(chosen))
        return

    table = Table("GAME", "title", "players", "default players", "accessories", title="games")
    for name, definition in chosen.items():
        deck = _latest(definition)
        table.add_row(
            name,
            deck["title"] if deck else load_spec(definition).title,  # a region's own: "Frankreich: …"
            _player_counts(definition, deck),
            str(definition.default_players),
            definition.accessories_help,
        )
    out.print(table)


def _latest(definition: GameDefinition) -> dict | None:
    """The latest published deck, or None before one is published."""
    from pipeline.decks import published

    try:
        return published.deck(definition)[1]
    except GeodeckError:
        return None


def _player_counts(definition: GameDefinition, deck: dict | None) -> str:
    """The player counts the rules allow with the latest published deck (the World Game's depend on its
    size), or "?" before a deck is published."""
    if deck is None:
        return "?"
    low, high = definition.player_counts(deck)
    return str(low) if low == high else f"{low}-{high}"
