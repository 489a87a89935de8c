"""Text that fits its box: shrink, then wrap, never overflow. The canvas is scaled to millimetres. A string is
drawn as text, its control characters shown as escapes (`pipeline.text.shown`); a paragraph takes `Markup`
only (`paragraph`, pipeline/markup.py)."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from pipeline.errors import GeodeckError
from pipeline.markup import Markup
from pipeline.text import shown

PT_MM = 25.4 / 72  # one typographic point in millimetres
LINE_SPACING = 1.15
SMALLEST_PT = 6.0  # the legibility floor of pages and sheets: a text may go below its box's minimum, never below this
CARD_PT = 7.0  # the floor on a card (`floor`): what a print shop and a player read at arm's length
_FLOOR: ContextVar[float] = ContextVar("floor", default=SMALLEST_PT)
ASCENT = 0.76  # DejaVu Sans, as a fraction of the font size
DIGIT_HEIGHT = 0.73  # DejaVu Sans's digits (cap height), as a fraction of the font size


@contextmanager
def floor(pt: float) -> Iterator[None]:
    """Within it no text is set below `pt` (a card's face: CARD_PT) instead of SMALLEST_PT."""
    token = _FLOOR.set(pt)
    try:
        yield
    finally:
        _FLOOR.reset(token)


def smallest() -> float:
    """The floor in force (pt): SMALLEST_PT, or a `floor`'s."""
    return _FLOOR.get()


class DoesNotFit(GeodeckError):
    """A text too long for its box even at the floor in force (`smallest`): the text, its font, box, lines and
    that floor, so that a caller can say what to change (`holds`)."""

    def __init__(self, text: str, font: str, box: "Box", max_lines: int = 1, message: str | None = None):
        self.text, self.font, self.box, self.max_lines, self.floor = text, font, box, max_lines, smallest()
        super().__init__(
            message or f"{text!r} does not fit its {box.w:.1f} × {box.h:.1f} mm box even at {self.floor:g} pt"
        )

    def holds(self) -> int:
        """How many characters of the text its box holds at the floor it was found at."""
        low, high = 0, len(self.text)
        while low < high:
            middle = (low + high + 1) // 2
            try:
                fit(self.text[:middle], self.font, self.box, self.floor, self.floor, self.max_lines, self.floor)
                low = middle
            except DoesNotFit:
                high = middle - 1
        return low


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size_mm: float

    @property
    def height(self) -> float:
        return self.size_mm * (1 + LINE_SPACING * (len(self.lines) - 1))


def _words(text: str) -> list[str]:
    """Break points after spaces and after hyphens (Nordrhein-|Westfalen)."""
    return [w for w in re.split(r"(?<=-)|\s+", text) if w]


def _wrap(text: str, font: str, size: float, width: float, max_lines: int) -> tuple[str, ...] | None:
    lines: list[str] = []
    for word in _words(text):
        joined = (lines[-1] + ("" if lines[-1].endswith("-") else " ") + word) if lines else word
        if lines and stringWidth(joined, font, size) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    if len(lines) > max_lines or any(stringWidth(line, font, size) > width for line in lines):
        return None
    return tuple(lines)


def _sizes(high: float, low: float) -> list[float]:
    return [high - 0.25 * i for i in range(int((high - low) / 0.25) + 1)]


def fit(
    text: str, font: str, box: Box, max_pt: float, min_pt: float, max_lines: int = 1, least: float | None = None
) -> Fitted:
    """Set `text` in the box: one line shrinking from max_pt to min_pt, then wrapped lines from max_pt
    to min_pt, then anything smaller down to `least` (else the floor in force, `smallest`; also the floor for
    min_pt); a text that still does not fit is an error."""
    least = smallest() if least is None else least
    min_pt = max(min_pt, least)
    if not text.strip():  # nothing to set (a unit of just "{n}" leaves its strip line empty)
        return Fitted((), min_pt * PT_MM)
    attempts = [(s, 1) for s in _sizes(max_pt, min_pt)]
    attempts += [(s, n) for s in _sizes(max_pt, min_pt) for n in range(2, max_lines + 1)]
    attempts += [(s, n) for s in _sizes(min_pt, least) for n in range(1, max_lines + 1)]
    for size_pt, n in attempts:
        size = size_pt * PT_MM
        lines = _wrap(text, font, size, box.w, n)
        if lines and Fitted(lines, size).height <= box.h:
            return Fitted(lines, size)
    raise DoesNotFit(text, font, box, max_lines)


def draw(
    canvas,
    text: str,
    font: str,
    box: Box,
    max_pt: float,
    min_pt: float | None = None,
    max_lines: int = 1,
    align: str = "left",
    valign: str = "middle",
    colour=None,
) -> Fitted:
    """Draw `text` fitted into `box` (mm) and return how it was set."""
    fitted = fit(shown(text), font, box, max_pt, min_pt or max_pt, max_lines)
    size, step = fitted.size_mm, fitted.size_mm * LINE_SPACING
    top_room = box.h - fitted.height
    offset = {"top": 0.0, "middle": top_room / 2, "bottom": top_room}[valign]
    baseline = box.y + box.h - offset - ASCENT * size
    canvas.setFont(font, size)
    if colour is not None:
        canvas.setFillColor(colour)
    for line in fitted.lines:
        if align == "center":
            canvas.drawCentredString(box.x + box.w / 2, baseline, line)
        elif align == "right":
            canvas.drawRightString(box.x + box.w, baseline, line)
        else:
            canvas.drawString(box.x, baseline, line)
        baseline -= step
    return fitted


def in_circle(text: str, font: str, radius: float, max_pt: float) -> float:
    """The size (mm) at which one line of digits `text`, its box of string width × digit height centred,
    lies inside a circle of `radius` mm (at most max_pt)."""
    half_w, half_h = stringWidth(text, font, 1.0) / 2, DIGIT_HEIGHT / 2
    return min(max_pt * PT_MM, radius / (half_w**2 + half_h**2) ** 0.5)


def largest_pt(text: str, font: str, box: Box, max_pt: float, max_lines: int = 1) -> float:
    """The largest size (pt, in quarter points from max_pt down to the floor, `smallest`) at which `text` fits `box` in
    at most `max_lines` lines (wrapping preferred to shrinking)."""
    if not text.strip():
        return max_pt
    for size_pt in _sizes(max_pt, smallest()):
        for n in range(1, max_lines + 1):
            lines = _wrap(text, font, size_pt * PT_MM, box.w, n)
            if lines and Fitted(lines, size_pt * PT_MM).height <= box.h:
                return size_pt
    raise DoesNotFit(text, font, box, max_lines)


def one_size(texts, font: str, box: Box, max_pt: float, max_lines: int = 1) -> float:
    """A field's one size (pt) across a deck: the largest, at most max_pt, at which every one of `texts` fits
    (a text that fits at no size is left to fail, naming its card, when it is drawn)."""
    sizes = []
    for t in texts:
        try:
            sizes.append(largest_pt(t, font, box, max_pt, max_lines))
        except DoesNotFit:
            continue
    return min(sizes, default=max_pt)


def paragraph(markup: Markup, style) -> Paragraph:
    """A `Paragraph` of `markup`, which must be `Markup` (pipeline/markup.py): a plain string would be read as
    reportlab markup, tags, entities, images and links included."""
    if not isinstance(markup, Markup):
        raise TypeError(f"a paragraph takes Markup (pipeline.markup), not {type(markup).__name__}")
    return Paragraph(markup, style)
