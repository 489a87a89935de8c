"""The print commands: the print-and-play PDFs, the export for card services and the review page."""

import dataclasses
from pathlib import Path

import click

from pipeline import atomic, outputs
from pipeline.cli.common import (
    choice_option,
    counted,
    game_argument,
    language,
    named,
    optional_game,
    pages,
    size,
    wrote,
)
from pipeline.cli_output import (
    Bounded,
    console,
    force_option,
    jobs_option,
    lang_option,
    mirror_option,
    offline_option,
    progress,
    refuse_together,
)
from pipeline.errors import GeodeckError
from pipeline.games import registry as games

PRINTED = ("*.pdf", "*.txt")  # what print adds to its folder: PDFs, and a print shop's note


@click.command()
@game_argument
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Folder of the page (index.html and the card images), replaced whole; default output/review/GAME/.",
)
@lang_option("Language of the card images and the page's words")
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
    from pipeline import paths
    from pipeline.extract import open_store
    from pipeline.review import page

    store = open_store(mirror=mirror, online=not offline)
    written = page.write(game, old, new, out or paths.OUTPUT_DIR / "review" / game.name, store, lang, force)
    wrote(written.path, f"the review of {game.name} {written.old} → {written.new}, {written.changed} changed cards")


def deck_option(verb: str):
    """`--deck FILE`: a deck.json instead of a published version; its `game` field names the game."""
    return click.option(
        "--deck",
        "deck_file",
        type=click.Path(path_type=Path, dir_okay=False),
        help=f"{verb} this deck.json instead of a published version (a draft, an edited copy, a deck from "
        'another checkout); GAME may be left out: the deck\'s "game" names it. Checked as a published deck; '
        "without a manifest.json beside it, it is a draft and the print says so where it names the version.",
    )


def cards_option(verb: str):
    """`--cards ID,…`: some of the deck's cards, e.g. to replace lost or damaged ones."""
    return click.option(
        "--cards",
        "card_ids",
        metavar="ID,…",
        help=f"{verb} only these cards (comma-separated ids, printed in the deck's order, backs behind their "
        "fronts), e.g. to replace lost ones; the deck's deck.csv lists the ids. Not with --kit or accessories.",
    )


