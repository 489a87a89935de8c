"""The data commands: fetch the raw files, build the tables and decks, compare and verify the decks."""

from typing import Any

import click
from rich.table import Table

from pipeline.build import graph
from pipeline.cli.common import GameChoice, format_option, game_argument, locked, show
from pipeline.cli_output import Words, error_line, jobs_option, mirror_option, offline_option, out, progress
from pipeline.errors import ExitCode
from pipeline.games import registry as games


@click.command()
@click.argument("sources", nargs=-1)
@mirror_option
@offline_option
@click.option(
    "--refresh",
    is_flag=True,
    help="Fetch the newest upstream version of SOURCES (default: every source with a [refresh] table), "
    "parse and validate it, and only then write the new pins into sources/ and the bytes into the store.",
)
def fetch(sources, mirror, offline, refresh):
    """Resolve the raw files of SOURCES (default: all) into the local snapshot store.

    Each file comes from the store (~/.cache/geodeck or $GEODECK_STORE), else the mirror folder, else its
    live URL, and must match its pinned sha256. Package sources are checked against their pinned version.
    With --refresh, a yearly update: see "Refreshing the data" in README.md.
    """
    from pipeline.extract import fetch as fetching
    from pipeline.extract import open_store
    from pipeline.extract import sources as defs

    chosen = defs.select(sources)
    store = open_store(mirror=mirror, online=not offline)
    if refresh:
        if offline:
            raise click.UsageError("--refresh downloads the newest upstream files; drop --offline")
        _refresh(chosen, bool(sources), store)
        return
    with locked(store.root), progress() as bar:
        task = bar.add_task("fetching", total=sum(len(s.files) for s in chosen))
        summaries = fetching.fetch_sources(store, chosen, on_file=lambda _: bar.advance(task))
    table = Table("source", "files", "MB", "pinned", title=f"snapshot store: {store.root}")
    for s in summaries:
        table.add_row(s.source, str(s.files), f"{s.bytes / 1e6:.1f}", s.pinned_version or "sha256")
    out.print(table)


def _refresh(chosen, named: bool, store) -> None:
    """`fetch --refresh`: all sources validated before any pin is written; a report of what changed."""
    from datetime import date

    from pipeline.extract import http
    from pipeline.extract import refresh as refreshing
    from pipeline.paths import SOURCES_DIR
    from pipeline.transform import refreshed

    targets = refreshing.refreshable(chosen, named)
    with locked(store.root):
        session = http.session(store.root / refreshing.HTTP_CACHE, stored=store.stored)
        results = refreshing.refresh(targets, store, SOURCES_DIR, date.today(), session, refreshed.changes)
    table = Table("source", "result", "vintage", title="geodeck fetch --refresh")
    for r in results:
        table.add_row(r.new.name, "new pin" if r.changed else "unchanged", r.new.vintage)
    out.print(table)
    for r in results:
        for line in r.changes if r.changed else ():
            out.print(f"  {r.new.name}: {line}", highlight=False, markup=False, soft_wrap=True)
    if any(r.changed for r in results):
        out.print(
            "Review: `geodeck build --stage countries --stage towns --stage geo`, then `geodeck diff GAME` "
            "for each game; accept with `geodeck build` (see README: Refreshing the data).",
            highlight=False,
        )


