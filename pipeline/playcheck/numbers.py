"""A play-check report's figures in a language's locale (babel): Python's formats pick the digits (`.3f`, `g`,
`,`) and the locale writes them, so the source language's report reads as it always has."""

import math
from dataclasses import astuple
from decimal import Decimal

from babel.numbers import format_decimal

from pipeline.i18n import registry
from pipeline.i18n.language import Language


def _locale(value: Decimal, pattern: str, lang: Language) -> str:
    locale = lang.locale
    return format_decimal(value, format=pattern, locale=locale, group_separator=registry.grouped(value, locale))


def fixed(value: float, lang: Language, places: int = 3) -> str:
    """`value` with `places` decimals (0.512, German 0,512); an infinite bound as Python writes it (inf)."""
    if not math.isfinite(value):
        return f"{value:.{places}f}"
    return _locale(Decimal(f"{value:.{places}f}"), "0." + "0" * places if places else "0", lang)


def short(value: float, lang: Language) -> str:
    """`value` in its fewest digits, as Python's `g` picks them (0.0125, 1.5, 1000)."""
    digits = f"{value:g}"
    if not math.isfinite(value) or "e" in digits:
        return digits
    return _locale(Decimal(digits), "0.##########", lang)


def plain(value: float, lang: Language) -> str:
    """`value` with the digits `str` gives it (0.512, 1.0, 12)."""
    if isinstance(value, int) or not math.isfinite(value):
        return str(value)
    digits = Decimal(repr(value))
    places = max(0, -int(digits.as_tuple().exponent))
    return _locale(digits, "0." + "0" * places if places else "0", lang)


def count(value: int, lang: Language) -> str:
    """A whole number with the locale's grouping (1,234; German 1.234)."""
    return _locale(Decimal(value), "#,##0", lang)


def interval(data, lang: Language) -> str:
    """A figure and its 95 % interval (a report's dict or a stats.Interval): 0.512 [0.490, 0.534]."""
    value, low, high = (data["value"], data["low"], data["high"]) if isinstance(data, dict) else astuple(data)
    return f"{fixed(value, lang)} [{fixed(low, lang)}, {fixed(high, lang)}]"