@click.command("print")
@optional_game
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@deck_option("Print")
@cards_option("Print")
@choice_option(
    "--paper",
    choices=["a4", "letter", "a3"],
    help="Paper size of sheets and accessories; a3 only with --what accessories. Refused for one card per page "
    "(--layout one-up of cards alone, --for print-shop): the page is the card.",
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
@lang_option("Card language")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="PDF file, ending in .pdf (default: output/print/<game>-<version>-...pdf); with --what all the folder that "
    "receives both PDFs under their default names; with --kit --for print-shop the folder of the shop's five files.",
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
    "backs, accessories, sources and licences (so not with --what, which chooses among them).",
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
    "per page with TrimBox and BleedBox, black text in black ink alone (docs/printing.md); with --kit the whole "
    "kit as PDF/X-4 files (rules booklet, cards, accessories, tuck box die-line) and a note for the shop, into "
    "the folder --out names.",
)
@click.option(
    "--icc",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With --for print-shop: the print shop's CMYK output profile (default: FOGRA39, coated offset paper, "
    "templates/icc/).",
)
@force_option("--out", files=True)
@mirror_option
@offline_option
def print_cards(
    game,
    version,
    deck_file,
    card_ids,
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
    """Print-and-play PDF of GAME's published deck (or of the deck.json --deck names, e.g. a draft): card
    fronts and backs, duplex-ready, all of them or those --cards names; with --what accessories (or all) the
    map, strips and scoring sheet the game needs. Reads only the deck and pinned layers (flags, maps) from the
    snapshot store: no build needed."""
    from pipeline.extract import open_store
    from pipeline.render import geometry, printing

    ctx = click.get_current_context()
    _refuse_meaningless_print_options(ctx, what, layout, duplex, kit)
    press = _press(ctx, purpose, icc)
    several = what == "all" or (kit and press is not None)  # files: --out names their folder
    folder, out = _print_destination(out, what, force, several)
    offset = geometry.parse_offset(back_offset)
    if what == "accessories":
        game, _, deck, draft, shown = _deck(ctx, game, version, deck_file, lang)
        _print_accessories(
            game, deck, paper, shown, for_sale, draft, open_store(mirror=mirror, online=not offline), out
        )
        return
    options = _sheet_options(press, paper, layout, duplex, bleed, gutter, offset, for_sale)
    if calibration:
        _print_calibration(_required(game), paper, duplex, offset, lang, out, folder)
        return
    game, deck_path, deck, options = _sheets_deck(ctx, game, version, deck_file, card_ids, options, lang)
    store = open_store(mirror=mirror, online=not offline)
    if kit:
        _print_kit(game, deck_path, deck, options, store, out, folder)
        return
    _print_sheets(game, deck, options, store, out or printing.default_output(game, deck, options, folder))
    if what == "all":
        _print_accessories(game, deck, paper, options.lang, for_sale, options.draft, store, None, folder)


def _sheet_options(press, paper, layout, duplex, bleed, gutter, offset, for_sale):
    """The card sheets' options, checked (a print shop's PDF: one card per page); their language is the deck's
    (`_sheets_deck`)."""
    from pipeline.render import printing

    return printing.PrintOptions(
        paper=paper,
        layout="one-up" if press else layout,
        duplex=duplex,
        bleed=bleed,
        gutter=gutter,
        back_offset=offset,
        for_sale=for_sale,
        press=press,
    ).validate()


def _sheets_deck(ctx: click.Context, game, version: str | None, deck_file: Path | None, card_ids, options, lang):
    """The game, the deck's path, the deck and the print options with the deck's language, draft state and
    --cards; says when the layout is cramped (before the deck is read when GAME is given, after it when --deck
    names it)."""
    game_from_file = game is None  # --deck alone: the file names the game
    if not game_from_file:  # the note before the deck is read
        _note_cramped(game, options)
    game, deck_path, deck, draft, shown = _deck(ctx, game, version, deck_file, lang)
    options = dataclasses.replace(options, lang=shown, draft=draft, only=_only(card_ids, deck, deck_path, draft))
    if game_from_file:
        _note_cramped(game, options)
    return game, deck_path, deck, options


def _print_destination(out: Path | None, what: str, force: bool, several: bool) -> tuple[Path, Path | None]:
    """The folder the PDFs go to and the file --out names (None: each PDF under its default name), both checked:
    --out names a new PDF, or where `several` files are written (--what all, a print shop's kit) their folder."""
    from pipeline import paths

    if out is not None and not several:
        _check_out_file(out, ".pdf", force)
    folder = paths.PRINT_DIR
    if out and several:
        if out.suffix.lower() == ".pdf":
            what_writes = "--what all writes two PDFs" if what == "all" else "a print shop's kit is five files"
            raise GeodeckError(
                f"{what_writes}, so --out names their folder, not a file: use e.g. --out {out.with_suffix('')}"
            )
        folder, out = out, None
    if out is None:
        outputs.check(folder, "--out", force, PRINTED, complete=False)
    return folder, out


def _print_accessories(game, deck, paper, lang, for_sale, draft, store, out: Path | None, folder: Path | None = None):
    """The accessories PDF: to `out` (None: its default name) when printed alone; with `folder` (--what all,
    beside the cards) under its default name there, and named as the accessories."""
    from pipeline.render import accessories

    extras = accessories.AccessoryOptions(paper=paper, lang=lang, for_sale=for_sale, draft=draft).validate()
    path = out if folder is None else accessories.default_output(game, deck, extras, folder)
    result = accessories.print_accessories(game, deck, extras, store, path)
    wrote(result.path, f"{'accessories, ' if folder is not None else ''}{pages(result.pages)}, {size(result.bytes)}")


def _print_calibration(game, paper, duplex, offset, lang, out: Path | None, folder: Path) -> None:
    """The one-sheet duplex calibration PDF, in the game's card language."""
    from pipeline.render import calibration as calibration_sheet

    shown = language(game, lang)
    path = out or calibration_sheet.default_output(folder, paper, duplex, shown)
    atomic.write_bytes(path, calibration_sheet.render(paper, duplex, offset, shown))
    wrote(path, "the duplex calibration sheet, 2 pages")


def _print_kit(game, deck_path, deck, options, store, out: Path | None, folder: Path) -> None:
    """The whole print-and-play kit as one PDF; for a print shop (`options.press`) its files in `folder`."""
    from pipeline.render import kit as kit_pdf

    if options.press is not None:
        from pipeline.render import shop

        manifest = kit_pdf.manifest_for(deck_path, deck, options.draft)
        for written in shop.print_kit(game, deck, manifest, options, store, folder):
            wrote(
                written.path,
                f"{written.what}, {pages(written.pages)}, {size(written.bytes)}" if written.pages else written.what,
            )
        return
    result = kit_pdf.print_kit(game, deck_path, deck, options, store, out)
    wrote(result.path, f"the kit, {counted(result.cards, 'card')}, {pages(result.pages)}, {size(result.bytes)}")


def _print_sheets(game, deck, options, store, path: Path) -> None:
    """The card sheets (fronts and backs), with a progress bar per card."""
    from pipeline.render import printing

    with progress() as bar:
        task = bar.add_task(f"printing {game.name}", total=len(printing.chosen(deck, options)))
        result = printing.print_deck(game, deck, options, store, path, on_card=lambda _: bar.advance(task))
    wrote(result.path, f"{counted(result.cards, 'card')}, {pages(result.pages)}, {size(result.bytes)}")


@click.command("export")
@optional_game
@click.option(
    "--service",
    required=True,
    help="The card service or digital table: mpc, printerstudio, tgc, drivethrucards, tts, csv (templates/services/).",
)
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@deck_option("Export")
@cards_option("Export")
@lang_option("Card language")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Zip file, ending in .zip (default: output/export/<game>-<version>-<service>-<lang>.zip).",
)
@click.option("--for-sale", is_flag=True, help="Replace the layers that may not be sold, as print --for-sale does.")
@jobs_option("Processes rasterising the cards.")
@force_option("--out", files=True, folders=False)
@mirror_option
@offline_option
def export_cards(game, service, version, deck_file, card_ids, lang, out, for_sale, jobs, force, mirror, offline):
    """One image per card face for a print-on-demand card service, zipped (DriveThruCards: in one PDF): fronts
    numbered in deck order, one shared back where all backs are equal, blank fillers for the empty slots, the
    deck list (CSV) and what to order; warns when text crosses the service's safe zone (docs/printing.md).
    `--service tts`: Tabletop Simulator's deck sheets and saved object; `csv`: images and a spreadsheet. Of
    GAME's published deck or the deck.json --deck names; all cards or those --cards names."""
    from pipeline.extract import open_store
    from pipeline.render import services

    chosen = services.load(service)
    if out is not None:
        _check_out_file(out, ".zip", force)
    game, deck_path, deck, draft, shown = _deck(click.get_current_context(), game, version, deck_file, lang)
    only = _only(card_ids, deck, deck_path, draft)
    store = open_store(mirror=mirror, online=not offline)
    result = services.export(game, deck, chosen, store, shown, out, jobs, for_sale, only, draft)
    for warning in result.warnings:
        console.print(f"warning: {warning}", highlight=False, markup=False, soft_wrap=True)
    wrote(result.path, f"{result.summary}, {size(result.bytes)}")


