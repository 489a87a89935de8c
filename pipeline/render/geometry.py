"""Print geometry in millimetres: paper sizes, the 3 × 3 card sheet, duplex back positions, crop marks.

Coordinates follow PDF: origin at the page's bottom-left corner, x to the right, y upwards.
Cards on a sheet are butted together (one cut per line, the bleed past the outer edge of the block) or set
apart by a gutter (two cuts per gutter; each card bleeds into its half of the gutter, so a miscut shows the
card's own colour, not its neighbour's). The default is the gutter layout where the paper allows nine cards
with gutters and crop marks outside the bleed that print, else butted (A4 and Letter at a 3 mm bleed).
Home printers leave about PRINTABLE_MM unprinted along every edge: the cards' trim and at least MIN_MARK_MM
of every crop mark lie inside that printable area. A crop mark starts outside the bleed, never on it. Where
even butted cards leave no such room (Letter: 7.7 mm above and below the block), the sheet says so
(`Sheet.cramped`): the bleed and the marks above and below reach into the unprinted edge.
"""

import math
from collections.abc import Collection
from dataclasses import dataclass

from pipeline.errors import GeodeckError
from pipeline.text import NUMBER

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DUPLEX_MODES = ("long", "short", "none")
COLUMNS, ROWS = 3, 3
PER_SHEET = COLUMNS * ROWS  # cards on one fronts page
MARK_GAP_MM = 1.0  # crop marks start this far outside the bleed where the margin has room
MARK_MIN_GAP_MM = 0.5  # ... and never nearer the bleed than this
MIN_MARK_MM = 2.0  # the shortest crop mark still worth printing (its printable part)
PRINTABLE_MM = 5.0  # what home printers leave unprinted along each edge (Letter drivers: 4.2-6.4 mm)
DEFAULT_GUTTER_MM = 3.0  # the gutter when the paper allows it
SEAM_MM = 0.2  # a card paints this far under its right and lower neighbours (drawn later, they cover it)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float = 0, bottom: float = 0, right: float = 0, top: float = 0) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def shift(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


def paper_size(name: str) -> tuple[float, float]:
    try:
        return PAPERS_MM[name.lower()]
    except KeyError:
        raise GeodeckError(
            f"unknown paper size {name!r} for cards; use one of: {', '.join(PAPERS_MM)} (a3 is for --what accessories)"
        ) from None


MAX_BACK_OFFSET_MM = 10.0  # the calibration sheet measures ±10 mm; a larger shift is a misprint, not a printer


def parse_offset(text: str | None) -> tuple[float, float]:
    """`--back-offset X,Y` in mm (x to the right, y upwards as you look at the backs page), each a finite
    number within ±MAX_BACK_OFFSET_MM."""
    if not text:
        return 0.0, 0.0
    parts = text.split(",")
    if len(parts) != 2 or not all(NUMBER.fullmatch(part) for part in parts):  # ASCII digits, as typed
        raise GeodeckError(f"--back-offset {text!r} is not X,Y in millimetres (e.g. 1.5,-0.5)")
    x, y = float(parts[0]), float(parts[1])
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in (x, y)):
        raise GeodeckError(
            f"--back-offset {text!r}: X and Y must be numbers from -{MAX_BACK_OFFSET_MM:g} to "
            f"{MAX_BACK_OFFSET_MM:g} mm (measure them with --calibration)"
        )
    return x, y


def default_gutter(paper: str, card_w: float, card_h: float, bleed: float) -> float:
    """DEFAULT_GUTTER_MM where nine cards with that gutter keep their trim and crop marks outside the bleed
    printable, else 0 (A4 and Letter)."""
    try:
        Sheet(paper, card_w, card_h, bleed, DEFAULT_GUTTER_MM).validate()
    except GeodeckError:
        return 0.0
    return DEFAULT_GUTTER_MM


