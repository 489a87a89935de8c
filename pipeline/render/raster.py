"""PDF pages as PNG images, rendered with pypdfium2 (no system package needed): the README's previews and the
review page's card images. The same PDF gives the same PNG bytes."""

import io

import pypdfium2


def png(pdf: bytes, page: int, dpi: int, crop_mm: float = 0.0) -> bytes:
    """Page `page` (0-based) of `pdf` at `dpi`, `crop_mm` cut off every edge (e.g. a one-up page's bleed)."""
    return pngs(pdf, [page], dpi, crop_mm)[0]


def pngs(pdf: bytes, pages: list[int], dpi: int, crop_mm: float = 0.0, quick: bool = False) -> list[bytes]:
    """Several pages of one PDF, opened once; `quick`: zlib's fastest level instead of the smallest file (a fifth
    of the time: the studio's previews)."""
    document = pypdfium2.PdfDocument(pdf)
    crop = crop_mm / 25.4 * 72
    images = []
    try:
        for page in pages:
            image = document[page].render(scale=dpi / 72, crop=(crop, crop, crop, crop)).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", **({"compress_level": 1} if quick else {"optimize": True}))
            images.append(buffer.getvalue())
    finally:
        document.close()
    return images
