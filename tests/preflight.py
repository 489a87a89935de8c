"""An independent PDF/X-4 preflight, written from the requirements of ISO 15930-7 (PDF/X-4) with pypdf, a
reader that shares no code with what writes the print-shop PDF (reportlab draws it, pikepdf/qpdf finish it);
only the content streams' operators are read with qpdf's parser (`pikepdf.parse_content_stream`, C++; pypdf's
is pure Python and was most of the preflight's time), the streams' bytes being decoded by pypdf.
veraPDF validates PDF/A and PDF/UA, not PDF/X, and Ghostscript has no PDF/X validator.

`findings(pdf)` lists every requirement the file breaks (empty: it passes). Checked: PDF 1.6 or later, not
encrypted; one GTS_PDFX output intent with an embedded CMYK output profile; Info Title, Trapped True/False
and GTS_PDFXVersion; XMP with pdfxid:GTS_PDFXVersion PDF/X-4, dc:title, xmp dates, xmpMM DocumentID,
VersionID and RenditionClass; on every page a TrimBox inside a BleedBox inside the MediaBox; and, stricter
than X-4 (which allows ICC-based RGB and live transparency) as a shop asks: every colour set in DeviceCMYK
(no rg/RG/g/G, no RGB or grey colour space, image or shading), no ExtGState alpha, soft mask or blend mode,
no transparency group; every font embedded; every stroked line at least 0.25 pt wide on the page in its
thinner direction (its width times the smaller scale of the transformation it is drawn with, through forms
too: a flag drawn 3 × 2 is as thin as its 2); black text (100 % K) overprinting (/op true with /OPM 1), as
shops ask. Spot colours (/Separation with a DeviceCMYK alternate: a die-line's CutContour) are allowed;
`spots(pdf)` names them.
"""

import io
import math
import re
from dataclasses import dataclass, replace
from typing import Any

import pikepdf
import pypdf
from pypdf.generic import IndirectObject

XMP_REQUIRED = {  # the property (an element, with attributes, or an attribute) and its value where one is required
    "pdfxid:GTS_PDFXVersion": "PDF/X-4",
    "dc:title": "",
    "xmp:CreateDate": "",
    "xmp:ModifyDate": "",
    "xmpMM:DocumentID": "",
    "xmpMM:VersionID": "",
    "xmpMM:RenditionClass": "",
    "pdf:Trapped": "(?:True|False)",
}
NOT_CMYK_OPERATORS = {b"rg", b"RG", b"g", b"G"}
STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
TEXT = {b"Tj", b"TJ", b"'", b'"'}
THINNEST_PT = 0.25
CMYK_SPACES = {"/DeviceCMYK", "/Pattern"}
READ = " ".join(
    op.decode()
    for op in {b"q", b"Q", b"cm", b"w", b"gs", b"k", b"cs", b"CS", b"Do"} | STROKES | TEXT | NOT_CMYK_OPERATORS
)  # the operators the checks look at (the others, most of a page, are not handed to Python)


