"""The kit's rules pages, a player learns from: a band in the game's colour with the title, a card drawn with
the deck's own card and its parts numbered (card anatomy), the rulebook's table set as a table, the
rulebook's worked example drawn with the deck's own cards, then the rules text (the game's `[kit.words]
rules`), flowing onto further pages, with the setup drawn with the deck's cards (pipeline/render/setup.py).

What is drawn is data in the game's card template: `[kit.rules]` (which card sides and boxes are numbered,
which cards make the example, the table's rows, the setup's items) and the words in `[kit.de]` / `[kit.en]`
(`anatomy`, `example`, `table_header`, `setup`, `rules`).
"""

from collections.abc import Callable

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Table, TableStyle

from pipeline import markup
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.render import ports, setup, text, titles
from pipeline.render.context import CardContext
from pipeline.render.pages import clipped, end_page
from pipeline.render.text import PT_MM, Box, paragraph
from pipeline.text import shown

FILLED = ("rules", "setup", "anatomy")  # the kit words with the deck's own words in them (`rules_words`), as text

BAND_MM = 24.0  # the title band's height
GAP_MM = 5.0
BADGE_MM = 2.4  # the radius of a numbered badge on the anatomy card
# the rules text set tighter where that saves a page: (points off the body size, leading as a share of the size)
TIGHTER = ((0.0, 1.25), (0.5, 1.25), (1.0, 1.2), (1.5, 1.2))


def draw(
    canvas,
    game: GameDefinition,
    deck: dict,
    ctx: CardContext,
    words: dict,
    page: tuple[float, float],
    margin: float,
    start_page,
):
    """The rules pages from the current (begun) page on; `start_page()` begins a further page (the caller
    ends the last one)."""
    layout = ctx.layout
    design, plan = layout.design, (layout.data.get("kit") or {}).get("rules") or {}
    words = _filled(game, deck, layout, words)
    pw, ph = page
    _band(canvas, game, deck, ctx, words, page, margin)
    top = ph - BAND_MM - GAP_MM
    body = _style(design.pt("body"), ctx.regular)
    if plan.get("anatomy"):
        small = _style(design.pt("small"), ctx.regular)
        top = _anatomy(canvas, ports.cards(game), deck, ctx, plan, words, Box(margin, 0, pw - 2 * margin, top), small)
    if plan.get("example"):
        top = _example(canvas, ports.cards(game), deck, ctx, plan, words, Box(margin, 0, pw - 2 * margin, top), body)
    inserts = _inserts(game, deck, ctx, plan, words)
    first = Box(margin, margin, pw - 2 * margin, top - margin)

    def flowing(style: ParagraphStyle) -> list:
        paragraphs: list = [paragraph(line, style) for line in words["rules"]]
        for after, _, flowable in sorted(inserts, key=lambda i: (-i[0], -i[1])):
            paragraphs.insert(after + 1, flowable)
        return paragraphs

    style = _fitted(flowing, design.pt("body"), design.pt("small"), ctx.regular, first, margin, ph)
    _flow(canvas, flowing(style), style, first, margin, ph, start_page)


def _filled(game: GameDefinition, deck: dict, layout, words: dict) -> dict:
    """The rules' words with the deck's own: its groups' paragraphs, and its words where they have placeholders."""
    own = ports.rules_words(ports.accessories(game))  # the deck's own words, where its rules have placeholders
    fields = own(deck, layout) if own else {}
    if deck.get("groups") and "rules_groups" in words:  # a deck of its own groups: their paragraphs, by place
        variant = words["rules_groups"]
        words = words | {"rules": [variant.get(str(n), line) for n, line in enumerate(words["rules"])]}
    return words | {key: [markup.fill(line, **fields) for line in words[key]] for key in FILLED if key in words}


