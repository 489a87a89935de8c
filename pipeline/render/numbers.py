"""Numbers as the cards print them, per language (its locale), with babel (never hand-rolled
separators)."""

from decimal import Decimal

from babel.numbers import format_decimal

from pipeline import placeholders
from pipeline.i18n import registry
from pipeline.i18n.language import Language

DASH = "–"
MINUS = "\u2212"  # the typographic minus sign, not the hyphen babel writes
AS_DECK = "as-deck"  # pattern keyword: the deck's own precision (an int is whole, a float keeps its decimals)


def number(value: float | int | Decimal | None, lang: Language, pattern: str = "#,##0") -> str:
    """`value` with the language's grouping and decimal signs and a typographic minus (−49,4); `None` prints
    as a dash.

    With the pattern AS_DECK the deck's precision is kept: 446550 → "446.550", 0.44 → "0,44", 2.0 → "2,0". A
    number of four digits has no group separator where CLDR's minimum grouping says so (es, it, pl: 2110).
    """
    if value is None:
        return DASH
    if pattern == AS_DECK:
        value = Decimal(repr(value)) if isinstance(value, float) else value
        places = -int(value.as_tuple().exponent) if isinstance(value, Decimal) else 0
        pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
    grouping = registry.grouped(value, lang.locale)  # CLDR's minimum grouping: Polish 2110 m, 12 110 km²
    return format_decimal(value, format=pattern, locale=lang.locale, group_separator=grouping).replace("-", MINUS)


def with_unit(value: float | int | None, lang: Language, pattern: str, template: str) -> str:
    """`template` with `{n}` filled with the formatted number, e.g. "{n} km²"; a missing value is a dash."""
    if value is None:
        return DASH
    return placeholders.fill(template, n=number(value, lang, pattern))
