"""Länder toppen! folded paper strips (one per player) and the scoring sheet, on landscape pages.

A strip is two panels with a fold line between them: the lower panel carries the six categories in the
strip's order (label, unit, "highest value above", "lowest value below"), the upper one the title and the
turn-over order; folded along the dashed line the strip lies flat and stiff between the two card rows.
Each field is at most one card wide (so cards sit above and below it); cut along the solid lines.
"""

from reportlab.lib.colors import HexColor

from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.text import Box

MARGIN_MM = 8.0
PANEL_MM = 22.0
GAP_MM = 5.0
SCORE_MM = 92.0  # height of the scoring block


def _strip(c, ctx: CardContext, w: dict, box: Box) -> None:
    layout = ctx.layout
    categories = layout.data["categories"]
    field = box.w / len(categories)
    ink, muted = layout.colour("text"), layout.colour("muted")
    lower = Box(box.x, box.y, box.w, PANEL_MM)
    upper = Box(box.x, box.y + PANEL_MM, box.w, PANEL_MM)
    for i, category in enumerate(categories):
        x = box.x + i * field
        c.setFillColor(layout.colour("row_stripe") if i % 2 == 0 else layout.colour("sea"))
        c.rect(x, lower.y, field, lower.h, stroke=0, fill=1)
        label, unit = category[ctx.lang]["strip"]
        c.setFillColor(ink)
        text.draw(c, label, ctx.bold, Box(x + 1.5, lower.y + 9.2, field - 3, 7.6), 9, 6, max_lines=2, align="center")
        c.setFillColor(muted)
        text.draw(c, unit, ctx.regular, Box(x + 1.5, lower.y + 5.0, field - 3, 3), 7.5, 5.5, align="center")
        text.draw(c, w["high"], ctx.regular, Box(x + 1, lower.y + lower.h - 3.6, field - 2, 2.8), 6, 5, align="center")
        text.draw(c, w["low"], ctx.regular, Box(x + 1, lower.y + 0.9, field - 2, 2.8), 6, 5, align="center")
    c.setFillColor(layout.colour("back"))
    c.rect(upper.x, upper.y, upper.w, upper.h, stroke=0, fill=1)
    c.setFillColor(layout.colour("back_text"))
    text.draw(c, w["back"], ctx.bold, Box(upper.x + 4, upper.y + 9, upper.w - 8, 9), 16, 9, align="center")
    text.draw(c, w["order"], ctx.regular, Box(upper.x + 4, upper.y + 3, upper.w - 8, 5), 8, 5.5, align="center")
    c.setStrokeColor(layout.colour("text"))
    c.setLineWidth(0.2)
    c.rect(box.x, box.y, box.w, box.h, stroke=1, fill=0)  # cut
    for i in range(1, len(categories)):
        c.line(box.x + i * field, lower.y, box.x + i * field, lower.y + lower.h)
    c.setDash(1.5, 1.2)
    c.setStrokeColor(muted)
    c.line(box.x, box.y + PANEL_MM, box.x + box.w, box.y + PANEL_MM)  # fold
    c.setDash()
    c.setFillColor(muted)
    text.draw(c, w["fold"], ctx.regular, Box(box.x + box.w + 0.8, box.y + PANEL_MM - 1.2, MARGIN_MM - 1.5, 2.4), 5.5, 5)


def _table(c, ctx: CardContext, rows: list[list[str]], box: Box, widths: list[float], header_colours=None) -> None:
    """A ruled table; the first row is the header (optionally on colours), the rest are blank or given cells."""
    step = box.h / len(rows)
    c.setLineWidth(0.2)
    c.setStrokeColor(ctx.layout.colour("muted"))
    x_edges = [box.x]
    for wd in widths:
        x_edges.append(x_edges[-1] + wd * box.w)
    for r, row in enumerate(rows):
        y = box.y + box.h - (r + 1) * step
        for k, cell in enumerate(row):
            x0, x1 = x_edges[k], x_edges[k + 1]
            if r == 0 and header_colours and header_colours[k] is not None:
                c.setFillColor(header_colours[k])
                c.rect(x0, y, x1 - x0, step, stroke=0, fill=1)
                ink = ctx.layout.ink_on(header_colours[k])
            else:
                ink = ctx.layout.colour("text")
            c.rect(x0, y, x1 - x0, step, stroke=1, fill=0)
            if cell:
                text.draw(c, cell, ctx.bold if r == 0 else ctx.regular, Box(x0 + 0.8, y + 0.6, x1 - x0 - 1.6, step - 1.2),
                          8, 5, max_lines=2, align="center", colour=ink)


def _scoring(c, ctx: CardContext, w: dict, box: Box) -> None:
    layout = ctx.layout
    c.setFillColor(layout.colour("text"))
    text.draw(c, w["score_title"], ctx.bold, Box(box.x, box.y + box.h - 7, box.w, 7), 13, 9)
    continents = list(layout.common["continents"])
    header = [w["player"], *(layout.continent(name, ctx.lang)[0] for name in continents), w["face_down"], w["total"]]
    colours = [None, *(layout.continent(name, ctx.lang)[1] for name in continents), None, None]
    score_w = box.w * 0.72
    widths = [0.12] + [0.09] * len(continents) + [0.13, 0.12]
    rows = [header] + [[""] * len(header) for _ in range(int(layout.data["accessories"]["strips"]))]
    table = Box(box.x, box.y + 16, score_w, box.h - 25)
    _table(c, ctx, rows, table, widths, colours)
    c.setFillColor(layout.colour("muted"))
    text.draw(c, w["score_note"], ctx.regular, Box(box.x, box.y, score_w, 14), 7, 5.5, max_lines=3, valign="top")
    setup_box = Box(box.x + score_w + 8, box.y + box.h - 9 - 6 * 7, box.w - score_w - 8, 6 * 7)
    c.setFillColor(layout.colour("text"))
    text.draw(c, w["setup_title"], ctx.bold, Box(setup_box.x, setup_box.y + setup_box.h + 1, setup_box.w, 6), 10, 7)
    setup = [list(w["players_header"])] + [[str(v) for v in row] for row in layout.data["accessories"]["setup"]]
    _table(c, ctx, setup, setup_box, [1 / 3] * 3)


def draw_pages(c, ctx: CardContext, w: dict, paper: tuple[float, float]) -> None:
    """Six strips then the scoring block, top to bottom on landscape pages, a new page when one is full."""
    from pipeline.render.printing import begin_page, end_page

    page = (max(paper), min(paper))
    width = min(page[0] - 2 * MARGIN_MM - 6, len(ctx.layout.data["categories"]) * ctx.layout.data["accessories"]["field_max_mm"])
    x = (page[0] - width) / 2
    items = [("strip", 2 * PANEL_MM)] * int(ctx.layout.data["accessories"]["strips"]) + [("scoring", SCORE_MM)]
    top = None
    for kind, height in items:
        if top is None or top - height < MARGIN_MM:
            if top is not None:
                end_page(c)
            begin_page(c, page)
            top = page[1] - MARGIN_MM
        box = Box(x, top - height, width, height)
        if kind == "strip":
            _strip(c, ctx, w, box)
        else:
            _scoring(c, ctx, w, box)
        top -= height + GAP_MM
    end_page(c)