def _band(canvas, game: GameDefinition, deck: dict, ctx: CardContext, words: dict, page, margin: float) -> None:
    """The coloured band at the page's top: the rules' title on the left, the deck's on the right."""
    design = ctx.layout.design
    pw, ph = page
    canvas.setFillColor(design.colour("colour"))
    canvas.rect(0, ph - BAND_MM, pw, BAND_MM, stroke=0, fill=1)
    canvas.setFillColor(design.colour("ink"))
    title_h = design.pt("title") * PT_MM * 1.6
    text.draw(
        canvas,
        words["rules_title"],
        ctx.bold,
        Box(margin, ph - BAND_MM + 4, pw - 2 * margin, title_h),
        design.pt("title") * 1.4,
        9,
        align="left",
    )
    text.draw(
        canvas,
        titles.title(game, deck, ctx.lang),
        ctx.regular,
        Box(margin, ph - BAND_MM + 4, pw - 2 * margin, title_h),
        design.pt("heading"),
        6,
        align="right",
    )


def _inserts(game: GameDefinition, deck: dict, ctx: CardContext, plan: dict, words: dict) -> list:
    """(after which paragraph, order, what): the rulebook's table and the setup picture, placed in the text."""
    inserts = []
    rows = plan.get("table") or words.get("table")  # numbers (the same in every language) or words
    if rows:  # the rulebook's table, after the paragraph that refers to it
        inserts.append((int(plan["table_after"]), 0, _table(rows, words["table_header"], ctx)))
    if plan.get("setup"):
        small = _style(ctx.layout.design.pt("small"), ctx.regular)
        picture = setup.Setup(ports.cards(game), deck, ctx, plan["setup"], words["setup"], small, _place)
        inserts.append((int(plan["setup_after"]), 1, picture))
    return inserts


def _fitted(flowing: Callable, body_pt: float, least_pt: float, font: str, first: Box, margin: float, ph: float):
    """The rules text's style: the body's, or, where the text runs onto one more page than a tighter setting
    needs (a short tail: an orphan page, and in a home kit the blank page behind it), the first of
    TIGHTER (leading, then size, never below `least_pt`, the type scale's small) that saves that page."""
    pages = _flow(None, flowing(_style(body_pt, font)), _style(body_pt, font), first, margin, ph, None)
    for shrink, leading in TIGHTER:
        size = body_pt - shrink
        if size < least_pt:
            break
        style = _style(size, font, leading=size * PT_MM * leading)
        if _flow(None, flowing(style), style, first, margin, ph, None) < pages:
            return style
    return _style(body_pt, font)


def _style(size_pt: float, font: str, **extra) -> ParagraphStyle:
    size = size_pt * PT_MM
    return ParagraphStyle(
        "rules", fontName=font, fontSize=size, **({"leading": size * 1.35, "spaceAfter": size * 0.7} | extra)
    )


def _card(canvas, draw_side: Callable, card: dict, ctx: CardContext, box: Box) -> float:
    """One side of `card` scaled to `box`'s height at its lower left, on a white edge; returns its scale."""
    w, h = ctx.layout.card_mm
    scale = box.h / h
    canvas.setFillColor(ctx.layout.colour("sea"))
    canvas.setStrokeColor(ctx.layout.colour("rule"))
    canvas.setLineWidth(0.2)
    canvas.roundRect(box.x - 1, box.y - 1, w * scale + 2, box.h + 2, 2, stroke=1, fill=1)
    with clipped(canvas, Box(box.x, box.y, w * scale, box.h)):
        canvas.translate(box.x, box.y)
        canvas.scale(scale, scale)
        draw_side(canvas, card, ctx)
    return scale


def _place(canvas, module, side: str, card: dict, ctx: CardContext, box: Box) -> None:
    """One side of `card` in `box` (the setup picture's cards)."""
    _card(canvas, _side(module, side), card, ctx, box)


def _side(module, side: str) -> Callable:
    if side not in ("front", "back"):
        raise GeodeckError(f"[kit.rules]: a card side is front or back, not {side!r}")
    return module.front if side == "front" else module.back


