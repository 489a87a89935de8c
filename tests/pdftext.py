"""The text of a PDF's pages, read with PDFium (pypdfium2, which pdfplumber itself depends on): the words a
reader copies from each page, lines separated by line breaks. About 100 times faster than pdfminer on pages
full of vector drawings (maps, flags), so tests that need only the words use it; tests that need a word's
position, size or colour keep pdfplumber."""

import pypdfium2 as pdfium
import pypdfium2.raw as raw


def pages(data: bytes) -> list[str]:
    """Each page's text, in page order."""
    doc = pdfium.PdfDocument(data)
    try:
        return [page.get_textpage().get_text_bounded() for page in doc]
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
