"""A tuck box for a deck, as a print shop's die-line: one sheet with the box's art in the game's colours to the
bleed, its cut line on the spot colour `CutContour` and its fold lines on `Fold` (two named separations, as
shops' cutting plotters and die makers ask; both overprint, so they never knock the art out).

The box is a reverse tuck end box: glue flap, back, side, front, side in a row; the top lid and its tuck flap
on the front, the bottom lid on the back, a dust flap on each side at both ends. Its inside is the card plus
`clearance_mm` each way, its depth the deck's cards times `card_thickness_mm` plus `clearance_mm`
(`templates/cards/common.toml [print_shop]`). All sizes in mm, from the die's lower-left corner.
"""

from contextlib import suppress
from dataclasses import dataclass

from reportlab.lib.colors import CMYKColorSep
from reportlab.lib.units import mm

from pipeline.render import ports, text
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, clipped, end_page
from pipeline.render.text import PT_MM, Box

CUT = CMYKColorSep(0, 1, 0, 0, spotName="CutContour")
FOLD = CMYKColorSep(1, 0, 0, 0, spotName="Fold")
SPOTS = ("CutContour", "Fold")
LINE_PT = 0.5  # the die lines' width
CHAMFER = 0.4  # a dust flap's slanted edge, as a share of its height
SIDE_PT = 9.0  # the title on the sides and lids, at most


@dataclass(frozen=True)
class TuckBox:
    """A tuck box of inside width `w`, height `h` and depth `d` (mm), with its glue flap and tuck flaps."""

    w: float
    h: float
    d: float
    glue: float
    tuck: float

    @classmethod
    def for_deck(cls, card_mm: tuple[float, float], cards: int, shop: dict) -> "TuckBox":
        room = float(shop["clearance_mm"])
        depth = cards * float(shop["card_thickness_mm"]) + room
        return cls(card_mm[0] + room, card_mm[1] + room, depth, float(shop["glue_mm"]), float(shop["tuck_mm"]))

    @property
    def xs(self) -> tuple[float, float, float, float, float]:
        """The folds between glue flap, back, side, front, side, and the right edge."""
        a = self.glue
        return a, a + self.w, a + self.w + self.d, a + 2 * self.w + self.d, a + 2 * self.w + 2 * self.d

    @property
    def body(self) -> tuple[float, float]:
        """The body's lower and upper fold (y)."""
        low = self.tuck + self.d
        return low, low + self.h

    @property
    def size(self) -> tuple[float, float]:
        return self.xs[4], self.h + 2 * (self.d + self.tuck)

    @property
    def dust(self) -> float:
        return min(self.d, self.w / 2)

    def outline(self) -> list[tuple[float, float]]:
        """The cut line, clockwise from the back panel's lower left corner."""
        a, b, c, d, e = self.xs
        yb, yt = self.body
        dh, ch, top = self.dust, self.dust * CHAMFER, yt + self.d
        lid, flap = _tuck(c, d, top, self.tuck, 1), _tuck(a, b, yb - self.d, self.tuck, -1)
        return [
            (a, yb),
            (0, yb + 4),
            (0, yt - 4),
            (a, yt),
            (b, yt),
            (b + 1, yt + dh),
            (c - ch, yt + dh),
            (c, yt),
            (c, top),
            *lid,
            (d, top),
            (d, yt),
            (d + ch, yt + dh),
            (e - 1, yt + dh),
            (e, yt),
            (e, yb),
            (e - 1, yb - dh),
            (d + ch, yb - dh),
            (d, yb),
            (c, yb),
            (c - 1, yb - dh),
            (b + ch, yb - dh),
            (b, yb),
            (b, yb - self.d),
            *reversed(flap),
            (a, yb - self.d),
        ]

    def folds(self) -> list[tuple[float, float, float, float]]:
        """The fold lines (x0, y0, x1, y1)."""
        a, b, c, d, e = self.xs
        yb, yt = self.body
        return [
            *((x, yb, x, yt) for x in (a, b, c, d)),
            (b, yt, c, yt),
            (c, yt, d, yt),
            (d, yt, e, yt),
            (c + 1, yt + self.d, d - 1, yt + self.d),
            (b, yb, c, yb),
            (d, yb, e, yb),
            (a, yb, b, yb),
            (a + 1, yb - self.d, b - 1, yb - self.d),
        ]

    def panels(self) -> dict[str, Box]:
        a, b, c, d, _ = self.xs
        yb, yt = self.body
        return {
            "back": Box(a, yb, self.w, self.h),
            "side": Box(b, yb, self.d, self.h),
            "front": Box(c, yb, self.w, self.h),
            "other side": Box(d, yb, self.d, self.h),
            "top": Box(c, yt, self.w, self.d),
            "bottom": Box(a, yb - self.d, self.w, self.d),
        }


def _tuck(x0: float, x1: float, y: float, height: float, up: int) -> list[tuple[float, float]]:
    """A tuck flap on the hinge y from x0 to x1 (upwards for up=1), 1 mm narrower each side, its corners cut,
    from left to right."""
    corner = min(4.0, height / 2)
    return [
        (x0 + 1, y),
        (x0 + 1, y + up * (height - corner)),
        (x0 + 1 + corner, y + up * height),
        (x1 - 1 - corner, y + up * height),
        (x1 - 1, y + up * (height - corner)),
        (x1 - 1, y),
    ]