def _note_cramped(game, options) -> None:
    """Say when the sheet's paper leaves the cards little room (letter: the bleed is cut at the page's edge)."""
    from pipeline.render import layouts, printing

    if options.layout == "sheet":
        card_layout = layouts.load(game)
        sheet = printing.sheet_for(options, card_layout.card_mm, printing.bleed_of(options, card_layout))
        if note := sheet.cramped():
            console.print(f"note: {note}", highlight=False, markup=False, soft_wrap=True)


def _required(game, alternative: str = ""):
    """GAME, which a command without --deck needs (`alternative`: what may name the game instead)."""
    if game is None:
        raise click.UsageError(f"Missing argument 'GAME': name a game (`geodeck games` lists them){alternative}")
    return game


def _deck(ctx: click.Context, game, version: str | None, deck_file: Path | None, lang):
    """(game, path, deck with its names in the language shown, whether it is a draft, that language) to print:
    GAME's published version, or the deck.json --deck names (its game its own; GAME, if given, must be it);
    the language --lang names, else the game's own."""
    from pipeline.decks import pinned, published
    from pipeline.games import registry
    from pipeline.render import printing

    if deck_file is None:
        path, deck = published.deck(_required(game, " or --deck FILE"), version)
        game = pinned.at(game, path.parent.name)  # the version's own templates
        shown = language(game, lang)
        return game, path, named(game, deck, shown), False, shown
    refuse_together(ctx, "deck_file", ("version",), "--deck prints that file, not a published version")
    found, deck = published.read_any(deck_file, registry.registered().get)
    if game is not None and found.name != game.name:
        raise GeodeckError(
            f"{deck_file} is a {found.name} deck, not {game.name}: leave GAME out to print it, or name a "
            f"{game.name} deck.json"
        )
    printing.check_card_size(found, deck, str(deck_file))
    ctx.params["game"] = found  # `wrote` says what --for-sale replaced for this game
    shown = language(found, lang)
    return found, deck_file, named(found, deck, shown), published.is_draft(deck_file), shown