@dataclass(frozen=True)
class Sheet:
    """A page of COLUMNS × ROWS cards centred on the paper, `gutter` mm apart (0: butted)."""

    paper: str
    card_w: float
    card_h: float
    bleed: float
    gutter: float = 0.0

    @property
    def page(self) -> tuple[float, float]:
        return paper_size(self.paper)

    @property
    def block(self) -> Rect:
        pw, ph = self.page
        w = COLUMNS * self.card_w + (COLUMNS - 1) * self.gutter
        h = ROWS * self.card_h + (ROWS - 1) * self.gutter
        return Rect((pw - w) / 2, (ph - h) / 2, w, h)

    def validate(self) -> "Sheet":
        _pw, _ph = self.page
        if self.bleed < 0:
            raise GeodeckError(f"--bleed {self.bleed:g} mm is negative; use 0 or more")
        if self.gutter < 0:
            raise GeodeckError(f"--gutter {self.gutter:g} mm is negative; use 0 (butted cards) or more")
        margin = min(self.block.x, self.block.y)
        if margin < PRINTABLE_MM:
            raise GeodeckError(
                f"{COLUMNS} × {ROWS} cards of {self.card_w:g} × {self.card_h:g} mm with a {self.gutter:g} mm "
                f"gutter leave {max(margin, 0):.1f} mm to the edge of {self.paper}, less than the "
                f"{PRINTABLE_MM:g} mm a home printer leaves blank; use a smaller --gutter (0: butted)"
            )
        if self.gutter and self.cramped():
            raise GeodeckError(
                f"--gutter {self.gutter:g} mm leaves no room on {self.paper} for crop marks outside the bleed "
                f"that print; use a smaller --gutter (0: butted)"
            )
        room = margin - MARK_GAP_MM - MIN_MARK_MM
        if self.bleed > room:
            raise GeodeckError(
                f"--bleed {self.bleed:g} mm is larger than the margin allows on {self.paper} "
                f"(at most {max(room, 0):.1f} mm leaves room for crop marks)"
            )
        return self

    def cramped(self) -> str | None:
        """What does not print when the margin beside the block has no room for the bleed, a gap and a
        printable crop mark (None when it has)."""
        margin = min(self.block.x, self.block.y)
        if margin - self.bleed - MARK_MIN_GAP_MM - PRINTABLE_MM >= MIN_MARK_MM - 1e-9:
            return None
        side = "above and below" if self.block.y < self.block.x else "beside"
        return (
            f"on {self.paper} the cards leave {margin:.1f} mm {side} them: the {self.bleed:g} mm bleed reaches "
            f"{margin - self.bleed:.1f} mm from the edge and the crop marks there lie within the "
            f"{PRINTABLE_MM:g} mm most printers leave blank; cut along the other marks first, or print on a4"
        )

    def slot(self, index: int) -> Rect:
        """Trim box of the card in slot `index` (0..8, row by row from the top left)."""
        col, row = index % COLUMNS, index // COLUMNS
        block, g = self.block, self.gutter
        return Rect(
            block.x + col * (self.card_w + g), block.top - (row + 1) * self.card_h - row * g, self.card_w, self.card_h
        )

    def paint_area(self, index: int, filled: Collection[int] = range(PER_SHEET)) -> Rect:
        """Where a card may paint: its trim box plus the bleed on the sides that face the page margin or an
        empty slot (the last sheet of a deck is not full). Towards a neighbour: with a gutter, half the
        gutter (at most the bleed); butted, SEAM_MM under its right and lower neighbours. Cards are drawn in
        slot order, so the neighbour covers that strip; without it, anti-aliased viewers show a light seam
        along every shared cut line. `filled`: the slots that hold a card."""
        col, row = index % COLUMNS, index // COLUMNS
        b = self.bleed

        def side(neighbour: int | None, shared: float) -> float:
            if self.gutter:
                shared = min(b, self.gutter / 2)
            return shared if neighbour is not None and neighbour in filled else b

        return self.slot(index).grow(
            left=side(index - 1 if col > 0 else None, 0),
            right=side(index + 1 if col < COLUMNS - 1 else None, SEAM_MM),
            top=side(index - COLUMNS if row > 0 else None, 0),
            bottom=side(index + COLUMNS if row < ROWS - 1 else None, SEAM_MM),
        )

    @staticmethod
    def mirrored(index: int, duplex: str) -> int:
        """The slot on the backs page that lies behind front slot `index` (its own inverse)."""
        col, row = index % COLUMNS, index // COLUMNS
        return {"long": row * COLUMNS + COLUMNS - 1 - col, "short": (ROWS - 1 - row) * COLUMNS + col}.get(duplex, index)

    def back_slot(self, index: int, duplex: str, offset: tuple[float, float]) -> Rect:
        """Trim box on the backs page that lies behind front slot `index` after the duplex flip."""
        front = self.slot(index)
        pw, ph = self.page
        if duplex == "long":
            rect = Rect(pw - front.right, front.y, front.w, front.h)
        elif duplex == "short":
            rect = Rect(front.x, ph - front.top, front.w, front.h)
        else:
            rect = front
        return rect.shift(*offset)

    def back_paint_area(self, index: int, duplex: str, offset: tuple[float, float], cards: int = PER_SHEET) -> Rect:
        """The paint area of the mirrored slot (among the backs of a sheet of `cards` cards), moved to where
        this card's back lands."""
        mirrored = self.mirrored(index, duplex)
        area = self.paint_area(mirrored, {self.mirrored(i, duplex) for i in range(cards)})
        target = self.back_slot(index, duplex, offset)
        source = self.slot(mirrored)
        return area.shift(target.x - source.x, target.y - source.y)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """(x of every vertical cut, y of every horizontal cut): COLUMNS + 1 and ROWS + 1 butted, two per
        gutter with one."""
        xs = sorted({r.x for r in map(self.slot, range(COLUMNS))} | {r.right for r in map(self.slot, range(COLUMNS))})
        rows = [self.slot(r * COLUMNS) for r in range(ROWS)]
        ys = sorted({r.y for r in rows} | {r.top for r in rows})
        return xs, ys

    def mark_start(self, margin: float) -> float:
        """How far outside the block the marks in a `margin` of that width start: MARK_GAP_MM past the bleed
        where the printable part is then still MIN_MARK_MM long, else MARK_MIN_GAP_MM past it."""
        preferred = self.bleed + MARK_GAP_MM
        if margin - preferred - PRINTABLE_MM >= MIN_MARK_MM:
            return preferred
        return self.bleed + MARK_MIN_GAP_MM

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Line segments (x0, y0, x1, y1) on every cut line, outside the block, to the page edge."""
        pw, ph = self.page
        block = self.block
        top, side = self.mark_start(block.y), self.mark_start(block.x)
        xs, ys = self.cut_lines()
        marks = []
        for x in xs:
            marks += [(x, 0.0, x, block.y - top), (x, block.top + top, x, ph)]
        for y in ys:
            marks += [(0.0, y, block.x - side, y), (block.right + side, y, pw, y)]
        return marks


def printable_length(mark: tuple[float, float, float, float], page: tuple[float, float]) -> float:
    """The length of a mark that lies PRINTABLE_MM or more inside the page edge."""
    x0, y0, x1, y1 = mark
    lo, hi = (PRINTABLE_MM, page[1] - PRINTABLE_MM) if x0 == x1 else (PRINTABLE_MM, page[0] - PRINTABLE_MM)
    a, b = sorted((y0, y1) if x0 == x1 else (x0, x1))
    return max(0.0, min(b, hi) - max(a, lo))


def one_up_page(card_w: float, card_h: float, bleed: float) -> tuple[tuple[float, float], Rect]:
    """Page size and trim box for one card per page (print shops)."""
    if bleed < 0:
        raise GeodeckError(f"--bleed {bleed:g} mm is negative; use 0 or more")
    return (card_w + 2 * bleed, card_h + 2 * bleed), Rect(bleed, bleed, card_w, card_h)
