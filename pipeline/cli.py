"""The `geodeck` command line: a thin layer over the pipeline stages."""

import json
import os
import signal
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from pipeline import __version__, atomic, games, outputs
from pipeline.build import graph
from pipeline.cli_output import (
    Bounded,
    Words,
    console,
    error_line,
    force_option,
    mirror_option,
    offline_option,
    out,
    refuse_together,
    strict,
)
from pipeline.errors import GeodeckError


def progress():
    """A transient progress bar on stderr (rich.progress is imported here: a no-op build never needs it)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def choice_option(*declarations: str, choices: list[str], help: str):
    """An option taking one of `choices`, the first one its default."""
    return click.option(*declarations, type=click.Choice(choices), default=choices[0], show_default=True, help=help)


format_option = choice_option(
    "--format",
    "fmt",
    choices=["table", "json", "markdown"],
    help="table: on the terminal; json or markdown for CI logs, changelogs and docs.",
)


def locked(folder: Path):
    """The exclusive lock of `folder` (store or build/), telling the user when it waits for another run."""
    from pipeline import locking

    return locking.exclusive(folder, on_wait=lambda message: console.print(message, highlight=False))


def show(report: dict, fmt: str, formats) -> None:
    """A report in the chosen format; `formats` is the stage module with to_json/to_markdown/to_rich."""
    if fmt == "table":
        out.print(formats.to_rich(report))
    else:
        click.echo(formats.to_json(report) if fmt == "json" else formats.to_markdown(report), nl=False)


def jobs_option(help_text: str):
    """`--jobs N`: processes side by side, 1-1024, by default one per core; `help_text` says what they run."""
    return click.option(
        "--jobs", type=Bounded(int, 1, 1024), default=os.cpu_count() or 1, show_default="all cores", help=help_text
    )


class GameChoice(click.Choice):
    """The registered games, read when a command runs: a game registered after import is a choice too."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(games.names())

    @choices.setter
    def choices(self, _value) -> None:
        """click.Choice sets its choices once; the registry is their only source."""


game_argument = click.argument("game", metavar="GAME", type=GameChoice())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="geodeck")
def cli():
    """geodeck: turn public statistics into printable, play-checked geography card games.

    Typical flow: `geodeck fetch` (raw files) → `geodeck build` (tables and decks) → `geodeck diff GAME`
    (what changed) → `geodeck play-check GAME` (does it play well) → `geodeck print GAME` (PDFs).
    `geodeck games` lists the games (GAME).
    """


@cli.command()
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

    targets = refreshing.refreshable(chosen, named)
    with locked(store.root):
        session = http.session(store.root / refreshing.HTTP_CACHE, stored=store.stored)
        results = refreshing.refresh(targets, store, SOURCES_DIR, date.today(), session)
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


@cli.command()
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
    metavar="REASON",
    type=Words(500),
    help="Publish decks even with suspicious changes (see `geodeck diff`); REASON (at most 500 characters) goes "
    "into CHANGELOG.md.",
)
@jobs_option("Steps running side by side, each in its own process; the outputs are the same for every value.")
@mirror_option
@offline_option
def build(stages, force, accept, jobs, mirror, offline):
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
    from pipeline.build.step import Context
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
        accept=accept,
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


@cli.command()
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
    from pipeline.decks import diff as diffing
    from pipeline.decks import stage

    result = stage.compare(game, old, new)
    show(result, fmt, diffing)
    if result["suspicious"]:
        raise SystemExit(1)


@cli.command()
@game_argument
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Folder of the page (index.html and the card images), replaced whole; default output/review/GAME/.",
)
@click.option("--lang", type=click.Choice(["de", "en"]), help="Language of the card images (default: the game's own).")
@force_option("--out")
@mirror_option
@offline_option
def review(game, old, new, out, lang, force, mirror, offline):
    """Write a static HTML page to decide whether to publish a refresh of GAME: the summary and the build
    gate's verdict, then every changed card old and new side by side as printed, changed values with their
    source, vintage and citation (suspicious first), filters, and the command that accepts the change.

    NEW defaults to the unpublished build (what `geodeck diff` compares), else LATEST; OLD to LATEST for a
    build, else the version before NEW. Open DIR/index.html in a browser; no server needed.
    """
    from pipeline.extract import open_store
    from pipeline.paths import OUTPUT_DIR
    from pipeline.review import page

    store = open_store(mirror=mirror, online=not offline)
    written = page.write(game, old, new, out or OUTPUT_DIR / "review" / game, store, lang, force)
    _wrote(written.path, f"the review of {game} {written.old} → {written.new}, {written.changed} changed cards")


