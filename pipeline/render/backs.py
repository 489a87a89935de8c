"""A game's card back, drawn from its design system (`[design]` and `[design.back]` in its card template): the
game's colour to the bleed, a frame inset from the trim, an emblem at the centre and the title twice, upright
above the emblem and turned 180° below it. Every part is symmetric about the card's centre, so the back looks
the same either way up and a shuffled card shows no orientation.

Emblems: `globe`, a graticule (the equator, two parallels each side, the central meridian and two pairs of
meridian ellipses); `wheel`, a ring of the inhabited continents' colours going round twice (opposite wedges
share a colour) about a disc of the game's colour.
"""

from math import radians, sin

from pipeline.errors import GeodeckError
from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.text import Box

GLOBE_STEPS = (30.0, 60.0)  # degrees: the parallels' latitudes and the meridian ellipses' longitudes
WHEEL_CONTINENTS = ("Europe", "Asia", "Africa", "North America", "South America", "Oceania")
WHEEL_INNER = 0.58  # the wheel's inner disc, as a share of its radius


def draw(c, ctx: CardContext) -> None:
    layout = ctx.layout
    design, back = layout.design, layout.design_section("back")
    w, h = layout.card_mm
    cx, cy = w / 2, h / 2
    ctx.background(c, design.colour("colour"))
    inset = float(back["frame_mm"])
    c.setStrokeColor(design.colour("light"))
    c.setLineWidth(float(back["frame_line_mm"]))
    c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, float(back["corner_mm"]), stroke=1, fill=0)
    radius = float(back["emblem_mm"]) / 2
    emblem = back["emblem"]
    if emblem == "globe":
        _globe(c, cx, cy, radius, design)
    elif emblem == "wheel":
        _wheel(c, cx, cy, radius, ctx)
    else:
        raise GeodeckError(
            f"templates/cards/{layout.game}.toml: [design.back] emblem {emblem!r}; expected globe or wheel"
        )
    box = Box(*(float(v) for v in back["title"]))
    title = ctx.words["title"]
    try:
        size, lines = text.largest_pt(title, ctx.bold, box, float(back["title_pt"])), 1
    except text.DoesNotFit:
        size, lines = text.largest_pt(title, ctx.bold, box, float(back["title_pt"]), TITLE_LINES), TITLE_LINES
    c.setFillColor(design.colour("ink"))
    for turn in (0, 180):  # upright above the centre, then the same turned about the card's centre
        c.saveState()
        c.translate(cx, cy)
        c.rotate(turn)
        c.translate(-cx, -cy)
        text.draw(c, title, ctx.bold, box, size, size, lines, align="center")
        c.restoreState()


TITLE_LINES = 2  # a title that one line holds at no size down to 7 pt wraps ("The World Game: Africa and Europe")


def _globe(c, cx: float, cy: float, r: float, design) -> None:
    c.setFillColor(design.colour("light"))
    c.setStrokeColor(design.colour("ink"))
    c.setLineWidth(r * 0.045)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setLineWidth(r * 0.025)
    c.line(cx - r, cy, cx + r, cy)
    c.line(cx, cy - r, cx, cy + r)
    for degrees in GLOBE_STEPS:
        share = sin(radians(degrees))
        half = r * (1 - share**2) ** 0.5
        for y in (cy - r * share, cy + r * share):  # the parallels, one each side of the equator
            c.line(cx - half, y, cx + half, y)
        c.ellipse(cx - r * share, cy - r, cx + r * share, cy + r, stroke=1, fill=0)  # a pair of meridians


def _wheel(c, cx: float, cy: float, r: float, ctx: CardContext) -> None:
    layout = ctx.layout
    colours = [layout.continent(name, ctx.lang)[1] for name in WHEEL_CONTINENTS] * 2
    step = 360 / len(colours)
    for i, colour in enumerate(colours):
        c.setFillColor(colour)
        c.wedge(cx - r, cy - r, cx + r, cy + r, 90 + i * step, step, stroke=0, fill=1)
    c.setStrokeColor(layout.design.colour("ink"))
    c.setLineWidth(r * 0.04)
    c.circle(cx, cy, r, stroke=1, fill=0)
    c.setFillColor(layout.design.colour("colour"))
    c.circle(cx, cy, r * WHEEL_INNER, stroke=1, fill=1)
    star = r * WHEEL_INNER * 0.8  # a four-pointed compass star, symmetric about the centre
    waist = star * 0.22
    path = c.beginPath()
    points = [
        (0, star),
        (waist, waist),
        (star, 0),
        (waist, -waist),
        (0, -star),
        (-waist, -waist),
        (-star, 0),
        (-waist, waist),
    ]
    path.moveTo(cx + points[0][0], cy + points[0][1])
    for x, y in points[1:]:
        path.lineTo(cx + x, cy + y)
    path.close()
    c.setFillColor(layout.design.colour("ink"))
    c.drawPath(path, stroke=0, fill=1)
