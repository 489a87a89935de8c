"""The kit for a print shop (`geodeck print GAME --kit --for print-shop`): every part of the kit as a PDF/X-4 in
CMYK through the press's output profile, each with the shop's subject and the deck version's date, and a note
for the shop (`…-print-shop-<lang>.txt`) saying what each file is and how it is finished:

- the rules booklet: the cover, the rules and the attribution page in reading order, blank pages added to a
  multiple of 4 (a saddle-stitched booklet; the shop imposes it);
- the cards, one per page, front then back (as `--for print-shop`);
- the accessories (map poster, strips, score pad) on their paper, one-sided;
- the tuck box: its die-line sized to the deck (pipeline/render/tuckbox.py), cut and fold on spot colours.

Papers and the box's sizes: `templates/cards/common.toml [print_shop]`.
"""

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from pipeline import atomic, paths
from pipeline.decks import versions
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.render import accessories, kit, layouts, printing, titles, tuckbox
from pipeline.render.accessories import PAPERS_MM, AccessoryOptions
from pipeline.render.context import CardContext
from pipeline.render.pages import Canvas, describe, new_canvas
from pipeline.render.press import PDFX_VERSION, Press
from pipeline.render.printing import PrintOptions


@dataclass(frozen=True)
class ShopFile:
    path: Path
    what: str  # what it is, for the terminal
    pages: int
    bytes: int


def settings() -> dict:
    return layouts.common()["print_shop"]


def print_kit(
    game: GameDefinition, deck: dict, manifest: dict, options: PrintOptions, store, folder: Path | None = None
) -> list[ShopFile]:
    """Write the print shop's kit of the deck (its `manifest`: kit.manifest_for) into `folder` (default
    output/print/), each file atomically; the files written, the note for the shop last."""
    press = options.press
    assert press is not None, "a print shop's kit needs the press (--for print-shop)"
    shop = settings()
    folder = folder or paths.PRINT_DIR
    layout = layouts.load(game)
    lang = layout.language(options.lang)
    version = layouts.version(deck, lang, options.draft)
    title = f"{titles.title(game, deck, lang)} {version}".strip()
    dated = versions.date_of(deck.get("version"))
    condition = press.condition[0]
    extra = ["pdfx4"] + (["for-sale"] if options.for_sale else [])

    def name(what: str, size: str) -> Path:
        return folder / printing.file_name(deck, what, size, lang, *extra, draft=options.draft)

    def finished(pdf: bytes, part: str, subject: str) -> bytes:
        return press.finish(pdf, f"{title}: {part}", version, f"{subject}; {PDFX_VERSION} {condition}", dated)

    written: list[ShopFile] = []

    def write(path: Path, data: bytes, what: str, pages: int) -> None:
        atomic.write_bytes(path, data)
        written.append(ShopFile(path, what, pages, len(data)))

    paper = str(shop["booklet_paper"])
    home = dataclasses.replace(options, paper=paper, layout="sheet", press=None)
    pdf, roles = kit.booklet(game, deck, manifest, home, store, press.canvas_class(kit.KitCanvas))
    blanks = [i + 1 for i, role in enumerate(roles) if role == kit.BLANK]
    w, h = PAPERS_MM[paper]
    subject = f"rules booklet: {len(roles)} pages {w:g} x {h:g} mm in reading order, saddle-stitched"
    write(name("booklet", paper), finished(pdf, "rules booklet", subject), "the rules booklet", len(roles))

    cards = dataclasses.replace(options, layout="one-up")
    pdf = printing.render(game, deck, cards, store)
    n = len(printing.chosen(deck, cards))
    write(printing.default_output(game, deck, cards, folder), pdf, f"{n} cards, one per page", 2 * n)

    paper = str(shop["accessories_paper"])
    extras = AccessoryOptions(paper, options.lang, options.for_sale, options.draft)
    pdf, pages = accessories.render(game, deck, extras, store, press.canvas_class(Canvas))
    subject = f"accessories: {_pages(pages)} {paper.upper()}, one-sided, no bleed"
    write(name("accessories", paper), finished(pdf, "accessories", subject), "the accessories", pages)

    pdf, box = _tuck_box(game, deck, options, store, press, lang)
    size = f"{box.w:g}x{box.h:g}x{box.d:g}mm"
    write(name("tuckbox", size), finished(pdf, "tuck box", _box_subject(deck, box)), "the tuck box die-line", 1)

    note = folder / (printing.file_name(deck, "print-shop", "note", lang, draft=options.draft)[: -len(".pdf")] + ".txt")
    data = _note(game, deck, title, press, written, blanks, box, shop, options).encode("utf-8")
    write(note, data, "the note for the print shop", 0)
    return written


