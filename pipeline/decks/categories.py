"""A category declared once: one `[[categories]]` table, the same in a deck recipe (docs/recipes.md) and in a
built-in deck spec (templates/decks/<game>.toml), read here into a `Category`. From it come the deck
spec's card field (`field_entry`: column, precision, range, diff threshold) and the card layout's row
(`layout_row`: pictogram, number pattern, words), which the cards, strips, scoring sheet, terminal and engine
read.

    field       the card field (in a recipe: also the numeric column it comes from)
    column      the master-table column it comes from (default: field)
    direction   higher | lower: which end wins above
    pattern     a Babel number pattern ("#,##0.0"; "as-deck": the deck's decimals)
    icon        a pictogram of pipeline/render/pictograms.py
    words       {label, unit ("{n} km²")}: the one place a category's words are declared; the cards, the strips
                and the rules all print this label, and the strip its unit without the number (`unit_word`).
                An older recipe's `strip` (two words) is read and ignored (docs/recipes.md).
    decimals, sig_below, sig_digits, scale   the card's precision (default: the column's in pipeline/fields.toml)
    threshold_rel | threshold_abs            a diff changing a value by more is suspicious (default: 15 %)
    description                              the field's description in the deck's datapackage.json
"""

import difflib
from dataclasses import dataclass

from babel.numbers import NumberPattern, format_decimal, parse_pattern

from pipeline import placeholders, text
from pipeline.errors import GeodeckError
from pipeline.fields import fields as field_table
from pipeline.i18n.catalogue import N_, translate

DIRECTIONS = ("higher", "lower")  # which end of a category wins "above" (the trick game) or a comparison
UNIT = ("n",)  # the one field of a unit ("{n} km²"), exactly once (pipeline/placeholders.py)
TINY = 1e-12  # the least a scale, a share or a threshold may be (they are positive)
THRESHOLD_REL = 0.15  # a refreshed value changing by more than this is suspicious, unless the category says
PATTERN = (40, 6, 15)  # a number pattern's most characters, decimals and integer digits
KEYS = {
    "field",
    "column",
    "direction",
    "pattern",
    "icon",
    "words",
    "decimals",
    "sig_below",
    "sig_digits",
    "scale",
    "threshold_rel",
    "threshold_abs",
    "description",
}

# A category's problems, in the recipe's language (a deck's categories: English); the keys stay as written
UNKNOWN_KEY = N_("{key}: no such key; use {keys}")
UNKNOWN_MEANT = N_("{key}: no such key (did you mean {meant}?); use {keys}")
DIRECTION = N_("{key} {value}: higher or lower (which end wins above)")
ICON = N_("{key} {value}: one of {icons}")
NUMBER = N_("{key} {value}: {fix}")
DECIMALS = N_("the decimals a card prints, 0-6")
SIG_DIGITS = N_("significant digits, 1-6")
POSITIVE = N_("a positive number")
SHARE = N_("a share, e.g. 0.15")
IN_UNIT = N_("in the field's unit")
SCALE = N_("a positive number, e.g. 1e-6 for millions")
TEXTS = N_("{key} and .description: texts (the source column, the field's description)")
WORDS = N_("{key}: give {example}")
NO_STRIP = N_("{key}: leave it out (the strip prints the label and the unit)")


@dataclass(frozen=True)
class Category:
    field: str  # the card field: a numeric column of the country table, or of the user's table
    direction: str
    pattern: str  # a Babel number pattern, "#,##0.0"
    icon: str
    label: str
    unit: str  # a template: "{n} km²", "US${n}"
    decimals: int | None = None  # the card's decimals (default: the field's card precision, or the table's values)
    scale: float = 1.0  # the card's value is the field's times this (1e-6: inhabitants in millions)
    column: str = ""  # the column the value comes from (default: field)
    sig_below: float | None = None  # below this value the card keeps sig_digits significant digits
    sig_digits: int | None = None
    threshold_rel: float | None = None
    threshold_abs: float | None = None
    description: str | None = None

    @property
    def source(self) -> str:
        return self.column or self.field


