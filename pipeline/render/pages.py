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
    """reportlab's canvas, its line widths at least THINNEST_PT on the page (a flag's hairlines, scaled down
    with it, and the maps' finest lines too)."""

    def setLineWidth(self, width):
        a, b, c, d = self._currentMatrix[:4]  # where the line is drawn: its width is scaled by this
        super().setLineWidth(max(width, THINNEST_PT / (math.sqrt(abs(a * d - b * c)) or 1.0)))


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
    """The form XObject `name` placed at `box`; the first use in a document records it from `draw()`,
    which draws in the box's own millimetres (origin at its bottom-left corner)."""
    if not canvas.hasForm(name):
        canvas.beginForm(name, 0, 0, box.w, box.h)
        draw()
        canvas.endForm()
    canvas.saveState()
    canvas.translate(box.x, box.y)
    canvas.doForm(name)
    canvas.restoreState()