def _box_subject(deck: dict, box) -> str:
    """The tuck box's PDF subject: its cards, inside size and the die-line's spot colours."""
    return (
        f"tuck box for {len(deck['cards'])} cards, inside {box.w:g} x {box.h:g} x {box.d:g} mm; die-line: cut on "
        f"spot colour {tuckbox.SPOTS[0]}, fold on {tuckbox.SPOTS[1]}, both overprinting"
    )


def _tuck_box(game, deck: dict, options: PrintOptions, store, press: Press, lang: Language):
    canvas, buffer = new_canvas(press.canvas_class(Canvas))
    describe(canvas, titles.title(game, deck, lang), "tuck box")
    kc = kit.context(game, deck, options, store)
    ctx = CardContext(kc.layout, lang, 0.0, store, options.for_sale)
    box = tuckbox.draw(canvas, game, deck, ctx, kit.box_words(kc), settings())
    canvas.save()
    return buffer.getvalue(), box


def _note(game, deck, title, press: Press, written: list[ShopFile], blanks, box, shop, options) -> str:
    """The note for the shop: the colour condition, then each file and how to finish it."""
    booklet, cards, extras, tuck = written
    layout = layouts.load(game)
    w, h = layout.card_mm
    bleed = printing.bleed_of(options, layout)
    identifier, condition = press.condition
    pw, ph = PAPERS_MM[str(shop["booklet_paper"])]
    lines = [
        f"{title}: the print-and-play kit for a print shop",
        f"Every file is {PDFX_VERSION}, CMYK, output intent {identifier} ({condition}), fonts embedded, "
        "black text overprinting.",
        "",
        f"1. {booklet.path.name}: the rules booklet, {booklet.pages} pages of {pw:g} x {ph:g} mm in reading "
        f"order. Saddle-stitched: print duplex on sheets of {2 * pw:g} x {ph:g} mm, imposed for a booklet, "
        "fold and staple twice."
        + (
            f" Pages {', '.join(map(str, blanks))} are blank on purpose (a booklet has a multiple of 4 pages)."
            if blanks
            else ""
        ),
        f"2. {cards.path.name}: {len(printing.chosen(deck, options))} cards, {w:g} x {h:g} mm trim, {bleed:g} mm "
        "bleed, one card per page, front then back (TrimBox and BleedBox set). Impose, print duplex on "
        "300 g/m2 card, cut, round the corners (3 mm).",
        f"3. {extras.path.name}: {game.accessories_help}; {_pages(extras.pages)} "
        f"{str(shop['accessories_paper']).upper()}, one-sided, no bleed.",
        f"4. {tuck.path.name}: a tuck box for {len(deck['cards'])} cards, inside {box.w:g} x {box.h:g} x "
        f"{box.d:g} mm ({shop['card_thickness_mm']:g} mm per card plus {shop['clearance_mm']:g} mm). Cut along "
        f"the spot colour {tuckbox.SPOTS[0]}, crease along {tuckbox.SPOTS[1]}; do not print either (both "
        f"overprint). The art runs {shop['bleed_mm']:g} mm past the cut. One-sided on 350 g/m2 board; glue the "
        "flap behind the back panel.",
    ]
    return "\n".join(lines) + "\n"


def _pages(count: int) -> str:
    """ "1 page", "3 pages" (the shop's note and Subject are English, as ORDER.txt)."""
    return f"{count} page" if count == 1 else f"{count} pages"
