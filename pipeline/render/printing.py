"""Print orchestration: a deck version → a print-and-play PDF (sheets of COLUMNS × ROWS cards, or one card per page).

Sheets: a fronts page, then its backs page placed for the duplex flip (long edge mirrors the columns,
short edge the rows, `none` keeps the positions for printing the backs separately and gluing); cards
butted or apart by a gutter (`gutter`, default: geometry.default_gutter for the paper).
One-up: front and back of each card on consecutive pages of trim + bleed, with TrimBox and BleedBox.
Output is deterministic: reportlab's invariant mode fixes the dates and the document id.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm

from pipeline import atomic, paths
from pipeline.decks import published, subset, translated, versions
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.render import layouts, licences, ports, text, titles
from pipeline.render.context import CardContext
from pipeline.render.geometry import DUPLEX_MODES, PER_SHEET, Rect, Sheet, default_gutter, one_up_page, paper_size
from pipeline.render.pages import Canvas, begin_page, clipped, describe, end_page, new_canvas
from pipeline.render.press import PDFX_VERSION as PDFX
from pipeline.render.press import Press

LAYOUTS = ("sheet", "one-up")
MARK_WIDTH_MM = 0.12
MARK_CASING_MM = 0.5  # white under each crop mark, so a mark over a dark bleed shows


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"
    layout: str = "sheet"
    duplex: str = "long"
    bleed: float | None = None  # None: the template's bleed
    gutter: float | None = None  # None: the paper's default (a gutter where it fits, else butted)
    back_offset: tuple[float, float] = (0.0, 0.0)
    lang: Language | None = None  # None: the game's own language
    for_sale: bool = False  # layers that may not be sold replaced (or refused): pipeline.render.licences
    press: Press | None = None  # a print shop's PDF/X-4 in CMYK through this profile (one-up only)
    only: tuple[str, ...] | None = None  # draw only these card ids (a review's, a reprint's); pictures and
    # one size per field still see every card, so a reprinted card is drawn as in the whole deck's print
    draft: bool = False  # the deck is a draft (`--deck FILE`, no manifest): its version is printed as one

    def validate(self) -> "PrintOptions":
        if self.press is not None and self.layout != "one-up":
            raise GeodeckError("a print-shop PDF holds one card per page: use --layout one-up (or leave it out)")
        paper_size(self.paper)
        for name, value, allowed in (("--layout", self.layout, LAYOUTS), ("--duplex", self.duplex, DUPLEX_MODES)):
            if value not in allowed:
                raise GeodeckError(f"{name} {value!r} is not one of: {', '.join(allowed)}")
        return self


@dataclass(frozen=True)
class PrintResult:
    path: Path
    pages: int
    cards: int
    bytes: int


def _card(canvas: Canvas, draw, card: dict, ctx: CardContext, trim: Rect, paint: Rect) -> None:
    """One side of one card: clipped to its paint area, drawn in mm from its trim corner, no text below
    text.CARD_PT."""
    with clipped(canvas, paint), text.floor(text.CARD_PT):
        canvas.translate(trim.x, trim.y)
        try:
            draw(canvas, card, ctx)
        except text.DoesNotFit as exc:
            raise text.DoesNotFit(
                exc.text,
                exc.font,
                exc.box,
                exc.max_lines,
                f"card {card['id']}: {exc}; shorten that field of the card or enlarge its box in "
                f"templates/cards/{ctx.layout.game}.toml",
            ) from None


def _crop_marks(canvas: Canvas, sheet: Sheet, shift: tuple[float, float] = (0.0, 0.0)) -> None:
    marks = [(x0 + shift[0], y0 + shift[1], x1 + shift[0], y1 + shift[1]) for x0, y0, x1, y1 in sheet.crop_marks()]
    for grey, width in ((1, MARK_CASING_MM), (0, MARK_WIDTH_MM)):
        canvas.setStrokeGray(grey)
        canvas.setLineWidth(width)
        canvas.lines(marks)


def sheet_for(options: PrintOptions, card_mm: tuple[float, float], bleed: float) -> Sheet:
    """The sheet geometry of these options: their gutter, or the paper's default."""
    w, h = card_mm
    gutter = default_gutter(options.paper, w, h, bleed) if options.gutter is None else options.gutter
    return Sheet(options.paper, w, h, bleed, gutter).validate()