def parse(
    entry: dict, where: str, problems: list[str], icons: tuple[str, ...] = (), lang: str = "en"
) -> Category | None:
    """The category of one `[[categories]]` table (`where`: its key, "categories[2]"); each problem one line
    naming its key and the fix, appended to `problems` (None when it cannot be read). `icons`: the pictograms
    its icon must be one of (the renderer's; the deck stage, which draws nothing, checks none); `lang`: the
    problems' language."""
    name = entry.get("field")
    if not isinstance(name, str) or not name:
        return None
    direction = entry.get("direction", "higher")
    if direction not in DIRECTIONS:
        problems.append(translate(lang, DIRECTION, key=f"{where}.direction", value=shown(direction)))
    icon = entry.get("icon", "bars")
    if icons and icon not in icons:
        problems.append(translate(lang, ICON, key=f"{where}.icon", value=shown(icon), icons=", ".join(icons)))
    printed = _printed(entry, where, problems, lang)
    if printed is None:
        return None
    label, unit, pattern = printed
    for key in sorted(set(entry) - KEYS, key=str):
        close = difflib.get_close_matches(str(key), sorted(KEYS), n=1, cutoff=0.6)
        said = {"key": f"{where}.{key_shown(key)}", "keys": ", ".join(sorted(KEYS))}
        problems.append(
            translate(lang, UNKNOWN_MEANT if close else UNKNOWN_KEY, meant=repr(close[0]) if close else "", **said)
        )

    def number(key: str, kind: type, low: float, high: float, fix: str):
        return _number(entry, key, where, problems, kind, low, high, translate(lang, fix), lang)

    numbers = {
        "decimals": number("decimals", int, 0, 6, DECIMALS),
        "sig_digits": number("sig_digits", int, 1, 6, SIG_DIGITS),
        "sig_below": number("sig_below", float, TINY, 1e12, POSITIVE),
        "threshold_rel": number("threshold_rel", float, TINY, 100, SHARE),
        "threshold_abs": number("threshold_abs", float, TINY, 1e12, IN_UNIT),
    }
    scale = number("scale", float, TINY, 1e9, SCALE)
    column, description = entry.get("column", ""), entry.get("description")
    if not isinstance(column, str) or not isinstance(description, (str, type(None))):
        problems.append(translate(lang, TEXTS, key=f"{where}.column"))
        column, description = "", None
    return Category(
        name,
        direction,
        pattern,
        icon,
        label,
        unit,
        scale=1.0 if scale is None else scale,
        column=column,
        description=description,
        **numbers,
    )


def _printed(entry: dict, where: str, problems: list[str], lang: str = "en") -> tuple[str, str, str] | None:
    """(label, unit, number pattern) a category prints; None, with its problem appended to `problems`, when one
    cannot be read. An older recipe's `words.strip` is checked for its form and otherwise ignored: the strip
    prints the label and `unit_word`."""
    words = entry.get("words")
    if not isinstance(words, dict) or not isinstance(words.get("label"), str) or not words["label"].strip():
        problems.append(translate(lang, WORDS, key=f"{where}.words", example='{label = "Area", unit = "{n} km²"}'))
        return None
    unit, pattern = words.get("unit"), entry.get("pattern", "#,##0.##")
    why = placeholders.problem(unit, UNIT, once=UNIT) if isinstance(unit, str) else "not a text"
    if why or not isinstance(unit, str):
        problems.append(
            f"{where}.words.unit {shown(placeholders.quoted(str(unit)))}: {why}; the value with its unit, {{n}} "
            'once where the number goes ("{n} km²", "US${n}", "{n} Kreise"), no other field'
        )
        return None
    if isinstance(pattern, str) and pattern != "as-deck" and (wrong := pattern_problem(pattern)):
        problems.append(f'{where}.pattern {shown(pattern)}: {wrong}; write a number pattern such as "#,##0.0"')
        return None
    if not isinstance(pattern, str):
        problems.append(f'{where}.pattern {shown(pattern)}: a number pattern such as "#,##0.0" (text)')
        return None
    strip = words.get("strip", ["", ""])
    if not (isinstance(strip, list) and len(strip) == 2 and all(isinstance(w, str) for w in strip)):
        problems.append(translate(lang, NO_STRIP, key=f"{where}.words.strip"))
        return None
    return words["label"], unit, pattern