@cli.command()
@click.argument("game", metavar="[GAME]", required=False, type=GameChoice())
def verify(game):
    """Check every published version of GAME (default: every game) against its manifest, file by file.

    deck.json edited after publishing (its content hash or version no longer the manifest's) or refused by
    the deck checks; a deck.csv, datapackage.json or CHANGELOG.md that does not match deck.json; a LATEST
    that does not name the newest version; a staging folder left by an interrupted publish: each is
    reported with the file and the fix, and the exit code is then 1.
    """
    from pipeline.decks import integrity

    results = integrity.verify_all([game] if game else games.names())
    table = Table("game", "version", "result", title="published decks")
    for name, version, problems in results:
        table.add_row(name, version, f"{len(problems)} problem(s)" if problems else "ok")
    out.print(table)
    for problem in (p for *_, problems in results for p in problems):
        error_line(problem)
    if any(problems for *_, problems in results):
        raise SystemExit(1)


@cli.command("games")
@click.option("--names", is_flag=True, help="Only the names, one per line (for scripts and the Makefile).")
def list_games(names):
    """The games geodeck builds, prints and play-checks (each a folder pipeline/games/<game>/)."""
    from pipeline.decks.spec import load_spec

    if names:
        click.echo("\n".join(games.names()))
        return

    table = Table("GAME", "title", "players", "default players", "accessories", title="games")
    for name, definition in games.registered().items():
        table.add_row(
            name,
            load_spec(name).title,
            _player_counts(name, definition),
            str(definition.default_players),
            definition.accessories_help,
        )
    out.print(table)


def _player_counts(name: str, definition: games.GameDefinition) -> str:
    """The player counts the rules allow with the latest published deck (the World Game's depend on its
    size), or "?" before a deck is published."""
    from pipeline.decks import published

    try:
        deck = published.deck(name)[1]
    except GeodeckError:
        return "?"
    low, high = definition.player_counts(deck)
    return str(low) if low == high else f"{low}-{high}"


