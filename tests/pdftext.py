"""The text of a PDF's pages, read with PDFium (pypdfium2, which pdfplumber itself depends on): the words a
reader copies from each page (`pages`), characters not upright (`turned`), each character's size, font, place,
ink and the fill under it (`chars`, as pdfminer reads them) and a map's labels with their sizes (`runs`).
About 100 times faster than pdfminer on pages full of vector drawings (maps, flags); tests that need lines,
rectangles or word grouping keep pdfplumber."""

import ctypes
import io
import math
from dataclasses import dataclass
from typing import NamedTuple

import pypdfium2 as pdfium
import pypdfium2.raw as raw


def pages(data: bytes) -> list[str]:
    """Each page's text, in page order."""
    doc = pdfium.PdfDocument(data)
    try:
        return [page.get_textpage().get_text_bounded() for page in doc]
    finally:
        doc.close()


def page_size(data: bytes, page: int = 0) -> tuple[float, float]:
    """A page's width and height in points."""
    doc = pdfium.PdfDocument(data)
    try:
        return doc[page].get_size()
    finally:
        doc.close()


def words(text: str) -> str:
    """The text with every run of white space one space (line breaks fall where the layout put them)."""
    return " ".join(text.split())


def turned(data: bytes) -> list[str]:
    """Each page's characters that are not upright (set at an angle, e.g. running up a seam), in text order."""
    doc = pdfium.PdfDocument(data)
    try:
        out = []
        for page in doc:
            text = page.get_textpage()
            chars = range(text.count_chars())
            out.append(
                "".join(text.get_text_range(i, 1) for i in chars if abs(raw.FPDFText_GetCharAngle(text.raw, i)) > 1e-3)
            )
        return out
    finally:
        doc.close()


RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Char:
    """A character a reader sees (white space left out), as pdfminer reads it: its size in points on the page,
    its ink and the colour of the last filled shape drawn before it under its centre (white where none is),
    its font and where it stands."""

    page: int
    text: str
    size: float
    ink: RGB
    under: RGB
    font: str  # e.g. DejaVuSans-Bold
    x0: float  # its box's left and top edges, in points from the page's left and top (as pdfplumber's)
    top: float


def chars(data: bytes) -> list[Char]:
    """Every page's characters that are not white space, in text order."""
    doc = pdfium.PdfDocument(data)
    try:
        return [char for number, page in enumerate(doc) for char in _page_chars(number, page)]
    finally:
        doc.close()


def _page_chars(number: int, page) -> list[Char]:
    text = page.get_textpage()
    fills: list[_Fill] = []
    before: dict[int | None, int] = {}  # a text object -> how many fills were drawn before it
    _walk(page.raw, raw.FPDFPage_CountObjects, raw.FPDFPage_GetObject, _IDENTITY, fills, before)
    found = []
    for i in range(text.count_chars()):
        letter = chr(raw.FPDFText_GetUnicode(text.raw, i))
        if not letter.strip():
            continue
        box = raw.FS_RECTF()
        raw.FPDFText_GetLooseCharBox(text.raw, i, box)
        x, y = (box.left + box.right) / 2, (box.top + box.bottom) / 2
        drawn = before.get(ctypes.cast(raw.FPDFText_GetTextObject(text.raw, i), ctypes.c_void_p).value, len(fills))
        under = next((f.colour for f in reversed(fills[:drawn]) if f.covers(x, y)), WHITE)
        name = ctypes.create_string_buffer(128)
        raw.FPDFText_GetFontInfo(text.raw, i, name, len(name), None)
        font = name.value.decode("utf-8", "replace")
        top = page.get_height() - box.top
        found.append(Char(number, letter, _size(text, i), _text_ink(text, i), under, font, box.left, top))
    return found


class _Fill:
    """A filled path: its colour, and (read only when a character's centre falls in its bounds) the boxes of
    its subpaths through their end points, as pdfminer splits and bounds a path."""

    def __init__(self, obj, matrix: tuple, colour: RGB):
        self.obj, self.matrix, self.colour = obj, matrix, colour
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        corners = [_apply(self.matrix, x, y) for x in (left.value, right.value) for y in (bottom.value, top.value)]
        self.bounds = _box(corners)
        self._boxes: list[tuple[float, float, float, float]] | None = None

    def covers(self, x: float, y: float) -> bool:
        if not _inside(self.bounds, x, y, 0.5):
            return False
        if self._boxes is None:
            self._boxes = self._subpaths()
        return any(_inside(box, x, y) for box in self._boxes)

    def _subpaths(self) -> list[tuple[float, float, float, float]]:
        own = raw.FS_MATRIX()
        raw.FPDFPageObj_GetMatrix(self.obj, own)
        matrix = _times((own.a, own.b, own.c, own.d, own.e, own.f), self.matrix)
        paths: list[list[tuple[float, float]]] = []
        controls = 0
        x, y = ctypes.c_float(), ctypes.c_float()
        for i in range(raw.FPDFPath_CountSegments(self.obj)):
            segment = raw.FPDFPath_GetPathSegment(self.obj, i)
            kind = raw.FPDFPathSegment_GetType(segment)
            if kind == raw.FPDF_SEGMENT_BEZIERTO:
                controls = (controls + 1) % 3
                if controls:  # a control point: pdfminer bounds a curve by its end points
                    continue
            raw.FPDFPathSegment_GetPoint(segment, x, y)
            if kind == raw.FPDF_SEGMENT_MOVETO or not paths:
                paths.append([])
            paths[-1].append(_apply(matrix, x.value, y.value))
        return [_box(points) for points in paths]


