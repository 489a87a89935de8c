"""The one-sheet duplex calibration test (`geodeck print GAME --calibration`); its layout and words are in
`templates/cards/common.toml [calibration]`.

Front: crosses at the page centre and near each corner. Back: behind each cross, where the backs of the
cards would land with the offset in use, a millimetre grid with numbered X and Y axes. Printed duplex and
held against the light, each cross shows through onto its grid: the reading X,Y (x to the right, y upwards
as you look at the back) plus the offset in use is the --back-offset that puts the backs behind the fronts.
"""

from reportlab.lib.colors import HexColor

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.i18n.language import Language
from pipeline.render import fonts, layouts, text
from pipeline.render.geometry import paper_size
from pipeline.render.pages import begin_page, describe, end_page, new_canvas
from pipeline.render.printing import PrintOptions
from pipeline.render.text import PT_MM, Box


def targets(page: tuple[float, float], inset: float) -> list[tuple[float, float]]:
    """The crosses on the front: the page centre and one `inset` mm in from each corner."""
    pw, ph = page
    return [(pw / 2, ph / 2), (inset, inset), (pw - inset, inset), (inset, ph - inset), (pw - inset, ph - inset)]


def behind(point: tuple[float, float], page: tuple[float, float], duplex: str) -> tuple[float, float]:
    """Where a front-page point lies on the backs page after the flip."""
    x, y = point
    return {"long": (page[0] - x, y), "short": (x, page[1] - y)}.get(duplex, (x, y))


def _settings(lang: Language) -> tuple[dict, dict]:
    """The sheet's sizes and its words (`[calibration.words]`) in `lang`."""
    section = layouts.common_in(lang).get("calibration") or {}
    if "words" not in section:
        raise GeodeckError("templates/cards/common.toml: missing [calibration.words]")
    return section, section["words"]


def _centred(page: tuple[float, float], box: list[float], centre: tuple[float, float] | None = None) -> Box:
    """A template box given from the page centre, moved to `centre` (default the page centre)."""
    cx, cy = centre or (page[0] / 2, page[1] / 2)
    x, y, w, h = (float(v) for v in box)
    return Box(cx + x, cy + y, w, h)


def _front(c, cfg: dict, words: dict, page, duplex: str, offset: tuple[float, float], regular: str, bold: str) -> None:
    ink = HexColor(layouts.common()["colours"]["text"])
    c.setStrokeColor(ink)
    c.setLineWidth(float(cfg["cross_line_mm"]))
    arm = float(cfg["cross_mm"])
    for x, y in targets(page, float(cfg["target_inset_mm"])):
        c.line(x - arm, y, x + arm, y)
        c.line(x, y - arm, x, y + arm)
        c.circle(x, y, float(cfg["circle_mm"]), stroke=1, fill=0)
    c.setFillColor(ink)
    size = float(cfg["text_pt"])
    text.draw(c, words["title"], bold, _centred(page, cfg["title_box"]), float(cfg["title_pt"]), align="center")
    box = _centred(page, cfg["text_box"])
    row = box.h / len(words["text"])
    values = {"duplex": words["duplex"][duplex], "offset": f"{offset[0]:g},{offset[1]:g}"}
    for i, line in enumerate(words["text"]):
        text.draw(
            c,
            placeholders.fill(line, **values),
            regular,
            Box(box.x, box.y + box.h - (i + 1) * row, box.w, row),
            size,
            align="center",
        )


def _grid(c, cfg: dict, words: dict, centre: tuple[float, float], regular: str) -> None:
    """A millimetre grid of ±grid_mm around `centre`, every 5th line darker, the zero lines darkest, the
    X numbers below it and the Y numbers left of it."""
    x, y = centre
    span, every = int(cfg["grid_mm"]), int(cfg["label_every_mm"])
    lines = cfg["grid_lines"]
    for k in range(-span, span + 1):
        width, colour = lines[2] if k == 0 else lines[1] if k % 5 == 0 else lines[0]
        c.setLineWidth(float(width))
        c.setStrokeColor(HexColor(colour))
        c.line(x + k, y - span, x + k, y + span)
        c.line(x - span, y + k, x + span, y + k)
    size = float(cfg["label_pt"])
    h = size * PT_MM
    c.setFillColor(HexColor(layouts.common()["colours"]["text"]))
    below = y - span - h / 2 - 0.8 - h  # the X numbers clear the Y numbers' lowest one
    for k in range(-span, span + 1, every):
        label = f"{k:+d}" if k else "0"
        text.draw(c, label, regular, Box(x + k - 3, below, 6, h), size, align="center")
        text.draw(c, label, regular, Box(x - span - 0.8 - 6, y + k - h / 2, 6, h), size, align="right")
    text.draw(c, words["axis_x"], regular, Box(x + span + 3, below, 12, h), size)
    text.draw(c, words["axis_y"], regular, Box(x - span - 0.8 - 12, y + span + h / 2 + 0.8, 12, h), size, align="right")


def draw(canvas, paper: str, duplex: str, offset: tuple[float, float], lang: Language) -> None:
    """The sheet's two pages onto `canvas`: the front, then the back placed for the `duplex` flip and moved
    by `offset`."""
    PrintOptions(paper=paper, duplex=duplex, lang=lang).validate()
    cfg, words = _settings(lang)
    regular, bold = fonts.register()
    page = paper_size(paper)
    begin_page(canvas, page)
    _front(canvas, cfg, words, page, duplex, offset, regular, bold)
    end_page(canvas)
    begin_page(canvas, page)
    for point in targets(page, float(cfg["target_inset_mm"])):
        bx, by = behind(point, page, duplex)
        _grid(canvas, cfg, words, (bx + offset[0], by + offset[1]), regular)
    hint = _centred(page, cfg["back_box"])
    hint_centre = behind((page[0] / 2, hint.y + hint.h / 2), page, duplex)
    hint = Box(hint_centre[0] - hint.w / 2, hint_centre[1] - hint.h / 2, hint.w, hint.h)
    canvas.setFillColor(HexColor(layouts.common()["colours"]["text"]))
    text.draw(
        canvas,
        words["back_title"],
        bold,
        Box(hint.x, hint.y + hint.h / 2, hint.w, hint.h / 2),
        float(cfg["title_pt"]),
        align="center",
    )
    text.draw(
        canvas,
        words["back_text"],
        regular,
        Box(hint.x, hint.y, hint.w, hint.h / 2),
        float(cfg["text_pt"]),
        align="center",
    )
    end_page(canvas)


def render(paper: str, duplex: str, offset: tuple[float, float], lang: Language) -> bytes:
    """The calibration sheet's PDF (`draw` on a document of its own)."""
    canvas, buffer = new_canvas()
    describe(
        canvas,
        "geodeck duplex calibration",
        f"calibration, {paper}, duplex {duplex}, back offset {offset[0]:g},{offset[1]:g}",
    )
    draw(canvas, paper, duplex, offset, lang)
    canvas.save()
    return buffer.getvalue()


def default_output(folder, paper: str, duplex: str, lang: Language):
    """calibration-<paper>-duplex-<mode>-<lang>.pdf in `folder`."""
    return folder / f"calibration-{paper}-duplex-{duplex}-{lang.code}.pdf"