@cli.command("print")
@game_argument
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@choice_option(
    "--paper",
    choices=["a4", "letter", "a3"],
    help="Paper size; a3 only with --what accessories.",
)
@choice_option(
    "--layout",
    choices=["sheet", "one-up"],
    help="sheet: 3 × 3 cards per page with crop marks; one-up: one card per page at trim + bleed "
    "with TrimBox/BleedBox (print shops).",
)
@choice_option(
    "--duplex",
    choices=["long", "short", "none"],
    help="long: backs page mirrored for a long-edge flip (columns); short: short-edge flip (rows); "
    "none: backs at the same positions, to print separately and glue.",
)
@click.option("--bleed", type=Bounded(float, 0, 10, " mm"), help="Bleed in mm, 0-10 (default from the template, 3 mm).")
@click.option(
    "--gutter",
    type=Bounded(float, 0, 20, " mm"),
    help="Gap between the cards of a sheet in mm, each card with its own bleed (default 0: butted); refused "
    "where the crop marks beside it would not lie outside the bleed and print (A4: 2 with --bleed 0.5).",
)
@click.option(
    "--back-offset",
    default="0,0",
    show_default=True,
    help="X,Y in mm (each -10 to 10) added to every back (x right, y up, looking at the backs page); measure "
    "it with --calibration.",
)
@click.option("--lang", type=click.Choice(["de", "en"]), help="Card language (default: the game's own).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="PDF file (default: output/print/<game>-<version>-...pdf); with --what all the folder that "
    "receives both PDFs under their default names.",
)
@click.option(
    "--calibration",
    is_flag=True,
    help="Write the one-sheet duplex calibration PDF instead of cards: crosses on the front, millimetre "
    "grids behind them; the X,Y where a cross shows through, plus the offset used, is --back-offset.",
)
@choice_option(
    "--what",
    choices=["cards", "accessories", "all"],
    help="cards: the card sheets. accessories: the rest the game needs, as its own PDF ("
    + "; ".join(f"{name}: {g.accessories_help}" for name, g in games.registered().items())
    + "). all: both PDFs.",
)
@click.option(
    "--kit",
    is_flag=True,
    help="Write the whole print-and-play kit as one PDF with bookmarks: cover, rules summary, cards and "
    "backs, accessories, sources and licences (--what is then ignored).",
)
@click.option(
    "--for-sale",
    is_flag=True,
    help="Replace every drawn layer whose licence does not allow selling (non-commercial or unknown), or "
    "refuse the print; says which it replaced (docs/printing.md).",
)
@choice_option(
    "--for",
    "purpose",
    choices=["home", "print-shop"],
    help="home: RGB for home printers. print-shop: a PDF/X-4 in CMYK through an ICC output profile, one card "
    "per page with TrimBox and BleedBox, black text in black ink alone (docs/printing.md).",
)
@click.option(
    "--icc",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With --for print-shop: the print shop's CMYK output profile (default: FOGRA39, coated offset paper, "
    "templates/icc/).",
)
@force_option("--what all --out DIR")
@mirror_option
@offline_option
def print_cards(
    game,
    version,
    paper,
    layout,
    duplex,
    bleed,
    gutter,
    back_offset,
    lang,
    out,
    calibration,
    what,
    kit,
    for_sale,
    purpose,
    icc,
    force,
    mirror,
    offline,
):
    """Print-and-play PDF of GAME's published deck: card fronts and backs, duplex-ready; with --what
    accessories (or all) the map, strips and scoring sheet the game needs. Reads only the deck and pinned
    layers (flags, maps) from the snapshot store: no build needed."""
    from pipeline.decks import published
    from pipeline.extract import open_store
    from pipeline.paths import PRINT_DIR
    from pipeline.render import accessories, geometry, layouts, printing
    from pipeline.render import calibration as calibration_sheet

    _refuse_meaningless_print_options(click.get_current_context(), what, layout, duplex)
    press = _press(click.get_current_context(), purpose, icc)
    if out is not None and what != "all":
        atomic.check_new_target(out)
    folder = PRINT_DIR
    if out and what == "all":
        if out.suffix.lower() == ".pdf":
            raise GeodeckError(
                f"--what all writes two PDFs, so --out names their folder, not a file: use e.g. "
                f"--out {out.with_suffix('')}"
            )
        folder, out = out, None
    if out is None:
        outputs.check(folder, "--out", force, ("*.pdf",))
    offset = geometry.parse_offset(back_offset)
    if what == "accessories":
        extras = accessories.AccessoryOptions(paper=paper, lang=lang, for_sale=for_sale).validate()
        store = open_store(mirror=mirror, online=not offline)
        deck = published.deck(game, version)[1]
        result = accessories.print_accessories(deck, extras, store, out)
        _wrote(result.path, f"{pages(result.pages)}, {size(result.bytes)}")
        return
    options = printing.PrintOptions(
        paper=paper,
        layout="one-up" if press else layout,
        duplex=duplex,
        bleed=bleed,
        gutter=gutter,
        back_offset=offset,
        lang=lang,
        for_sale=for_sale,
        press=press,
    ).validate()
    if calibration:
        path = out or calibration_sheet.default_output(folder, paper, duplex, layouts.load(game).language(lang))
        atomic.write_bytes(path, calibration_sheet.render(paper, duplex, offset, layouts.load(game).language(lang)))
        _wrote(path, "the duplex calibration sheet, 2 pages")
        return
    if options.layout == "sheet":
        card_layout = layouts.load(game)
        sheet = printing.sheet_for(options, card_layout.card_mm, printing.bleed_of(options, card_layout))
        if note := sheet.cramped():
            console.print(f"note: {note}", highlight=False, markup=False, soft_wrap=True)
    store = open_store(mirror=mirror, online=not offline)
    deck_path, deck = published.deck(game, version)
    if kit:
        from pipeline.render import kit as kit_pdf

        result = kit_pdf.print_kit(deck_path, deck, options, store, out)
        _wrote(result.path, f"the kit, {result.cards} cards, {pages(result.pages)}, {size(result.bytes)}")
        return
    with progress() as bar:
        task = bar.add_task(f"printing {game}", total=len(deck["cards"]))
        result = printing.print_deck(
            deck,
            options,
            store,
            out or printing.default_output(deck, options, folder),
            on_card=lambda _: bar.advance(task),
        )
    _wrote(result.path, f"{result.cards} cards, {pages(result.pages)}, {size(result.bytes)}")
    if what == "all":
        extras = accessories.AccessoryOptions(paper=paper, lang=lang, for_sale=for_sale).validate()
        result = accessories.print_accessories(deck, extras, store, accessories.default_output(deck, extras, folder))
        _wrote(result.path, f"accessories, {pages(result.pages)}, {size(result.bytes)}")


