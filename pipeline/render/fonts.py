"""The embedded TrueType fonts (DejaVu Sans, committed under templates/fonts with its licence)."""

from functools import cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pipeline.paths import TEMPLATES_DIR

REGULAR, BOLD = "DejaVuSans", "DejaVuSans-Bold"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


@cache
def register() -> tuple[str, str]:
    """Register the fonts with reportlab once per process; returns (regular, bold) font names."""
    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(TEMPLATES_DIR / "fonts" / file)))
    return REGULAR, BOLD