def findings(pdf: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    found = _document(reader, pdf)
    seen: dict = {}
    for number, page in enumerate(reader.pages, 1):
        found += [f"page {number}: {f}" for f in _boxes(page)]
        problems, thinnest = _content(page.get_contents(), page.get("/Resources"), seen)
        found += [f"page {number}: {f}" for f in problems]
        if thinnest < THINNEST_PT - 0.005:
            found.append(f"page {number}: a line {thinnest:.3f} pt wide (under {THINNEST_PT} pt)")
        if "/Group" in page:
            found.append(f"page {number}: a transparency group")
    return sorted(set(found))


def thinnest_line(pdf: bytes) -> float:
    """The thinnest stroked line of any page, in points on the page."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    seen: dict = {}
    return min(_content(page.get_contents(), page.get("/Resources"), seen)[1] for page in reader.pages)


def _document(reader, pdf: bytes) -> list[str]:
    found = []
    version = re.match(rb"%PDF-(\d)\.(\d)", pdf)
    if not version or (int(version[1]), int(version[2])) < (1, 6):
        found.append("PDF version below 1.6")
    if reader.is_encrypted:
        found.append("encrypted")
    root = reader.trailer["/Root"]
    intents = [i.get_object() for i in root.get("/OutputIntents", [])]
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        found.append(f"{len(pdfx)} GTS_PDFX output intents (one needed)")
    for intent in pdfx:
        if not intent.get("/OutputConditionIdentifier"):
            found.append("output intent without OutputConditionIdentifier")
        profile = intent.get("/DestOutputProfile")
        data = profile.get_object().get_data() if profile is not None else b""
        if data[12:20] != b"prtrCMYK":
            found.append("output intent without an embedded CMYK output profile")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not info.get(key):
            found.append(f"Info without {key}")
    if info.get("/Trapped") not in ("/True", "/False"):
        found.append("Info /Trapped is not True or False")
    if info.get("/GTS_PDFXVersion") not in (None, "PDF/X-4"):
        found.append("Info GTS_PDFXVersion is not PDF/X-4")
    metadata = root.get("/Metadata")
    xmp = metadata.get_object().get_data().decode("utf-8", "replace") if metadata is not None else ""
    found += [
        f"XMP without {name}"
        for name, value in XMP_REQUIRED.items()
        if not re.search(f'{name}(?:[^>]*>|=")' + value, xmp)
    ]
    return found


def _boxes(page) -> list[str]:
    media = [float(v) for v in page.mediabox]
    if "/TrimBox" not in page and "/ArtBox" not in page:
        return ["no TrimBox"]
    if "/TrimBox" in page and "/ArtBox" in page:
        return ["both TrimBox and ArtBox"]
    trim = [float(v) for v in page["/TrimBox"]]
    bleed = [float(v) for v in page.get("/BleedBox", page.mediabox)]
    found = []
    if not _inside(trim, bleed):
        found.append("TrimBox outside the BleedBox")
    if not _inside(bleed, media):
        found.append("BleedBox outside the MediaBox")
    return found


def _inside(inner: list[float], outer: list[float], tol: float = 0.01) -> bool:
    return (
        inner[0] >= outer[0] - tol
        and inner[1] >= outer[1] - tol
        and inner[2] <= outer[2] + tol
        and inner[3] <= outer[3] + tol
    )


@dataclass
class _State:
    """What the preflight follows through q/Q: the transformation's linear part, the line width, the fill colour
    (DeviceCMYK components, or the colour space's name) and the fill overprint (op, OPM)."""

    matrix: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 1.0)
    width: float = 1.0
    fill: tuple = ()
    overprint: tuple[bool, int] = (False, 0)


def _content(contents, resources, seen: dict, state: _State | None = None) -> tuple[list[str], float]:
    """What breaks the colour, transparency, overprint and font rules in a content stream and the forms it uses,
    and its thinnest stroked line on the page: its width times the smaller of the two scales of the
    transformation it is drawn with (a line drawn with unequal scaling is thinner one way), through forms too
    (a form's problems are reported at its first use)."""
    resources = resources.get_object() if resources is not None else {}
    found = _resources(resources, seen)
    thinnest = math.inf
    if contents is None:
        return found, thinnest
    now, stack = replace(state or _State()), []
    for operands, operator in _operations(contents.get_data()):
        if operator == b"q":
            stack.append(replace(now))
        elif operator == b"Q" and stack:
            now = stack.pop()
        elif operator == b"cm":
            now.matrix = _times(tuple(float(v) for v in operands[:4]), now.matrix)
        elif operator == b"w":
            now.width = float(operands[0])
        elif operator == b"gs":
            gstate = (resources.get("/ExtGState") or {})[str(operands[0])].get_object()
            op, opm = now.overprint
            now.overprint = (bool(gstate.get("/op", op)), int(gstate.get("/OPM", opm)))
        elif operator == b"k":
            now.fill = tuple(float(v) for v in operands)
        elif operator == b"cs":
            now.fill = (_space(resources, str(operands[0])),)
        elif operator in TEXT and now.fill == (0, 0, 0, 1) and now.overprint != (True, 1):
            found.append("black text without overprint (op true, OPM 1)")
        elif operator in STROKES:
            thinnest = min(thinnest, now.width * _thinner(now.matrix))
        elif operator in NOT_CMYK_OPERATORS:
            found.append(f"colour operator {operator.decode()} (not CMYK)")
        if operator in (b"cs", b"CS"):
            space = _space(resources, str(operands[0]))
            if space not in CMYK_SPACES and not _cmyk_separation(resources, str(operands[0])):
                found.append(f"colour space {space}")
        elif operator == b"Do":
            problems, form_thinnest = _xobject(resources, str(operands[0]), seen, now)
            found += problems
            thinnest = min(thinnest, form_thinnest)
    return found, thinnest


def _operations(data: bytes) -> list[tuple[Any, bytes]]:
    """A content stream's (operands, operator) pairs of the operators in READ, parsed by qpdf: numbers as int or
    Decimal, names as pikepdf Names (str() gives "/Name"). The stream lives in a scratch document, kept open
    while it is read."""
    with pikepdf.new() as scratch:
        parsed = pikepdf.parse_content_stream(pikepdf.Stream(scratch, data), READ)
        return [(instruction.operands, instruction.operator.unparse()) for instruction in parsed]


def _xobject(resources, name, seen: dict, state: _State) -> tuple[list[str], float]:
    """(problems, thinnest line on the page) of XObject `name` drawn in `state`; each form's problems are looked
    at once, its lines at every transformation it is drawn with."""
    ref = (resources.get("/XObject") or {})[name]
    xobject = ref.get_object()
    form = ref.idnum if isinstance(ref, IndirectObject) else id(xobject)
    key = ("form", form, state.matrix)
    reported = seen.setdefault("reported forms", set())
    first = form not in reported
    reported.add(form)
    if key in seen:
        return [], seen[key]
    found: list[str] = []
    thinnest = math.inf
    if xobject.get("/Subtype") == "/Form":
        if "/Group" in xobject:
            found.append(f"form {name}: a transparency group")
        matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])[:4])
        problems, thinnest = _content(
            xobject, xobject.get("/Resources"), seen, replace(state, matrix=_times(matrix, state.matrix))
        )
        found += problems
    elif xobject.get("/Subtype") == "/Image":
        if xobject.get("/SMask") is not None:
            found.append(f"image {name}: a soft mask")
        space = _space(resources, xobject.get("/ColorSpace"))
        if space not in CMYK_SPACES:
            found.append(f"image {name}: colour space {space}")
    seen[key] = thinnest
    return found if first else [], thinnest