@cli.command("export")
@game_argument
@click.option(
    "--service",
    required=True,
    help="The card service: mpc, printerstudio, tgc or drivethrucards (their sizes in templates/services/).",
)
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@click.option("--lang", type=click.Choice(["de", "en"]), help="Card language (default: the game's own).")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Zip file (default: output/export/<game>-<version>-<service>-<lang>.zip).",
)
@click.option("--for-sale", is_flag=True, help="Replace the layers that may not be sold, as print --for-sale does.")
@jobs_option("Processes rasterising the cards.")
@mirror_option
@offline_option
def export_cards(game, service, version, lang, out, for_sale, jobs, mirror, offline):
    """One image per card face for a print-on-demand card service, zipped: fronts numbered in deck order, one
    shared back where all backs are equal, the deck list (CSV) and what to order; warns when text crosses
    the service's safe zone or the card count does not fill its deck sizes (docs/printing.md)."""
    from pipeline.decks import published
    from pipeline.extract import open_store
    from pipeline.render import services

    chosen = services.load(service)
    if out is not None:
        atomic.check_new_target(out)
    store = open_store(mirror=mirror, online=not offline)
    deck = published.deck(game, version)[1]
    result = services.export(deck, chosen, store, lang, out, jobs, for_sale)
    from pipeline.render import licences

    for line in [*(licences.replacement_lines(game) if for_sale else []), *map("warning: {}".format, result.warnings)]:
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(
        f"wrote {result.fronts} fronts and {result.backs} {'back' if result.backs == 1 else 'backs'} for "
        f"{chosen.title}, order {services.ordered(result.decks)}, {size(result.bytes)}:",
        highlight=False,
        markup=False,
    )
    console.print(str(result.path), highlight=False, markup=False, soft_wrap=True)


def _refuse_meaningless_print_options(ctx: click.Context, what: str, layout: str, duplex: str) -> None:
    refuse_together(ctx, "kit", ("what", "calibration"), "--kit writes the whole kit (cards and accessories)")
    refuse_together(
        ctx, "calibration", ("version", "what", "layout", "bleed", "gutter"), "--calibration writes only its sheet"
    )
    if what == "accessories":
        refuse_together(
            ctx, "what", ("layout", "duplex", "bleed", "gutter", "back_offset"), "--what accessories prints no cards"
        )
    if layout == "one-up":
        refuse_together(ctx, "gutter", ("layout",), "a one-up page holds one card, so there is no gutter")
    if duplex == "none":
        refuse_together(ctx, "back_offset", ("duplex",), "--duplex none prints the backs to be glued, not flipped")


def _press(ctx: click.Context, purpose: str, icc: Path | None):
    """The print shop's colour path (its profile read now, so a bad --icc fails before the work), or None."""
    from pipeline.render.press import DEFAULT_PROFILE, Press

    if purpose != "print-shop":
        if icc is not None:
            raise click.UsageError("--icc is the print shop's profile: give it with --for print-shop")
        return None
    refuse_together(
        ctx,
        "purpose",
        ("layout", "kit", "calibration", "what", "gutter", "duplex", "back_offset"),
        "--for print-shop writes one card per page, fronts and backs, for the shop to impose",
    )
    press = Press(icc or DEFAULT_PROFILE)
    press.icc  # noqa: B018 (read and checked now)
    return press


def size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 100_000 else f"{count / 1e3:.0f} kB"


def pages(count: int) -> str:
    return f"{count} page" if count == 1 else f"{count} pages"


def _wrote(path: Path, details: str) -> None:
    """What was written, then its path on a line of its own that never wraps (copyable in a narrow terminal)."""
    game = click.get_current_context().params.get("game")
    if click.get_current_context().params.get("for_sale") and game:
        from pipeline.render import licences

        for line in licences.replacement_lines(game):
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(f"wrote {details}:", highlight=False, markup=False)
    console.print(str(path), highlight=False, markup=False, soft_wrap=True)