def _anatomy(canvas, module, deck, ctx: CardContext, plan: dict, words: dict, area: Box, body) -> float:
    """The first card of the deck's first kind, its numbered parts (`[kit.rules] anatomy`: [side, box]) and
    their legend; beside it the rulebook's table. Returns the y below them."""
    card = deck["cards"][0]
    module.check(card, ctx)
    height = float(plan.get("anatomy_mm", 62))
    w, h = ctx.layout.card_mm
    scale = height / h
    sides = list(dict.fromkeys(side for side, _ in plan["anatomy"]))
    x = area.x + 2 * BADGE_MM  # the badges stand beside the card, not on it
    for side in sides:
        card_box = Box(x, area.h - height, w * scale, height)
        _card(canvas, _side(module, side), card, ctx, card_box)
        parts = [(n, ctx.layout.box(name)) for n, (s, name) in enumerate(plan["anatomy"], start=1) if s == side]
        _badges(canvas, parts, card_box, scale, ctx)
        x += w * scale + 4 * BADGE_MM + GAP_MM
    legend = [markup.Markup(f"{markup.bold(n)}  {label}") for n, label in enumerate(words["anatomy"], start=1)]
    if len(legend) != len(plan["anatomy"]):
        raise GeodeckError(f"templates/cards/{deck['game']}.toml: [kit.words] anatomy needs one label per part")
    paragraphs = [paragraph(line, body) for line in (markup.bold(words["anatomy_title"]), *legend)]
    _flow(canvas, paragraphs, body, Box(x, area.h - height, area.x + area.w - x, height), 0, 0, None)
    return area.h - height - GAP_MM


def _badges(canvas, parts: list[tuple[int, Box]], card: Box, scale: float, ctx: CardContext) -> None:
    """Numbered badges beside `card`, each on the side nearer its part's centre, at the part's height (moved
    down where two would touch), with a leader to the part's edge."""
    w = ctx.layout.card_mm[0]
    for left in (True, False):
        placed: list[float] = []
        for n, part in sorted(parts, key=lambda p: -(p[1].y + p[1].h / 2)):
            if (part.x + part.w / 2 <= w / 2) != left:
                continue
            y = card.y + (part.y + part.h / 2) * scale
            if placed and placed[-1] - y < 2.2 * BADGE_MM:
                y = placed[-1] - 2.2 * BADGE_MM
            placed.append(y)
            edge = card.x + (part.x if left else part.x + part.w) * scale
            x = card.x - 1.5 * BADGE_MM if left else card.x + card.w + 1.5 * BADGE_MM
            canvas.setStrokeColor(ctx.layout.design.colour("colour"))
            canvas.setLineWidth(0.3)
            canvas.line(x, y, edge, card.y + (part.y + part.h / 2) * scale)
            _badge(canvas, x, y, n, ctx)


def _badge(canvas, x: float, y: float, n: int, ctx: CardContext) -> None:
    design = ctx.layout.design
    canvas.setFillColor(design.colour("colour"))
    canvas.setStrokeColor(design.colour("ink"))
    canvas.setLineWidth(0.3)
    canvas.circle(x, y, BADGE_MM, stroke=1, fill=1)
    canvas.setFillColor(design.colour("ink"))
    size = BADGE_MM * 1.15
    canvas.setFont(ctx.bold, size)
    canvas.drawCentredString(x, y - size * text.DIGIT_HEIGHT / 2, str(n))


def _table(rows: list, header: list[str], ctx: CardContext) -> Table:
    """The rulebook's table (a reportlab Table, left-aligned in the text)."""
    design = ctx.layout.design
    size = design.pt("body") * PT_MM
    cells = [[shown(str(v)) for v in row] for row in (header, *rows)]  # a table's cells are text, not markup
    table = Table(cells, rowHeights=size * 1.9, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), ctx.bold, size),
                ("FONT", (0, 1), (-1, -1), ctx.regular, size),
                ("BACKGROUND", (0, 0), (-1, 0), design.colour("colour")),
                ("TEXTCOLOR", (0, 0), (-1, 0), design.colour("ink")),
                ("TEXTCOLOR", (0, 1), (-1, -1), ctx.layout.colour("text")),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [ctx.layout.colour("sea"), design.colour("art_sea")]),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.2, ctx.layout.colour("rule")),
                ("LEFTPADDING", (0, 0), (-1, -1), size * 0.6),
                ("RIGHTPADDING", (0, 0), (-1, -1), size * 0.6),
            ]
        )
    )
    table.spaceAfter = size * 0.9
    return table


