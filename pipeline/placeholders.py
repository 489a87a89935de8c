"""One placeholder language for every string that comes from data (a unit, a catalogue's message, a template's
words, a recipe's words): `{name}`, a named field the string's slot declares, and `{{`/`}}` for a brace.
Nothing else: no positional `{0}` or `{}`, no attribute or index access (`{n.__class__}`, `{n[0]}`), no format
spec (`{n:>99999999}`), no unknown field; a conversion (`{answer!r}`, the value's repr) is all a field may
add. A string is checked where it is read (`check`, `problem`: one line naming it and the fields it may use)
and filled by one restricted formatter (`fill`), so a string that slipped past a reader is still never more
than text with named values in it."""

import string
from collections.abc import Iterable, Mapping
from typing import Any

from pipeline.errors import GeodeckError
from pipeline.text import shown

CONVERSIONS = (None, "r", "s", "a")  # str.format's own: the value's repr, str or ascii
SHOWN = 60  # characters of a bad string quoted in an error


class Invalid(ValueError):
    """Why a string is not in the placeholder language (one sentence)."""


class Formatter(string.Formatter):
    """`str.format` restricted to named fields given as keywords: no positional fields, attribute or index
    access or format specs (each an `Invalid`)."""

    def get_field(self, field_name: str, args: Any, kwargs: Mapping[str, Any]) -> tuple[Any, str]:
        if not field_name.isidentifier():
            raise Invalid(_not_named(field_name))
        if field_name not in kwargs:
            raise Invalid(f"{{{field_name}}} is not a field it may use")
        return kwargs[field_name], field_name

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec:
            raise Invalid("a placeholder takes no format spec (write {name} alone)")
        return str(value)


FORMATTER = Formatter()


def _not_named(field: str) -> str:
    if not field or field.isdigit():
        return "a placeholder is a name in braces such as {n}, not {" + field + "}"
    return f"{{{quoted(field)}}} is not a plain name (no attribute, index or spec)"


def quoted(text: str) -> str:
    """`text` escaped and cut to `SHOWN` characters, to quote in an error line."""
    text = shown(text).replace("\n", "\\n")
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def fields(template: str) -> list[str]:
    """The fields `template` names, in order (repeats included); `Invalid` when it is not in the language."""
    if "{" not in template and "}" not in template:
        return []  # most words: nothing to parse
    try:
        parts = list(FORMATTER.parse(template))
    except ValueError as exc:  # a single { or }
        raise Invalid(f"its braces are no placeholders ({exc}); write {{{{ or }}}} for a brace") from None
    out = []
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not field.isidentifier():
            raise Invalid(_not_named(field))
        if conversion not in CONVERSIONS:
            raise Invalid(f"{{{field}!{quoted(conversion)}}} is no conversion: !r, !s or !a")
        if spec:
            raise Invalid(f"a placeholder takes no format spec ({{{field}:{quoted(spec)}}})")
        out.append(field)
    return out


def problem(template: str, allowed: Iterable[str], once: Iterable[str] = ()) -> str | None:
    """Why `template` is not a string of a slot whose fields are `allowed` (each of `once` exactly once), or
    None."""
    allowed = tuple(allowed)
    try:
        named = fields(template)
    except Invalid as exc:
        return str(exc)
    unknown = [name for name in named if name not in allowed]
    if unknown:
        return f"{{{unknown[0]}}} is not a field it may use"
    missing = [name for name in once if named.count(name) != 1]
    if missing:
        return f"it needs {{{missing[0]}}} exactly once (it has it {named.count(missing[0])} times)"
    return None


def allowing(allowed: Iterable[str]) -> str:
    """The fields a slot allows, as an error names them: "{n}" or "no field"."""
    names = [f"{{{name}}}" for name in allowed]
    return ", ".join(names) if names else "no field"


def check(template: str, allowed: Iterable[str], what: str, once: Iterable[str] = ()) -> str:
    """`template` itself, or one GeodeckError naming `what`, why and the fields it may use."""
    allowed = tuple(allowed)
    why = problem(template, allowed, once)
    if why is not None:
        raise GeodeckError(f"{what} {quoted(template)!r}: {why}; it may use {allowing(allowed)}, a brace is {{{{ }}}}")
    return template


def fill(template: str, **values: Any) -> str:
    """`template` with its named fields filled from `values` (each as `str`); a string outside the language,
    or naming a field not given, is one GeodeckError quoting it."""
    try:
        return FORMATTER.vformat(template, (), values)
    except (Invalid, ValueError) as exc:
        raise GeodeckError(
            f"the words {quoted(template)!r} cannot be filled: {exc}; they may use {allowing(values)}"
        ) from None