def _walk(parent, count, get, matrix: tuple, fills: list[_Fill], before: dict) -> None:
    """The page's (or a form's) objects in the order they are drawn, forms entered with their matrices."""
    for i in range(count(parent)):
        obj = get(parent, i)
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM:
            own = raw.FS_MATRIX()
            raw.FPDFPageObj_GetMatrix(obj, own)
            inner = _times((own.a, own.b, own.c, own.d, own.e, own.f), matrix)
            _walk(obj, raw.FPDFFormObj_CountObjects, raw.FPDFFormObj_GetObject, inner, fills, before)
        elif kind == raw.FPDF_PAGEOBJ_TEXT:
            before[ctypes.cast(obj, ctypes.c_void_p).value] = len(fills)
        elif kind == raw.FPDF_PAGEOBJ_PATH:
            mode, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj, mode, stroke)
            colour = _object_ink(obj)
            if mode.value != raw.FPDF_FILLMODE_NONE and colour is not None:
                fills.append(_Fill(obj, matrix, colour))


def _object_ink(obj) -> RGB | None:
    rgba = [ctypes.c_uint() for _ in range(4)]
    if not raw.FPDFPageObj_GetFillColor(obj, *rgba):
        return None
    return (rgba[0].value / 255, rgba[1].value / 255, rgba[2].value / 255)


def _text_ink(text, i: int) -> RGB:
    rgba = [ctypes.c_uint() for _ in range(4)]
    raw.FPDFText_GetFillColor(text.raw, i, *rgba)
    return (rgba[0].value / 255, rgba[1].value / 255, rgba[2].value / 255)


def _times(inner: tuple, outer: tuple) -> tuple:
    """The matrix that applies `inner`, then `outer` (PDF's a b c d e f)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _box(points) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _inside(box: tuple, x: float, y: float, slack: float = 0.0) -> bool:
    return box[0] - slack <= x <= box[2] + slack and box[1] - slack <= y <= box[3] + slack


class Run(NamedTuple):
    """A string as drawn, its size in points on the page and the box of its characters (PDFium's loose boxes,
    from the font's ascent to its descent): x0, top, x1, bottom in points from the page's left and top, as
    pdfplumber's."""

    text: str
    size: float
    box: tuple[float, float, float, float] = (math.inf, math.inf, -math.inf, -math.inf)


def runs(data: bytes, page: int = 0) -> list[Run]:
    """The strings as drawn on a page: the characters of each text object, split where a line ends (a map's
    labels, which a reader's word grouping splits where they sit close above one another); a label's halo (a
    stroked copy under it) counts once."""
    doc = pdfium.PdfDocument(data)
    try:
        height = doc[page].get_height()
        text = doc[page].get_textpage()
        found: dict[tuple, Run] = {}  # (text object, baseline, first origin) -> its characters
        key = None
        for i in range(text.count_chars()):
            if raw.FPDFText_IsGenerated(text.raw, i):  # a space or line break PDFium adds between words
                continue
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(text.raw, i, x, y)
            obj = ctypes.cast(raw.FPDFText_GetTextObject(text.raw, i), ctypes.c_void_p).value
            letter = chr(raw.FPDFText_GetUnicode(text.raw, i))
            if key is None or key[:2] != (obj, round(y.value, 2)):
                key = (obj, round(y.value, 2), round(x.value, 2))
                found[key] = Run("", _size(text, i))
            box, (x0, top, x1, bottom) = raw.FS_RECTF(), found[key].box
            raw.FPDFText_GetLooseCharBox(text.raw, i, box)
            joined = (
                min(x0, box.left),
                min(top, height - box.top),
                max(x1, box.right),
                max(bottom, height - box.bottom),
            )
            found[key] = found[key]._replace(text=found[key].text + letter, box=joined)
    finally:
        doc.close()
    unique = {(k[1], k[2], run.text): run for k, run in found.items()}  # a halo: the same string at the same place
    return list(unique.values())


def _size(text, i: int) -> float:
    """A character's size in points on the page: its font size through its matrix's scale."""
    matrix = raw.FS_MATRIX()
    raw.FPDFText_GetMatrix(text.raw, i, matrix)
    return raw.FPDFText_GetFontSize(text.raw, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5


def links(data: bytes) -> list[str]:
    """The PDF's link annotations (a page's `/Link`, or any with an action), as pikepdf reads its objects: a
    search of the file's bytes would also find "/URI" inside a compressed image."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [
            str(annotation.get("/A", annotation.get("/Subtype")))
            for page in pdf.pages
            for annotation in page.obj.get("/Annots", [])
            if annotation.get("/Subtype") == "/Link" or "/A" in annotation
        ]
