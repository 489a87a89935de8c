"""The print-and-play kit (`geodeck print GAME --kit`): one PDF with bookmarks holding a cover, the rules
summary written for this kit (the game's `[kit.<lang>]` in its card layout), the cards and backs, the
accessories and an attribution page (every source of the deck's values from its manifest and every
source the cards and accessories draw from, each with producer, licence and vintage from sources/*.toml;
the font; the deck's version and content hash). Words and sizes: `templates/cards/common.toml [kit]`.
"""

from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import Paragraph

from pipeline import atomic, games
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.paths import PRINT_DIR
from pipeline.render import accessories, fonts, layouts, printing, text
from pipeline.render.pages import begin_page, describe, end_page, new_canvas
from pipeline.render.printing import PrintOptions, PrintResult
from pipeline.render.text import PT_MM, Box

SECTIONS = ("cover", "rules", "cards", "accessories", "attribution")


def _words(layout: layouts.Layout, lang: str) -> tuple[dict, dict, dict]:
    """(kit sizes, the kit's words, the game's kit words) in `lang`."""
    common = layout.common.get("kit") or {}
    game = layout.data.get("kit") or {}
    if lang not in common or lang not in game:
        raise GeodeckError(f"templates/cards: missing [kit.{lang}] in common.toml or {layout.game}.toml")
    return common, common[lang], game[lang]


def _flow(canvas, paragraphs: list[str], style: ParagraphStyle, box: Box, start_page) -> None:
    """Paragraphs from the top of `box` downwards, a new page (begun by `start_page()`) when one is full."""
    y = box.y + box.h
    for markup in paragraphs:
        para = Paragraph(markup, style)
        _, h = para.wrap(box.w, box.h)
        if y - h < box.y:
            end_page(canvas)
            start_page()
            y = box.y + box.h
        para.drawOn(canvas, box.x, y - h)
        y -= h + style.spaceAfter


def _style(size_pt: float, font: str) -> ParagraphStyle:
    size = size_pt * PT_MM
    return ParagraphStyle("kit", fontName=font, fontSize=size, leading=size * 1.35, spaceAfter=size * 0.8)


def _bookmark(canvas, key: str, title: str) -> None:
    canvas.bookmarkPage(key)
    canvas.addOutlineEntry(title, key, level=0)


def _cover(canvas, deck: dict, cfg: dict, kit: dict, game_kit: dict, page, regular, bold) -> None:
    pw, ph = page
    m = float(cfg["margin_mm"])
    ink = layouts.load(deck["game"]).colour("text")
    canvas.setFillColor(ink)
    text.draw(
        canvas,
        deck.get("title", deck["game"]),
        bold,
        Box(m, ph * 0.62, pw - 2 * m, 22),
        float(cfg["title_pt"]),
        14,
        align="center",
    )
    text.draw(
        canvas,
        game_kit["subtitle"],
        regular,
        Box(m, ph * 0.62 - 12, pw - 2 * m, 9),
        float(cfg["heading_pt"]),
        9,
        align="center",
    )
    text.draw(
        canvas, kit["kind"], bold, Box(m, ph * 0.62 - 26, pw - 2 * m, 8), float(cfg["heading_pt"]), 9, align="center"
    )
    line = kit["version"].format(version=deck.get("version", ""), cards=len(deck["cards"]))
    text.draw(canvas, line, regular, Box(m, ph * 0.62 - 36, pw - 2 * m, 6), float(cfg["text_pt"]), 7, align="center")
    items = [f"{i + 1}. {kit['sections'][key]}" for i, key in enumerate(SECTIONS[1:])]
    body = [f"<b>{kit['contents']}</b>", "<br/>".join(items), kit["printing"]]
    _flow(canvas, body, _style(float(cfg["text_pt"]), regular), Box(m, m, pw - 2 * m, ph * 0.62 - 50 - m), lambda: None)


def sources(deck: dict, manifest: dict) -> list[str]:
    """The deck's sources (its manifest) and those its renderers draw from (the slices' SOURCES), sorted."""
    definition = games.get(deck["game"])
    drawn = {name for module in (definition.cards, definition.accessories) for name in getattr(module, "SOURCES", ())}
    return sorted(set(manifest.get("sources", {})) | drawn)