def _sheets(canvas, module, cards, ctx, options, bleed, on_card) -> None:
    sheet = sheet_for(options, ctx.layout.card_mm, bleed)
    for start in range(0, len(cards), PER_SHEET):
        chunk = cards[start : start + PER_SHEET]
        begin_page(canvas, sheet.page)
        for i, card in enumerate(chunk):
            _card(canvas, module.front, card, ctx, sheet.slot(i), sheet.paint_area(i, range(len(chunk))))
        _crop_marks(canvas, sheet)
        end_page(canvas)
        begin_page(canvas, sheet.page)
        for slot in range(PER_SHEET):  # in slot order, so each back covers its left and upper neighbours' seam strip
            i = sheet.mirrored(slot, options.duplex)
            if i >= len(chunk):
                continue
            _card(
                canvas,
                module.back,
                chunk[i],
                ctx,
                sheet.back_slot(i, options.duplex, options.back_offset),
                sheet.back_paint_area(i, options.duplex, options.back_offset, len(chunk)),
            )
            if on_card:
                on_card(chunk[i])
        _crop_marks(canvas, sheet, options.back_offset)
        end_page(canvas)


def _one_up(canvas, module, cards, ctx, bleed, on_card) -> None:
    w, h = ctx.layout.card_mm
    page, trim = one_up_page(w, h, bleed)
    canvas.setTrimBox([trim.x * mm, trim.y * mm, trim.right * mm, trim.top * mm])
    canvas.setBleedBox([0, 0, page[0] * mm, page[1] * mm])
    whole = Rect(0, 0, *page)
    for card in cards:
        for draw in (module.front, module.back):
            begin_page(canvas, page)
            _card(canvas, draw, card, ctx, trim, whole)
            end_page(canvas)
        if on_card:
            on_card(card)


def draw_cards(
    canvas,
    game: GameDefinition,
    deck: dict,
    options: PrintOptions,
    store,
    on_card: Callable[[dict], None] | None = None,
) -> None:
    """Every card of the game's deck onto `canvas` (sheets or one-up pages); every card is checked first so
    a bad card fails before any drawing."""
    options.validate()
    module = ports.cards(game)
    layout = layouts.load(game)
    check_card_size(game, deck, f"deck {game.name} {deck.get('version')}")
    bleed = bleed_of(options, layout)
    if options.for_sale:
        licences.for_sale(game)
    ctx = CardContext(layout, layout.language(options.lang), bleed, store, options.for_sale)
    translated.require(deck, load_spec(game), ctx.lang, game.made_by)
    cards = chosen(deck, options)
    for card in cards:
        module.check(card, ctx)
    with_steps(module, deck["cards"], ctx)  # sizes and pictures (divisions) from every card, as the whole deck's
    if options.layout == "sheet":
        _sheets(canvas, module, cards, ctx, options, bleed, on_card)
    else:
        _one_up(canvas, module, cards, ctx, bleed, on_card)


def check_card_size(game: GameDefinition, deck: dict, source: str) -> None:
    """Refuse a deck (read from `source`) whose `card_size_mm` is not the size the game's layout draws."""
    card_mm = layouts.load(game).card_mm
    size = deck.get("card_size_mm") or card_mm
    if not isinstance(size, list | tuple) or tuple(size) != card_mm:
        raise GeodeckError(
            f"{source} has cards of {str(size)[:40]} mm but templates/cards/{game.name}.toml lays out "
            f"{list(card_mm)} mm; make them agree"
        )


def chosen(deck: dict, options: PrintOptions) -> list[dict]:
    """The cards printed: the deck's, or those `options.only` names, in the deck's order."""
    return [card for card in deck["cards"] if options.only is None or card["id"] in options.only]


def with_steps(module: ports.CardsModule, cards: list[dict], ctx: CardContext) -> CardContext:
    """`ctx` with the deck's cards and the sizes its card module fixes per field across the deck (its optional
    `steps`, none below text.CARD_PT)."""
    ctx.cards = cards
    steps = ports.steps(module)
    if steps is not None:
        with text.floor(text.CARD_PT):
            ctx.sizes.update(steps(cards, ctx))
    return ctx


