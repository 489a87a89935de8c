"""The numbers of a user's table column as people write them: plainly (`1234.5`) or as the recipe's language
does (Babel's number parsing, strict: `4.220` and `4,22` in German are 4220 and 4.22; `1 234,5` in French),
a cell an XLSX saved as a number as it is. A column is read one way: where a value reads differently the two
ways (`4.220`: 4220 in German, 4.22 plainly) the column's other values decide, and when they were written
plainly the value is ambiguous and refused with both readings. Every refused value is one line naming its
column, row and item and a fix that works: not a number, ambiguous, a column mixing the two ways, not finite
(`inf`, `nan`, `1e309`) or beyond `LARGEST`, in the language asked for (the catalogues)."""

import math
import re
from dataclasses import dataclass

from babel import Locale
from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal

from pipeline.i18n import registry
from pipeline.i18n.catalogue import N_, N_plural, translate, translate_plural

SHOWN = 5  # a column's refused values named, one line each
LARGEST = 1e15  # the largest value a card prints (times its category's scale): 6 decimals within Decimal's 28 digits
PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
WHOLE = re.compile(r"[+-]?[0-9]+")
BLANKS = re.compile(r"[ \u00a0\u202f]")
MINUS = str.maketrans({"\u2212": "-"})  # the minus sign some programs write
MIXED = N_(
    "column {column} mixes two ways of writing numbers: {one} in {one_row} and {other} in {other_row}; write all "
    "of its numbers one way, plainly (1234.5) or as {language} does ({example})"
)
NOT_FINITE = N_("column {column}: {cell} in {row} is not a finite number; write the item's value")
TOO_LARGE = N_(
    "column {column}: {cell} in {row} is beyond ±{largest} (times the category's scale); write it in a larger "
    "unit (thousands, millions) and say so in the category's unit"
)
MORE = N_plural(
    "column {column}: {n} more value refused like these", "column {column}: {n} more values refused like these"
)
NO_NUMBER = N_(
    "column {column}: {cell} in {row} is no number; write a number without its unit, plainly (1234.5) or as "
    "{language} does ({example})"
)
AMBIGUOUS = N_(
    "column {column}: {cell} in {row} is ambiguous: {local} as {language} writes numbers, {plain} with a decimal "
    "point as the column's other numbers; write {one} or {other}"
)


@dataclass(frozen=True)
class Column:
    values: list[float | None]  # each row's value (None: a refused or empty cell)
    problems: list[str]


def read(cells: list, rows: list[str], locale: Locale, scale: float, column: str, lang: str) -> Column:
    """The values of the column `column` (its `cells`, their `rows` named "row 6 (Bremen)") read as the
    module docstring says, in the recipe's `locale`; `scale` the category's (its values times it are printed);
    its problems in `lang`."""
    plain_votes: list[int] = []
    local_votes: list[int] = []
    readings: list[tuple[float | None, float | None] | float | None] = []
    for n, cell in enumerate(cells):
        if cell is None or isinstance(cell, float):
            readings.append(cell)
            continue
        written = cell.strip().translate(MINUS)
        plain = _plain(written)
        local = _local(written, locale)
        if plain is not None and local is None and re.search(r"[.,]", written):
            plain_votes.append(n)
        elif local is not None and plain is None:
            local_votes.append(n)
        readings.append((plain, local))
    problems: list[str] = []
    if plain_votes and local_votes:
        p, q = plain_votes[0], local_votes[0]
        problems.append(
            translate(
                lang,
                MIXED,
                column=_cell(column),
                one=_cell(cells[p]),
                one_row=rows[p],
                other=_cell(cells[q]),
                other_row=rows[q],
                language=_language(locale, lang),
                example=_example(locale),
            )
        )
        return Column([None] * len(cells), problems)
    values: list[float | None] = []
    for n, reading in enumerate(readings):
        value = _chosen(reading, bool(plain_votes), cells[n], rows[n], column, locale, problems, lang)
        named = {"column": _cell(column), "cell": _cell(cells[n]), "row": rows[n]}
        if value is not None and not math.isfinite(value):
            problems.append(translate(lang, NOT_FINITE, **named))
            value = None
        elif value is not None and abs(value * scale) > LARGEST:
            problems.append(translate(lang, TOO_LARGE, largest=f"{LARGEST:.0e}", **named))
            value = None
        values.append(value)
    if len(problems) > SHOWN:
        problems = [
            *problems[:SHOWN],
            translate_plural(lang, *MORE, len(problems) - SHOWN, column=_cell(column)),
        ]
    return Column(values, problems)


def _chosen(
    reading, plainly: bool, cell, row: str, column: str, locale: Locale, problems: list[str], lang: str
) -> float | None:
    """A cell's value from its readings; a problem (in `lang`) when it has none or two that the column cannot
    decide."""
    if reading is None or isinstance(reading, float):
        return reading
    plain, local = reading
    if plain is None and local is None:
        if cell.strip():
            problems.append(
                translate(
                    lang,
                    NO_NUMBER,
                    column=_cell(column),
                    cell=_cell(cell),
                    row=row,
                    language=_language(locale, lang),
                    example=_example(locale),
                )
            )
        return None
    if plain is None or local is None or plain == local or (math.isnan(plain) and math.isnan(local)):
        return local if plain is None else plain
    if plainly:  # the column writes a decimal point: 4.220 may be 4.22 or, as the language writes it, 4220
        problems.append(
            translate(
                lang,
                AMBIGUOUS,
                column=_cell(column),
                cell=_cell(cell),
                row=row,
                local=f"{local:g}",
                language=_language(locale, lang),
                plain=f"{plain:g}",
                one=_plainly(local),
                other=_plainly(plain),
            )
        )
        return None
    return local


def _plain(written: str) -> float | None:
    compact = BLANKS.sub("", written)
    if PLAIN.fullmatch(compact):
        return float(compact)
    if compact.lower().lstrip("+-") in ("inf", "infinity", "nan"):
        return float(compact)
    return None


def _local(written: str, locale: Locale) -> float | None:
    """The value as `locale` writes numbers (its group separator a blank: any blank), or None."""
    if WHOLE.fullmatch(written):
        return float(written)
    group = get_group_symbol(locale)
    if BLANKS.fullmatch(group):
        written = BLANKS.sub(group, written)
    if not re.fullmatch(r"[+-]?[0-9.,\u00a0\u202f'’]+(?:[eE][+-]?[0-9]+)?", written):
        return None
    try:
        return float(parse_decimal(written, locale=locale, strict=True))
    except (NumberFormatError, ValueError, ArithmeticError):
        return None


def _language(locale: Locale, lang: str) -> str:
    """The name of `locale`'s language as `lang` writes it (CLDR's: "German", "Deutsch", "allemand")."""
    return locale.get_language_name(registry.language(lang).locale) or locale.language


def _example(locale: Locale) -> str:
    return f"1{get_group_symbol(locale)}234{get_decimal_symbol(locale)}5".replace("\u202f", " ").replace("\xa0", " ")


def _plainly(value: float) -> str:
    return f"{value:.15g}"


def _cell(cell) -> str:
    written = repr(cell.strip() if isinstance(cell, str) else cell)
    return written if len(written) <= 40 else written[:37] + "…"