@cli.command("play-check")
@game_argument
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Check this deck.json instead of a published version (e.g. a draft).",
)
@click.option(
    "--games",
    default=1000,
    show_default=True,
    type=Bounded(int, 1, 1_000_000),
    help="Random playouts, 1-1,000,000, and as many expert playouts per seat count; each ladder rung adds "
    "a quarter of this. Playouts an undecided verdict needs are doubled until --max-games.",
)
@click.option(
    "--max-games",
    type=Bounded(int, 1, 8_000_000),
    help="The most random (and per seat count) playouts when verdicts stay undecided (default: 8 × --games; "
    "--games for one look).",
)
@click.option(
    "--players",
    type=Bounded(int, 1, 99),
    help="Players, as many as the game's rules allow (default: "
    + ", ".join(f"{n} {g.default_players}" for n, g in games.registered().items())
    + ").",
)
@click.option(
    "--seed",
    default=0,
    show_default=True,
    type=Bounded(int, 0, 2**32 - 1),
    help="Seed of the playouts, 0-4294967295 (same seed, same report).",
)
@jobs_option("Processes playing in parallel; the report is the same for every value.")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Play on a Dask cluster (e.g. tcp://host:8786, started with `dask scheduler` and `dask worker`) "
    "instead of local processes; same report.",
)
@click.option(
    "--report-dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Also write report.json, report.md and the plots to this folder's GAME/VERSION/ "
    "(make play-check: output/reports).",
)
@click.option(
    "--save-records",
    "records_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Write every game played as a record into this folder (SEED-KIND-I.json; `geodeck replay` checks one); "
    "it is replaced whole at the end.",
)
@force_option("--report-dir and --save-records")
@format_option
def play_check(
    game, version, deck_file, games, max_games, players, seed, jobs, scheduler, report_dir, records_dir, force, fmt
):
    """Does GAME's deck play well? Simulate it with the bundled rules engines and judge the figures.

    Seeded playouts (random players; every seat the same bot per player count; a ladder of bots, one
    stronger seat against the rung below) measure game length, win share per seat (first-player
    advantage), shared wins, lead changes, branching factor, ties per category, each card's win index and
    continent balance, each with its 95 % interval. Verdicts compare the interval with the game's
    thresholds (templates/playcheck/GAME.toml, docs/rules-engines.md), corrected for the number of
    verdicts and looks: exit code 0 if all pass, 1 if one fails, 3 if none fails but some are still
    undecided at --max-games (each names about how many games would decide it).
    """
    from pipeline.decks import published
    from pipeline.playcheck import report as reports
    from pipeline.playcheck import runner as playcheck
    from pipeline.records import tape

    ctx = click.get_current_context()
    refuse_together(ctx, "deck_file", ("version",), "--deck checks that file, not a published version")
    refuse_together(ctx, "scheduler", ("jobs",), "on a Dask cluster the workers play, not local processes")
    if scheduler is not None and not scheduler.strip():
        raise click.BadParameter(
            "is empty: give the scheduler's address, e.g. tcp://host:8786", param_hint="--scheduler"
        )
    deck, path = playcheck.load(game, version, deck_file)
    if report_dir:
        outputs.check(reports.folder(report_dir, deck, published.is_draft(path)), "--report-dir", force, reports.OWN)
    saved = outputs.replacing(records_dir, "--save-records", force) if records_dir else nullcontext()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a killed check ends its worker processes too
    with saved as records_staging, progress() as bar:
        task = bar.add_task(f"playing {game}", total=None)
        report = playcheck.check(
            deck,
            players,
            games,
            seed,
            str(path),
            jobs=jobs,
            scheduler=scheduler,
            on_start=lambda total: bar.update(task, total=total),
            on_games=lambda n: bar.advance(task, n),
            watch=tape.Saver(records_staging, deck) if records_staging else None,
            max_games=max_games or playcheck.GROWTH * games,
        )
    if report_dir:
        written = reports.write(report, report_dir, published.is_draft(path), force)
        console.print(f"wrote {written}", highlight=False, markup=False, soft_wrap=True)
    show(report, fmt, reports)
    if report["result"] != "pass":
        raise SystemExit(reports.EXIT_CODES[report["result"]])