@click.command()
@click.option(
    "--stage",
    "stages",
    multiple=True,
    type=click.Choice([*graph.STAGES, *(step.name for step in graph.steps())]),
    metavar="NAME",
    help="Run only this stage or step (repeatable; names above); default: every step in dependency order.",
)
@click.option("--force", is_flag=True, help="Rerun every step even if its inputs and code are unchanged.")
@click.option(
    "--accept",
    "accepted",
    multiple=True,
    metavar="[GAME=]REASON",
    type=Words(500),
    help="Publish decks even with suspicious changes (see `geodeck diff`); REASON (at most 500 characters) goes "
    "into CHANGELOG.md: `GAME=REASON` into that game's only (repeatable, one per game), a plain REASON into every "
    "other deck published.",
)
@jobs_option("Steps running side by side, each in its own process; the outputs are the same for every value.")
@mirror_option
@offline_option
def build(stages, force, accepted, jobs, mirror, offline):
    """Build the tables under build/ from the snapshots, then publish the decks. The stages and their
    steps, in dependency order (`--stage` takes either name):

    \b
    countries  transform-countries: every country source parsed into
               build/transform/observations.parquet; validate-countries: one
               value chosen per field, build/validate/countries.parquet
               (+ .csv) and countries_report.md (+ .json)
    towns      transform-towns: Destatis towns with their coordinates,
               build/transform/towns.parquet; validate-towns: each checked
               against its state, build/validate/towns.parquet and
               towns_report.md (+ .json)
    geo        the games' own steps, e.g. geo-places: a map grid and a place
               selection, build/geo/places.parquet, grid_report.md and
               selection_report.md (+ .json); geo-countries: world-map
               numbers, build/geo/countries.parquet
    decks      deck-GAME for each game: a new version when its cards changed,
               output/decks/GAME/VERSION/ (deck.json, deck.csv,
               datapackage.json, manifest.json, CHANGELOG.md) and LATEST

    A step reruns only when the sha256 of its inputs or of its code (its module and every module it
    imports, transitively) changed: a rerun with nothing changed does no work (docs/build-steps.md).
    """
    from pipeline.build import runner
    from pipeline.build.step import Context, reasons
    from pipeline.extract import open_store
    from pipeline.paths import build_dir

    store = open_store(mirror=mirror, online=not offline)
    bar: list = []  # the progress bar, from the first step that runs
    tasks: dict[str, Any] = {}  # each running step's line on it

    def on_step(name, units):
        if not bar:
            bar.append(progress())
            bar[0].start()
        tasks[name] = bar[0].add_task(name, total=units)

    ctx = Context(
        store,
        force=force,
        on_step=on_step,
        accept=reasons(accepted, games.names()),
        on_progress=lambda name, _: bar[0].advance(tasks[name]),
        on_done=lambda name: bar[0].update(tasks[name], visible=False),
        jobs=jobs,
    )
    try:
        with locked(build_dir()), locked(store.root):
            results = runner.build(ctx, list(stages) or None)
    finally:
        if bar:
            bar[0].stop()
    table = Table("step", "result", title="geodeck build")
    for r in results:
        table.add_row(r.step, (r.note or "built") if r.ran else "unchanged, skipped")
    out.print(table)
    if not any(r.ran for r in results):
        out.print("Nothing to do: inputs and code are unchanged (use --force to rebuild).")


@click.command()
@game_argument
@click.argument("old", required=False)
@click.argument("new", required=False)
@format_option
def diff(game, old, new, fmt):
    """Compare two versions of GAME's deck: OLD (default: LATEST) against NEW (default: a fresh build from build/).

    Lists added/removed cards, every changed value (old → new, absolute and relative change), rank changes
    and head-to-head flips per category. Changes beyond a field's threshold (templates/decks/GAME.toml,
    e.g. population ±15 %) are suspicious: the exit code is then 1, else 0 (usable as a CI gate).
    """
    from pipeline.build import graph
    from pipeline.decks import diff as diffing
    from pipeline.decks import stage

    result = stage.compare(game, old, new, rebuild=graph.rebuild(game))
    show(result, fmt, diffing)
    if result["suspicious"]:
        raise SystemExit(ExitCode.FAILED)


@click.command()
@click.argument("game", metavar="[GAME]", required=False, type=GameChoice())
def verify(game):
    """Check every published version of GAME (default: every game) against its manifest, file by file.

    deck.json edited after publishing (its content hash or version no longer the manifest's) or refused by
    the deck checks; a deck.csv, datapackage.json or CHANGELOG.md that does not match deck.json; a LATEST
    that does not name the newest version; a staging folder left by an interrupted publish: each is
    reported with the file and the fix, and the exit code is then 1.
    """
    from pipeline.decks import integrity

    results = integrity.verify_all([game] if game else list(games.registered().values()))
    if not game:  # a published deck no game could be made of (its templates unreadable) is a problem, not skipped
        results += [(name, "templates", [line]) for name, line in games.damaged().items()]
    table = Table("game", "version", "result", title="published decks")
    for name, version, problems in results:
        table.add_row(name, version, f"{len(problems)} problem(s)" if problems else "ok")
    out.print(table)
    for problem in (p for *_, problems in results for p in problems):
        error_line(problem)
    if any(problems for *_, problems in results):
        raise SystemExit(ExitCode.FAILED)