def page(box: TuckBox, shop: dict) -> tuple[tuple[float, float], tuple[float, float, float, float], float]:
    """(page size, trim box (x0, y0, x1, y1), bleed) in mm: the die with its bleed and a margin round it."""
    bleed, margin = float(shop["bleed_mm"]), float(shop["margin_mm"])
    edge = bleed + margin
    w, h = box.size
    return (w + 2 * edge, h + 2 * edge), (edge, edge, edge + w, edge + h), bleed


def draw(canvas, game, deck: dict, ctx: CardContext, words: dict, shop: dict) -> TuckBox:
    """The tuck box of `deck` on one page of `canvas`: art to the bleed, then the die lines. `words`: the deck's
    `title`, `subtitle` and `version` line in the kit's language (kit.box_words)."""
    box = TuckBox.for_deck(ctx.layout.card_mm, len(deck["cards"]), shop)
    size, trim, bleed = page(box, shop)
    x0, y0, x1, y1 = trim
    canvas.setTrimBox([v * mm for v in trim])
    canvas.setBleedBox([(x0 - bleed) * mm, (y0 - bleed) * mm, (x1 + bleed) * mm, (y1 + bleed) * mm])
    begin_page(canvas, size)
    canvas.translate(x0, y0)
    outline = box.outline()
    design = ctx.layout.design
    canvas.setFillColor(design.colour("colour"))
    canvas.setStrokeColor(design.colour("colour"))
    canvas.setLineWidth(2 * bleed)  # the fill stroked twice the bleed wide: the art runs `bleed` past every cut
    canvas.setLineJoin(1)
    canvas.drawPath(_path(canvas, outline), stroke=1, fill=1)
    _art(canvas, game, deck, ctx, words, box)
    for colour, lines in ((FOLD, box.folds()), (CUT, None)):
        canvas.setStrokeColor(colour)
        canvas.setStrokeOverprint(True)
        canvas.setLineWidth(LINE_PT * PT_MM)
        if lines is None:
            canvas.drawPath(_path(canvas, outline), stroke=1, fill=0)
        else:
            canvas.lines(lines)
    end_page(canvas)
    return box


def _path(canvas, points: list[tuple[float, float]]):
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


def _art(canvas, game, deck: dict, ctx: CardContext, words: dict, box: TuckBox) -> None:
    """The title on every face, the key art and the subtitle on the front, the version on the back."""
    design = ctx.layout.design
    panels = box.panels()
    ink = design.colour("ink")
    canvas.setFillColor(ink)
    front = panels["front"]
    pad = 5.0
    title_h = design.pt("title") * PT_MM * 2.6
    for name in ("front", "back"):
        face = panels[name]
        text.draw(
            canvas,
            words["title"],
            ctx.bold,
            Box(face.x + pad, face.y + face.h - pad - title_h, face.w - 2 * pad, title_h),
            design.pt("title"),
            7,
            2,
            align="center",
            colour=ink,
        )
    art = ports.art(ports.cards(game))
    art_box = Box(front.x + pad, front.y + front.h * 0.22, front.w - 2 * pad, front.h * 0.52)
    if art is not None:
        canvas.setFillColor(design.colour("art_sea"))
        canvas.roundRect(art_box.x, art_box.y, art_box.w, art_box.h, 2, stroke=0, fill=1)
        with clipped(canvas, art_box):
            art(canvas, deck["cards"], Box(art_box.x + 1, art_box.y + 1, art_box.w - 2, art_box.h - 2), ctx)
    below = Box(front.x + pad, front.y + pad, front.w - 2 * pad, art_box.y - front.y - 2 * pad)
    text.draw(canvas, words["subtitle"], ctx.regular, below, design.pt("body"), 6, 3, align="center", colour=ink)
    back = panels["back"]
    text.draw(
        canvas,
        words["version"],
        ctx.regular,
        Box(back.x + pad, back.y + pad, back.w - 2 * pad, back.h * 0.4),
        design.pt("small"),
        6,
        6,
        align="center",
        valign="bottom",
        colour=ink,
    )
    for name, turn in (("side", 90), ("other side", 90), ("top", 0), ("bottom", 180)):
        _turned(canvas, words["title"], ctx, panels[name], turn, ink)


def _turned(canvas, title: str, ctx: CardContext, face: Box, turn: int, ink) -> None:
    """The title along a narrow face (turned `turn` degrees about its centre), left out where it cannot be set
    at 6 pt (a box for a few cards)."""
    long, short = (face.h, face.w) if turn % 180 else (face.w, face.h)
    slot = Box(-long / 2 + 3, -short / 2 + 1, long - 6, short - 2)
    if slot.h < 6 * PT_MM * 1.3:
        return
    canvas.saveState()
    canvas.translate(face.x + face.w / 2, face.y + face.h / 2)
    canvas.rotate(turn)
    with suppress(text.DoesNotFit):
        text.draw(canvas, title, ctx.bold, slot, min(SIDE_PT, slot.h / PT_MM / 1.3), 6, align="center", colour=ink)
    canvas.restoreState()