def _times(m, n) -> tuple[float, float, float, float]:
    """The linear part of PDF's matrix product m × n (m applied first)."""
    a, b, c, d = m
    e, f, g, h = n
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


def _thinner(matrix) -> float:
    """The smaller singular value of a matrix's linear part: how much it scales a line width in the direction
    it shrinks most."""
    a, b, c, d = matrix
    total, det = a * a + b * b + c * c + d * d, abs(a * d - b * c)
    return math.sqrt(max(0.0, (total - math.sqrt(max(0.0, total * total - 4 * det * det))) / 2))


def _cmyk_separation(resources, name) -> bool:
    """Whether colour space `name` is a spot colour (/Separation) with a DeviceCMYK alternate."""
    value = (resources.get("/ColorSpace") or {}).get(name)
    value = value.get_object() if value is not None else None
    return isinstance(value, list) and str(value[0]) == "/Separation" and str(value[2]) == "/DeviceCMYK"


def spots(pdf: bytes) -> set[str]:
    """The names of the spot colours (/Separation colour spaces) the pages' resources and their forms name."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    names = set()
    for page in reader.pages:
        for res in _all_resources(page.get("/Resources")):
            for value in (res.get("/ColorSpace") or {}).values():
                value = value.get_object()
                if isinstance(value, list) and str(value[0]) == "/Separation":
                    names.add(str(value[1]).lstrip("/"))
    return names


def _all_resources(resources):
    """A resource dictionary and those of the forms it names, depth first."""
    resources = resources.get_object() if resources is not None else {}
    yield resources
    for ref in (resources.get("/XObject") or {}).values():
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Form":
            yield from _all_resources(xobject.get("/Resources"))


def _space(resources, name) -> str:
    """A colour space operand as its family name (a resource name resolved; ICCBased with its channels)."""
    value = (resources.get("/ColorSpace") or {}).get(name, name)
    value = value.get_object() if value is not None else value
    if isinstance(value, list):
        family = str(value[0])
        return f"{family} N={value[1].get_object().get('/N')}" if family == "/ICCBased" else family
    return str(value)


def _resources(resources, seen: dict) -> list[str]:
    found = []
    for name, ref in (resources.get("/ExtGState") or {}).items():
        state = ref.get_object()
        for key in ("/ca", "/CA"):
            if key in state and float(state[key]) != 1:
                found.append(f"ExtGState {name}: alpha {key} {state[key]}")
        if state.get("/SMask") not in (None, "/None"):
            found.append(f"ExtGState {name}: a soft mask")
        if state.get("/BM") not in (None, "/Normal", "/Compatible"):
            found.append(f"ExtGState {name}: blend mode {state['/BM']}")
    for name, ref in (resources.get("/Shading") or {}).items():
        space = _space(resources, ref.get_object().get("/ColorSpace"))
        if space not in CMYK_SPACES:
            found.append(f"shading {name}: colour space {space}")
    for name, ref in (resources.get("/Font") or {}).items():
        font_key = ("font", ref.idnum if isinstance(ref, IndirectObject) else id(ref))
        if font_key in seen:
            continue
        seen[font_key] = True
        if not _embedded(ref.get_object()):
            found.append(f"font {name} ({ref.get_object().get('/BaseFont')}) not embedded")
    return found


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    if font.get("/Subtype") == "/Type3":
        return True
    descriptor = font.get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
