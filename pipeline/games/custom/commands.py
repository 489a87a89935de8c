"""`geodeck deck new RECIPE` (docs/recipes.md)."""

from pathlib import Path

import click

from pipeline.cli_output import Bounded, Words, console, jobs_option, out


@click.group()
def deck():
    """Your own deck from a recipe: any selection of countries or your own table, any categories."""


@deck.command("new")
@click.argument("recipe", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--games",
    type=Bounded(int, 20, 100_000),
    default=200,
    show_default=True,
    help="Play-check games per kind of playout, for each set of cards the optimiser tries.",
)
@jobs_option("Processes playing the play-check's games side by side.")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    type=Words(300),
    help="Play the games on a Dask cluster (`dask scheduler`, `dask worker ADDRESS`) instead.",
)
@click.option(
    "--accept",
    metavar="REASON",
    type=Words(500),
    help="Publish even suspicious changes against the last version; REASON goes into CHANGELOG.md.",
)
def new(recipe, games, jobs, scheduler, accept):
    """Build, check and publish the deck of RECIPE as the game custom-<name> under output/decks/.

    Reads the recipe (a TOML file, docs/recipes.md) and its items: countries from the country table
    (build/geo/countries.parquet, made by `geodeck build`) or your own CSV/XLSX table; chooses the cards
    (the most familiar candidates that pass play-check: the optimiser swaps out a card a failed verdict
    names and says why); refuses a deck no player count can deal, that fails play-check (naming the cards and
    categories behind it) or whose kit would not print in the recipe's language (naming the recipe key);
    else publishes a new version. Does nothing when the recipe and its table are unchanged. Then `geodeck
    print custom-<name>`, `play`, `play-check`, `diff`, `review` and `verify` work on it."""
    from pipeline import locking, paths
    from pipeline.games import registry
    from pipeline.games.custom import manage
    from pipeline.games.custom import recipe as recipes

    if recipe.suffix.lower() == ".zip":  # a colleague's `geodeck deck export`
        recipe = manage.received(recipe)
    read = recipes.load(recipe)
    wait = lambda message: console.print(message, highlight=False)  # noqa: E731
    with locking.exclusive(paths.build_dir(), on_wait=wait):
        same = manage.unchanged(read, paths.build_dir())  # before the deck builder's imports
        if same is not None:
            out.print(f"{same.name} {same.version} unchanged: {same.cards} cards; play-check {manage.AS_PUBLISHED}")
            return
        from pipeline.games.custom.build import new as make

        base = registry.get(read.game)  # the command is the door: the recipe's game by its name, once
        made = make(read, base, games=games, jobs=jobs, scheduler=scheduler, accept=accept)
    for swap in made.swaps:
        console.print(f"swapped {swap.out} for {swap.into}: {swap.why}", highlight=False)
    result = made.result
    state = "published" if result.published else "unchanged"
    counts = made.players
    plays = f"; {counts[0]}–{counts[-1]} players" if len(counts) > 1 else f"; {counts[0]} players" if counts else ""
    out.print(f"{result.game} {result.version} {state}: {result.cards} cards; play-check {made.verdict}{plays}")


@deck.command("list")
def list_decks():
    """Your own decks (made by `geodeck deck new`): name, version, cards, game, language, recipe and table."""
    from pipeline.games.custom import manage

    found = manage.listed()
    if not found:
        out.print("no deck of yours yet: `geodeck deck new RECIPE` makes one (docs/recipes.md)")
    for made in found:
        table = f", table {made.table}" if made.table else ""
        out.print(
            f"{made.name} {made.version}: {made.cards} cards, {made.base}, {made.lang}; recipe {made.recipe}{table}",
            highlight=False,
        )


@deck.command("remove")
@click.argument("name", type=Words(60))
@click.option("--yes", is_flag=True, help="Remove without asking.")
def remove_deck(name, yes):
    """Remove your deck NAME (custom-<name> or <name>): its published versions and its build folder. Never a
    built-in or region deck."""
    from pipeline import locking, paths
    from pipeline.games.custom import manage

    found = manage.folders(name)
    if not yes and not click.confirm(f"remove {', '.join(map(str, found))}?", default=False):
        out.print("nothing removed")
        return
    with locking.exclusive(paths.build_dir()):
        manage.remove(found)
    out.print(f"removed {found[0].name}", highlight=False)


@deck.command("export")
@click.argument("name", type=Words(60))
@click.option(
    "--out", "target", type=click.Path(dir_okay=False, path_type=Path), help="The .zip (default: ./custom-<name>.zip)."
)
def export_deck(name, target):
    """Write your deck NAME's recipe, table and pictures as one .zip: a colleague runs `geodeck deck new FILE.zip`."""
    from pipeline.games.custom import manage

    written = manage.export(name, target)
    console.print(f"wrote {written}: `geodeck deck new {written.name}` makes the deck again", highlight=False)


COMMANDS = [deck]