@cli.command("play")
@game_argument
@click.option(
    "--players", type=Bounded(int, 1, 99), help="Players (default: as many as --seats names, else the game's default)."
)
@click.option(
    "--seats",
    help="Who plays each seat, comma-separated: human or bot:LEVEL, a level of the game's bots (random, "
    "novice, skilled, expert, mcts: the search bot; the World Game also child and master: docs/world-game.md "
    "gives each level's answer rates), e.g. human,bot:expert,bot:random. Default: you, then expert bots.",
)
@click.option("--lang", type=click.Choice(["de", "en"]), help="Language of the table (default: the game's own).")
@click.option(
    "--seed",
    type=Bounded(int, 0, 2**32 - 1),
    help="Seed of the deal, the bots and chance, 0-4294967295 (default: a random one, recorded).",
)
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@click.option(
    "--deck", "deck_file", type=click.Path(path_type=Path, dir_okay=False), help="Play this deck.json instead."
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where the game's record goes (default: output/records/GAME-SEED.json); saved after every move.",
)
@click.option("--force", is_flag=True, help="Overwrite the record file if it exists (else an existing one is refused).")
@click.option(
    "--variant",
    "chosen_variants",
    multiple=True,
    metavar="NAME[=VALUE]",
    help="A variant of the game's rulebook, NAME or NAME=VALUE, repeatable (--variant list names the game's "
    "variants; docs/rules-engines.md).",
)
def play(game, players, seats, lang, seed, version, deck_file, record_path, force, chosen_variants):
    """Play GAME in the terminal against bots (or friends at the same keyboard).

    The table shows what your seat may see, the legal moves numbered and the scores, and every trick or
    round as it is revealed; type a move's number or the move itself (a World Game answer as free text), ?
    for help, h for the history, q to leave. With two humans the screen is cleared between their turns.
    The game is saved as a record (also when you leave early, Ctrl-C included) that
    `geodeck replay` checks move by move. Exit code 0 when the game was played to its end, 130 when left.
    """
    import random

    from pipeline.decks import published
    from pipeline.extract.store import open_store
    from pipeline.paths import OUTPUT_DIR
    from pipeline.play import loop, pictures, variants
    from pipeline.play import seats as seating
    from pipeline.render import layouts

    refuse_together(
        click.get_current_context(), "deck_file", ("version",), "--deck plays that file, not a published version"
    )
    definition = games.get(game)
    if variants.LIST in chosen_variants:
        out.print(variants.listing(definition), highlight=False, markup=False, soft_wrap=True)
        return
    options = variants.options(chosen_variants, definition)
    deck = published.read(deck_file, game) if deck_file else published.deck(game, version)[1]
    chosen = seating.parse(seats, players, definition)
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    path = record_path or OUTPUT_DIR / "records" / f"{game}-{seed}.json"
    language = layouts.load(game).language(lang)
    flag = pictures.drawer(out, open_store)
    _, finished = loop.play(
        definition, deck, chosen, language, seed, path, out, options=options, force=force, flag=flag
    )
    if not finished:
        raise SystemExit(130)


@cli.command()
@click.argument("record_file", metavar="RECORD.json", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The deck.json the game was played with (default: the published version the record names).",
)
@choice_option("--format", "fmt", choices=["table", "json"], help="table: on the terminal; json: for scripts.")
def replay(record_file, deck_file, fmt):
    """Check a game record move by move against the rules and print the scores (docs/records.md).

    The record must name the deck it was played with (version and content hash). An illegal move stops the
    replay with its number and the rule it breaks (exit code 2), as does a record whose scores differ.
    """
    from pipeline.records import record as records
    from pipeline.records import replay as replaying

    record = records.load(record_file)
    state = replaying.replay(record, replaying.deck_of(record, deck_file, str(record_file)), str(record_file))
    result = replaying.summary(record, state)
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=1))
        return
    out.print(
        f"{record.game} deck {record.deck.version}: {result['moves']} moves replayed, every one legal; "
        + ("the game is finished." if result["finished"] else "the record ends before the game (scores so far)."),
        highlight=False,
    )
    table = Table("seat", "plays", "score", "")
    lead = "wins" if result["finished"] else "leads"
    for seat in result["seats"]:
        table.add_row(seat["name"], seat["plays"], str(seat["score"]), lead if seat["winner"] else "")
    out.print(table)


for _command in games.commands():
    cli.add_command(_command)
strict(cli)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        console.print("aborted")
        sys.exit(130)
    except click.UsageError as exc:  # one line, like every other error, with where the help is
        command = exc.ctx.command_path if exc.ctx else "geodeck"
        error_line(f"{exc.format_message()} (see `{command} --help`)")
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        error_line(exc.format_message())
        sys.exit(exc.exit_code)
    except GeodeckError as exc:
        error_line(str(exc))
        sys.exit(exc.exit_code)
    except OSError as exc:  # the environment, not a bug: a full disk, a read-only folder, a vanished file
        where = f"{exc.filename}: " if exc.filename else ""
        error_line(f"{where}{exc.strerror or exc}; check the path, its permissions and the free space")
        sys.exit(2)


if __name__ == "__main__":
    main()
