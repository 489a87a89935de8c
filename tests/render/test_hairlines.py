"""Hairlines measured in their thinner direction (issue 45): a line drawn with unequal scaling (a flag squeezed
into its box) is as thin as its narrower scale makes it; the preflight measures that, and `pages.Canvas` keeps
every line at least THINNEST_PT wide on the page that way, inside forms drawn at any scale too."""

import io

import preflight
import pytest
from reportlab.pdfgen.canvas import Canvas as PlainCanvas

from pipeline.render import pages
from pipeline.render.pages import THINNEST_PT, Canvas
from pipeline.render.text import Box


def _squeezed(kind) -> bytes:
    """A line 0.3 units wide drawn scaled 3 × 0.5, directly and in a form drawn at half size."""
    buffer = io.BytesIO()
    canvas = kind(buffer, invariant=1)
    canvas.saveState()
    canvas.scale(3, 0.5)
    canvas.setLineWidth(0.3)
    canvas.line(10, 10, 10, 100)  # vertical: its width runs along x (3 ×) ...
    canvas.line(10, 10, 100, 10)  # ... horizontal: along y (0.5 ×): 0.15 units on the page
    canvas.restoreState()
    if isinstance(canvas, Canvas):
        for scale in (0.5, 2.0):
            canvas.saveState()
            canvas.scale(scale, scale)
            pages.form(canvas, "square", Box(100, 100, 50, 50), lambda: _square(canvas))
            canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _square(canvas) -> None:
    canvas.setLineWidth(0.1)
    canvas.rect(0, 0, 50, 50)


def test_the_preflight_measures_a_line_in_its_thinner_direction():
    assert preflight.thinnest_line(_squeezed(PlainCanvas)) == pytest.approx(0.3 * 0.5)


def test_the_canvas_keeps_every_line_a_hairline_at_least_in_its_thinner_direction():
    assert preflight.thinnest_line(_squeezed(Canvas)) == pytest.approx(THINNEST_PT, abs=1e-4)
