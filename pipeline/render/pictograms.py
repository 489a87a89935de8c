"""Small vector pictograms drawn in a square box (mm), one colour, no font needed: a template names them
(`icon = "peak"`) and the card renderer draws them before a label."""

from collections.abc import Callable

from pipeline.errors import GeodeckError
from pipeline.render.text import Box


def _area(c, s: float) -> None:
    """A square with a corner-to-corner double arrow."""
    c.setLineWidth(0.09 * s)
    c.rect(0.12 * s, 0.12 * s, 0.76 * s, 0.76 * s, stroke=1, fill=0)
    c.rect(0.12 * s, 0.12 * s, 0.3 * s, 0.3 * s, stroke=0, fill=1)


def _peak(c, s: float) -> None:
    """Two mountains, the higher one in front."""
    path = c.beginPath()
    path.moveTo(0.0, 0.1 * s)
    path.lineTo(0.42 * s, 0.9 * s)
    path.lineTo(0.66 * s, 0.45 * s)
    path.lineTo(0.76 * s, 0.62 * s)
    path.lineTo(1.0 * s, 0.1 * s)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def _thermometer(c, s: float) -> None:
    """A bulb with a stem."""
    c.circle(0.5 * s, 0.24 * s, 0.2 * s, stroke=0, fill=1)
    c.roundRect(0.4 * s, 0.24 * s, 0.2 * s, 0.7 * s, 0.1 * s, stroke=0, fill=1)


def _people(c, s: float) -> None:
    """Two figures: heads and shoulders."""
    for x, k in ((0.33, 0.85), (0.67, 1.0)):
        c.circle(x * s, (0.62 + 0.1 * k) * s, 0.14 * k * s, stroke=0, fill=1)
        c.wedge(
            (x - 0.24 * k) * s,
            (0.08 - 0.22 * k) * s,
            (x + 0.24 * k) * s,
            (0.08 + 0.46 * k) * s,
            0,
            180,
            stroke=0,
            fill=1,
        )


def _heart(c, s: float) -> None:
    path = c.beginPath()
    path.moveTo(0.5 * s, 0.08 * s)
    path.curveTo(0.1 * s, 0.38 * s, 0.0 * s, 0.55 * s, 0.08 * s, 0.74 * s)
    path.curveTo(0.18 * s, 0.96 * s, 0.44 * s, 0.94 * s, 0.5 * s, 0.74 * s)
    path.curveTo(0.56 * s, 0.94 * s, 0.82 * s, 0.96 * s, 0.92 * s, 0.74 * s)
    path.curveTo(1.0 * s, 0.55 * s, 0.9 * s, 0.38 * s, 0.5 * s, 0.08 * s)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def _coins(c, s: float) -> None:
    """A stack of three coins."""
    for i in range(3):
        c.ellipse(0.15 * s, (0.08 + 0.24 * i) * s, 0.85 * s, (0.36 + 0.24 * i) * s, stroke=0, fill=1)
        c.saveState()
        c.setFillGray(1)
        c.rect(0.15 * s, (0.3 + 0.24 * i) * s, 0.7 * s, 0.03 * s, stroke=0, fill=1)
        c.restoreState()


def _bars(c, s: float) -> None:
    """Three rising bars: any measure (a recipe's category without a pictogram of its own)."""
    for i, height in enumerate((0.4, 0.65, 0.9)):
        c.rect((0.1 + 0.3 * i) * s, 0.05 * s, 0.22 * s, height * s, stroke=0, fill=1)


PICTOGRAMS: dict[str, Callable] = {
    "area": _area,
    "peak": _peak,
    "thermometer": _thermometer,
    "people": _people,
    "heart": _heart,
    "coins": _coins,
    "bars": _bars,
}


def draw(canvas, name: str, box: Box, colour) -> None:
    """Pictogram `name` in the largest square centred in `box`, filled and stroked in `colour`."""
    if name not in PICTOGRAMS:
        raise GeodeckError(f"unknown pictogram {name!r}; known: {', '.join(PICTOGRAMS)}")
    s = min(box.w, box.h)
    canvas.saveState()
    canvas.translate(box.x + (box.w - s) / 2, box.y + (box.h - s) / 2)
    canvas.setFillColor(colour)
    canvas.setStrokeColor(colour)
    PICTOGRAMS[name](canvas, s)
    canvas.restoreState()