def _only(card_ids: str | None, deck: dict, path: Path, draft: bool) -> tuple[str, ...] | None:
    """The ids --cards names, checked against the deck (None: every card)."""
    from pipeline.decks import subset

    if card_ids is None:
        return None
    where = f'the "id" of each card in {path}' if draft else f"the deck's deck.csv: {path.parent / 'deck.csv'}"
    return subset.chosen(card_ids, deck, f"its ids are {where}")


def _check_out_file(out: Path, suffix: str, force: bool) -> None:
    """`--out` can be written and ends in `suffix`: a folder meant (`--out DIR/`), another kind of file or,
    without --force, an existing file is refused before the work, not written as a file of that name."""
    outputs.check_file(out, "--out", force)
    if out.suffix.lower() != suffix:
        raise GeodeckError(
            f"--out {out}: the command writes a {suffix} file, so name one ending in {suffix} "
            f"(e.g. --out {out.with_suffix(suffix)})"
        )


def _refuse_meaningless_print_options(ctx: click.Context, what: str, layout: str, duplex: str, kit: bool) -> None:
    refuse_together(ctx, "kit", ("what", "calibration"), "--kit writes the whole kit (cards and accessories)")
    refuse_together(
        ctx,
        "calibration",
        ("version", "deck_file", "card_ids", "what", "layout", "bleed", "gutter"),
        "--calibration writes only its sheet",
    )
    refuse_together(ctx, "card_ids", ("kit",), "--cards prints some of the cards; a kit holds them all")
    if what != "cards":
        refuse_together(ctx, "card_ids", ("what",), "--cards prints some of the cards, no accessories")
    if what == "accessories":
        refuse_together(
            ctx, "what", ("layout", "duplex", "bleed", "gutter", "back_offset"), "--what accessories prints no cards"
        )
    if layout == "one-up":
        refuse_together(ctx, "gutter", ("layout",), "a one-up page holds one card, so there is no gutter")
        if what == "cards" and not kit:
            refuse_together(ctx, "paper", ("layout",), "a one-up page is the card's size, not a paper's")
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
        ("layout", "calibration", "what", "paper", "gutter", "duplex", "back_offset"),
        "--for print-shop writes one card per page, fronts and backs, for the shop to impose (with --kit also "
        "the rules booklet, the accessories and a tuck box)",
    )
    press = Press(icc or DEFAULT_PROFILE)
    press.icc  # noqa: B018 (read and checked now)
    return press