def _attribution(canvas, deck: dict, manifest: dict, cfg: dict, kit: dict, page, regular) -> None:
    pw, ph = page
    m = float(cfg["margin_mm"])
    defined = load_sources()
    paragraphs = [f"<b>{kit['attribution']}</b>", kit["sources_intro"]]
    for name in sources(deck, manifest):
        source = defined.get(name)
        if source is None:
            raise GeodeckError(f"the deck names source {name!r}, which has no sources/{name}.toml")
        vintage = manifest.get("sources", {}).get(name, {}).get("vintage") or source.vintage
        paragraphs.append(
            f"<b>{_escape(name)}</b> · {kit['producer']}: {_escape(source.producer)} · {kit['licence']}: "
            f"{_escape(source.license)} · {kit['vintage']}: {_escape(vintage)}<br/>"
            f"{kit['citation']}: {_escape(source.citation)}"
        )
    paragraphs.append(kit["credits"])
    paragraphs.append(
        kit["deck"].format(game=deck["game"], version=deck.get("version", ""), hash=manifest.get("content_hash", "–"))
    )

    def start() -> None:
        begin_page(canvas, page)

    _flow(canvas, paragraphs, _style(float(cfg["small_pt"]), regular), Box(m, m, pw - 2 * m, ph - 2 * m), start)


def _escape(value: object) -> str:
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def manifest_of(deck_path: Path) -> dict:
    path = deck_path.parent / "manifest.json"
    if not path.is_file():
        raise GeodeckError(f"{path} is missing; the kit's attribution page needs the deck's manifest")
    return published.manifest_of(deck_path)


def render(deck: dict, manifest: dict, options: PrintOptions, store) -> tuple[bytes, int]:
    """(PDF bytes, pages) of the kit."""
    options.validate()
    layout = layouts.load(deck["game"])
    lang = layout.language(options.lang)
    cfg, kit, game_kit = _words(layout, lang)
    regular, bold = fonts.register()
    registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    page = accessories.PAPERS_MM[options.paper]
    canvas, buffer = new_canvas()
    describe(
        canvas,
        f"{deck.get('title', deck['game'])} {deck.get('version', '')}: {kit['kind']}",
        f"{deck['game']} {deck.get('version', '')} kit, {options.paper}, {lang}",
    )
    canvas.showOutline()
    begin_page(canvas, page)
    _bookmark(canvas, "cover", kit["sections"]["cover"])
    _cover(canvas, deck, cfg, kit, game_kit, page, regular, bold)
    end_page(canvas)
    begin_page(canvas, page)
    _bookmark(canvas, "rules", kit["sections"]["rules"])
    m = float(cfg["margin_mm"])
    rules = [f"<b>{deck.get('title', deck['game'])}: {kit['sections']['rules']}</b>", *game_kit["rules"]]
    _flow(
        canvas,
        rules,
        _style(float(cfg["text_pt"]), regular),
        Box(m, m, page[0] - 2 * m, page[1] - 2 * m),
        lambda: begin_page(canvas, page),
    )
    end_page(canvas)
    _bookmark(canvas, "cards", kit["sections"]["cards"])  # the next page, where the cards begin
    printing.draw_cards(canvas, deck, options, store)
    _bookmark(canvas, "accessories", kit["sections"]["accessories"])
    accessories.draw_accessories(canvas, deck, accessories.AccessoryOptions(options.paper, options.lang), store)
    begin_page(canvas, page)
    _bookmark(canvas, "attribution", kit["sections"]["attribution"])
    _attribution(canvas, deck, manifest, cfg, kit, page, regular)
    end_page(canvas)
    pages = canvas.getPageNumber() - 1
    canvas.save()
    return buffer.getvalue(), pages


def default_output(deck: dict, options: PrintOptions, lang: str, print_dir: Path = PRINT_DIR) -> Path:
    return print_dir / f"{deck['game']}-{deck.get('version', 'unversioned')}-kit-{options.paper}-{lang}.pdf"


def print_kit(deck_path: Path, deck: dict, options: PrintOptions, store, out: Path | None = None) -> PrintResult:
    """Render the kit and write it atomically (a failure leaves any earlier PDF alone)."""
    data, pages = render(deck, manifest_of(deck_path), options, store)
    lang = layouts.load(deck["game"]).language(options.lang)
    path = out or default_output(deck, options, lang)
    atomic.write_bytes(path, data)
    return PrintResult(path, pages, len(deck["cards"]), len(data))
