"""Text contrast as WCAG 2 defines it (relative luminance of sRGB colours), and the ink that reads best on a
background: every text a card prints must reach MIN_RATIO against what it is printed on."""

from collections.abc import Iterable, Sequence

from reportlab.lib.colors import Color

MIN_RATIO = 4.5  # WCAG AA for body text


def luminance(colour: Color) -> float:
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)


def ratio(a: Color, b: Color) -> float:
    """The contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def best_ink(backgrounds: Iterable[Color], inks: Sequence[Color]) -> Color:
    """Of `inks` (in order of preference), the first that reaches MIN_RATIO on every background, else the one
    with the best worst-case contrast."""
    backgrounds = list(backgrounds)

    def worst(ink: Color) -> float:
        return min(ratio(ink, b) for b in backgrounds)

    return next((ink for ink in inks if worst(ink) >= MIN_RATIO), max(inks, key=worst))
