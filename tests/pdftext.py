"""The text of a PDF's pages, read with PDFium (pypdfium2, which pdfplumber itself depends on): the words a
reader copies from each page, lines separated by line breaks. About 100 times faster than pdfminer on pages
full of vector drawings (maps, flags), so tests that need only the words use it; tests that need a word's
position, size or colour keep pdfplumber."""

import pypdfium2 as pdfium


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