LETTERS = "abcdefghijkl"  # the worked example's cards in its text: {a} the first, {b} the second, …


def example_cards(deck: dict, plan: dict) -> list[dict]:
    """The worked example's cards (`[kit.rules] example`: the values of `example_field` naming them, in order)."""
    field = plan["example_field"]
    by_value = {card["fields"].get(field): card for card in deck["cards"]}
    missing = [value for value in plan["example"] if value not in by_value]
    if missing:
        raise GeodeckError(f"the rules' example names {missing[0]!r}, which is no card of this deck ({field})")
    if len(plan["example"]) > len(LETTERS):
        raise GeodeckError(f"the rules' example has {len(plan['example'])} cards; at most {len(LETTERS)}")
    return [by_value[value] for value in plan["example"]]


def example_words(module, cards: list[dict], lang: Language, layout=None) -> dict[str, str]:
    """The `{placeholders}` of the example's text: what its cards print in `lang` (the card module's
    `printed`, given the game's card layout), by the card's letter: `{a}` the first card's name, `{a_ns}` its
    other printed values."""
    printed = ports.printed(module)
    if printed is None:
        raise GeodeckError(f"{module.__name__} has no `printed`: the rules' example cannot name its cards")
    words = {}
    for letter, card in zip(LETTERS, cards):
        for key, value in printed(card["fields"], lang, layout).items():
            words[letter if key == "name" else f"{letter}_{key}"] = value
    return words


def example_text(module, deck: dict, plan: dict, words: dict, lang: Language, layout=None) -> markup.Markup:
    """The example's text in `lang` (its title bold), its names and numbers those its cards print."""
    filled = markup.fill(words["example"], **example_words(module, example_cards(deck, plan), lang, layout))
    return markup.Markup(f"{markup.bold(words['example_title'])} {filled}")


def _example(canvas, module, deck, ctx: CardContext, plan: dict, words: dict, area: Box, body) -> float:
    """The rulebook's worked example with the deck's own cards (`example_cards`; `example_mark`: those
    outlined in the game's colour), its text above them (`example_text`). Returns the y below them."""
    cards = example_cards(deck, plan)
    para = paragraph(example_text(module, deck, plan, words, ctx.lang, ctx.layout), body)
    _, para_h = para.wrap(area.w, area.h)
    para.drawOn(canvas, area.x, area.h - para_h)
    height = float(plan.get("example_mm", 46))
    w, h = ctx.layout.card_mm
    count = len(cards)
    width = w * height / h
    gap = min(GAP_MM, (area.w - count * width) / max(count - 1, 1))
    y = area.h - para_h - 2 - height
    for i, card in enumerate(cards):
        module.check(card, ctx)
        x = area.x + i * (width + gap)
        _card(canvas, _side(module, plan.get("example_side", "front")), card, ctx, Box(x, y, width, height))
        if i in plan.get("example_mark", []):
            canvas.setStrokeColor(ctx.layout.design.colour("colour"))
            canvas.setLineWidth(0.9)
            canvas.roundRect(x - 1.8, y - 1.8, width + 3.6, height + 3.6, 2.5, stroke=1, fill=0)
    return y - GAP_MM - 1


def _flow(canvas, flowables: list, style, box: Box, margin: float, ph: float, start_page) -> int:
    """Paragraphs and tables from the top of `box` downwards; when one is full, a new page (begun by
    `start_page()`, the text then from `margin` below its top); without `start_page` a text that does not fit
    is an error. Without a canvas nothing is drawn (a dry run). The pages used."""
    y = box.y + box.h
    pages = 1
    for para in flowables:
        _, h = para.wrap(box.w, box.h)
        if y - h < box.y:
            if canvas is not None and start_page is None:
                raise GeodeckError(f"the rules' card legend does not fit its {box.w:.0f} × {box.h:.0f} mm box")
            pages += 1
            if canvas is not None:
                end_page(canvas)
                start_page()
            box = Box(box.x, margin, box.w, ph - 2 * margin)
            y = box.y + box.h
        if canvas is not None:
            para.drawOn(canvas, box.x, y - h)
        y -= h + max(style.spaceAfter, getattr(para, "spaceAfter", 0))
    return pages