def unit_word(unit: str) -> str:
    """The unit a strip prints under a category's label: its unit without the number ("{n} km²": "km²")."""
    return placeholders.fill(unit, n="").strip()


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` is not a number pattern a card can print (Babel's; at most `PATTERN`'s characters,
    decimals and integer digits), or None."""
    most, decimals, digits = PATTERN
    if len(pattern) > most:
        return f"{len(pattern)} characters, at most {most}"
    try:
        parsed: NumberPattern = parse_pattern(pattern)
    except (ValueError, TypeError) as exc:
        return f"not a number pattern ({str(exc)[:80]})"
    if parsed.frac_prec[1] > decimals:
        return f"{parsed.frac_prec[1]} decimals, at most {decimals}"
    if parsed.int_prec[0] > digits:
        return f"{parsed.int_prec[0]} integer digits, at most {digits}"
    if parsed.int_prec[1] < 1:
        return "no digit (0 or #) where the number goes"
    try:
        format_decimal(-1234.5, pattern, locale="en")
    except (ValueError, TypeError, ArithmeticError, KeyError) as exc:
        return f"not a number pattern ({str(exc)[:80]})"
    return None


def key_shown(key: object, longest: int = 80) -> str:
    """A key from data in a message: escaped, cut to `longest` characters."""
    written = text.place(str(key))
    return written if len(written) <= longest else written[: longest - 1] + "…"


def shown(value: object) -> str:
    """A value in a message: its repr (control characters escaped), cut to 60 characters."""
    written = repr(value)
    return written if len(written) <= 60 else written[:57] + "…"


def _number(
    entry: dict,
    key: str,
    where: str,
    problems: list[str],
    kind: type,
    low: float,
    high: float,
    fix: str,
    lang: str = "en",
):
    """The number `key` of a category as written (None if absent); out of [low, high] or not a `kind` a problem."""
    value = entry.get(key)
    if value is None:
        return None
    number = isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(value, (int, kind))
    if not number or not low <= float(value) <= high:
        problems.append(translate(lang, NUMBER, key=f"{where}.{key}", value=shown(value), fix=fix))
        return None
    return value


def declared(value, source: str, icons: tuple[str, ...] = ()) -> list[Category]:
    """The categories a deck spec declares (`[[categories]]`, none if absent); a bad one is a user error
    naming the file and every problem."""
    if value is None:
        return []
    problems: list[str] = []
    found = []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        value, problems = [], ["[[categories]]: one table per category (docs/recipes.md)"]
    for n, entry in enumerate(value, 1):
        if not isinstance(entry.get("field"), str) or not entry["field"]:
            problems.append(f"categories[{n}].field is missing; name the card field")
        elif (category := parse(entry, f"categories[{n}]", problems, icons)) is not None:
            found.append(category)
    if problems:
        raise GeodeckError(f"{source}: " + f"\nerror: {source}: ".join(problems))
    return found


def field_entry(category: Category, column: str | None = None, decimals: int | None = None) -> dict:
    """The deck spec's `[fields.<field>]` entry of a category: its column, precision, threshold (its range is its
    column's in pipeline/fields.toml: `with_range`); an integer where the card keeps no decimals. `column` and
    `decimals` for a user's table: its column's card field and the decimals its values keep unless the category
    says."""
    entry: dict = {"type": "number", "category": True, "column": column or category.source}
    if category.description:
        entry["description"] = category.description
    rounding = {
        key: value
        for key, value in {
            "decimals": decimals if category.decimals is None else category.decimals,
            "sig_below": category.sig_below,
            "sig_digits": category.sig_digits,
        }.items()
        if value is not None
    }
    if category.scale != 1.0:
        entry["scale"] = category.scale
    entry |= rounding
    if category.threshold_abs is not None:
        entry["threshold_abs"] = category.threshold_abs
    else:
        entry["threshold_rel"] = category.threshold_rel or THRESHOLD_REL
    known = field_table().get(entry["column"])
    precision = rounding or (known.card if known else {})
    if precision.get("step") or (precision.get("decimals") == 0 and precision.get("sig_below") is None):
        entry["type"] = "integer"
    return entry


def layout_row(category: Category, card_field: str | None = None) -> dict:
    """The card layout's row of a category (cards, strips, scoring sheet, terminal): its card field,
    pictogram, number pattern, direction and words."""
    return {
        "field": card_field or category.field,
        "icon": category.icon,
        "pattern": category.pattern,
        "direction": category.direction,
        "words": {"label": category.label, "unit": category.unit},
    }