def bleed_of(options: PrintOptions, layout) -> float:
    return layout.bleed_mm if options.bleed is None else options.bleed


def render(
    definition: GameDefinition, deck: dict, options: PrintOptions, store, on_card: Callable[[dict], None] | None = None
) -> bytes:
    """The PDF bytes for a deck of the game."""
    options.validate()
    game = deck["game"]
    layout = layouts.load(definition)
    canvas, buffer = new_canvas(options.press.canvas_class(Canvas) if options.press else Canvas)
    gutter = sheet_for(options, layout.card_mm, bleed_of(options, layout)).gutter if options.layout == "sheet" else None
    lang = layout.language(options.lang)
    version = layouts.version(deck, lang, options.draft)
    title = f"{titles.title(definition, deck, lang)} {version}".strip()
    describe(
        canvas,
        title,
        f"{game} {version}, {options.layout}, {options.paper}, duplex {options.duplex}"
        + (f", gutter {gutter:g} mm" if gutter is not None else "")
        + (f", {len(options.only)} of {len(deck['cards'])} cards" if options.only is not None else ""),
    )
    draw_cards(canvas, definition, deck, options, store, on_card)
    canvas.save()
    if options.press:
        w, h = layout.card_mm
        subject = (
            f"print-shop cards: {len(chosen(deck, options))} cards, one per page, front then back; "
            f"trim {w:g} x {h:g} mm, bleed {bleed_of(options, layout):g} mm; {PDFX} {options.press.condition[0]}"
        )
        return options.press.finish(buffer.getvalue(), title, version, subject, versions.date_of(deck.get("version")))
    return buffer.getvalue()


def file_name(deck: dict, what: str, paper: str, lang: Language, *details: str, draft: bool = False) -> str:
    """`<game>-<version>-<what>-<paper>[-<detail>…]-<lang>.pdf` (a draft's version `draft[-<version>]`): every
    variant of a print its own name."""
    return (
        "-".join([deck["game"], published.label(deck.get("version"), draft), what, paper, *details, lang.code]) + ".pdf"
    )


def sheet_details(options: PrintOptions, layout: layouts.Layout) -> list[str]:
    """The layout and duplex flip of card pages, and their gutter and bleed where not the defaults."""
    if options.layout == "one-up":
        details = ["one-up"] + (["pdfx4"] if options.press else [])
    else:
        details = ["sheet", f"duplex-{options.duplex}"]
        default = sheet_for(PrintOptions(paper=options.paper), layout.card_mm, bleed_of(options, layout)).gutter
        if options.gutter is not None and options.gutter != default:
            details.append(f"gutter-{options.gutter:g}mm")
    if options.bleed is not None and options.bleed != layout.bleed_mm:
        details.append(f"bleed-{options.bleed:g}mm")
    return details + (["for-sale"] if options.for_sale else []) + subset_details(options)


def subset_details(options: PrintOptions) -> list[str]:
    """`subset-<n>-<hash>` in the name of a print of some of the deck's cards (`--cards`)."""
    return [subset.name(options.only)] if options.only is not None else []


def default_output(game: GameDefinition, deck: dict, options: PrintOptions, print_dir: Path | None = None) -> Path:
    layout = layouts.load(game)
    lang = layout.language(options.lang)
    paper = options.paper if options.layout == "sheet" else "{:g}x{:g}mm".format(*layout.card_mm)  # page = card
    return (print_dir or paths.PRINT_DIR) / file_name(
        deck, "cards", paper, lang, *sheet_details(options, layout), draft=options.draft
    )


def print_deck(
    game: GameDefinition,
    deck: dict,
    options: PrintOptions,
    store,
    out: Path | None = None,
    on_card: Callable[[dict], None] | None = None,
) -> PrintResult:
    """Render a deck of the game and write the PDF atomically (a failure leaves any earlier PDF alone)."""
    data = render(game, deck, options, store, on_card)
    path = out or default_output(game, deck, options)
    atomic.write_bytes(path, data)
    n = len(chosen(deck, options))
    pages = 2 * n if options.layout == "one-up" else 2 * -(-n // PER_SHEET)
    return PrintResult(path, pages, n, len(data))
