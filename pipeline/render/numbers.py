"""Numbers as the cards print them, per language, with babel (never hand-rolled separators)."""

from babel.numbers import format_decimal

LOCALES = {"de": "de_DE", "en": "en_US"}
DASH = "–"


def number(value: float | int | None, lang: str, pattern: str = "#,##0") -> str:
    """`value` with the language's grouping and decimal signs; `None` prints as a dash."""
    if value is None:
        return DASH
    return format_decimal(value, format=pattern, locale=LOCALES[lang])


def with_unit(value: float | int | None, lang: str, pattern: str, template: str) -> str:
    """`template` with `{n}` replaced by the formatted number, e.g. "{n} km²"; a missing value is a dash."""
    if value is None:
        return DASH
    return template.replace("{n}", number(value, lang, pattern))
