"""Canvas, page, clip, form and metadata helpers shared by the cards, the calibration sheet and the
accessories. Pages are drawn in millimetres from their bottom-left corner."""

import io
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdfgen

from pipeline.render import fonts
from pipeline.text import shown

THINNEST_PT = 0.25  # the thinnest line a print shop holds: every line is drawn at least this wide on the page


class Canvas(pdfgen.Canvas):
    """reportlab's canvas, its line widths at least THINNEST_PT on the page in their thinner direction (a
    flag's hairlines, scaled down with it more one way than the other, and the maps' finest lines too)."""

    outer_scale = 1.0  # while a form is recorded: the scale it is drawn at (its matrix starts anew inside it)

    def setLineWidth(self, width):
        scale = thinner_scale(self._currentMatrix[:4]) * self.outer_scale
        super().setLineWidth(max(width, THINNEST_PT / (scale or 1.0)))


def thinner_scale(matrix) -> float:
    """How much a transformation's linear part [a b c d] scales a line width in the direction it shrinks most
    (its smaller singular value): a line drawn with unequal scaling is that thin one way."""
    a, b, c, d = matrix
    total, det = a * a + b * b + c * c + d * d, abs(a * d - b * c)
    return math.sqrt(max(0.0, (total - math.sqrt(max(0.0, total * total - 4 * det * det))) / 2))


def new_canvas(kind: type[Canvas] = Canvas) -> tuple[Any, io.BytesIO]:
    """A deterministic canvas (fixed dates and id) of class `kind` whose only font is the embedded DejaVu Sans."""
    buffer = io.BytesIO()
    return kind(buffer, invariant=1, pageCompression=1, initialFontName=fonts.register()[0]), buffer


def describe(canvas: Canvas, title: str, subject: str) -> None:
    """The document's title and subject (text: control characters shown as escapes); geodeck is its author
    and creator."""
    canvas.setTitle(shown(title))
    canvas.setAuthor("geodeck")
    canvas.setCreator("geodeck (reportlab)")
    canvas.setSubject(shown(subject))


def begin_page(canvas: Canvas, size_mm: tuple[float, float]) -> None:
    canvas.setPageSize((size_mm[0] * mm, size_mm[1] * mm))
    canvas.saveState()
    canvas.scale(mm, mm)


def end_page(canvas: Canvas) -> None:
    canvas.restoreState()
    canvas.showPage()


@contextmanager
def clipped(canvas: Canvas, area) -> Iterator[None]:
    """Drawing inside the block is clipped to `area` (anything with x, y, w, h); the graphics state is
    restored after it."""
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(area.x, area.y, area.w, area.h)
    canvas.clipPath(clip, stroke=0, fill=0)
    yield
    canvas.restoreState()


def form(canvas: Canvas, name: str, box, draw: Callable[[], None]) -> None:
    """The form XObject `name` placed at `box`; the first use in a document at each scale records it from
    `draw()`, which draws in the box's own millimetres (origin at its bottom-left corner): a form's line widths
    hold THINNEST_PT at the scale it was recorded at, so a card's map drawn smaller on the cover is its own
    form."""
    scale = thinner_scale(canvas._currentMatrix[:4]) * canvas.outer_scale
    name = f"{name}-{scale:.4f}".replace(".", "_")
    if not canvas.hasForm(name):
        outer, canvas.outer_scale = canvas.outer_scale, scale
        canvas.beginForm(name, 0, 0, box.w, box.h)
        draw()
        canvas.endForm()
        canvas.outer_scale = outer
    canvas.saveState()
    canvas.translate(box.x, box.y)
    canvas.doForm(name)
    canvas.restoreState()
