"""Gettext catalogue files, read with Babel through the guarded reader (`readers`, kind "po"), and checked as
they are read, for a catalogue may come from anyone (`$GEODECK_LOCALES`):

- its `Plural-Forms` header as soon as Babel reads it, before any plural message sizes a list by it: 1 to
  `MOST_PLURALS` forms, an expression gettext's own safe parser reads (`gettext.c2py`: only `n`, numbers and
  C operators; at most 1,000 characters nested 20 deep) that gives a form in range for every n of `CHECKED`
  without dividing by zero;
- each message: a translation uses only the `{fields}` of its msgid (pipeline/placeholders.py; in a message
  jinja2 formats, the review page's, only its `%(fields)s` and `%%`) and exactly the project's markup its
  msgid has (`<b>`, `</b>`, `<br/>`, pipeline/markup.py), and holds no control character or bidi override
  and no more than `text.LONGEST` characters.

Each problem is one line naming the file, the msgid and what it may use."""

import io
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from gettext import c2py
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileParser

from pipeline import placeholders, readers, text
from pipeline.errors import GeodeckError
from pipeline.jsonfile import MB, Unreadable

MOST_PLURALS = 6  # CLDR's most plural forms of any language (Arabic)
CHECKED = range(1001)  # the numbers a plural expression is tried on
TAGS = re.compile(r"</?b>|<br/>")  # the project's markup a translation keeps (pipeline/markup.py)
PERCENT = re.compile(r"%(?:\((\w+)\)s|(%))?")  # jinja2's fields (the review page's messages): %(name)s, %%
EXAMPLE = "nplurals=2; plural=(n != 1);"


def plural_problem(count: int, expression: str) -> str | None:
    """Why a `Plural-Forms` header of `count` forms and `expression` is not one geodeck uses, or None."""
    if not 1 <= count <= MOST_PLURALS:
        return f"nplurals={count}, not 1 to {MOST_PLURALS}"
    try:
        pick = c2py(expression)
    except ValueError as exc:  # c2py refuses names, calls, long and deeply nested expressions
        return f"plural={placeholders.quoted(expression)}, which gettext cannot read ({exc})"
    for n in CHECKED:
        try:
            form = pick(n)
        except ArithmeticError:
            return f"plural={placeholders.quoted(expression)}, which divides by zero for n = {n}"
        if not 0 <= form < count:
            shown = placeholders.quoted(expression)
            return f"plural={shown}, which gives {form} for n = {n}, not a form 0 to {count - 1}"
    return None


class _Checked(Catalog):
    """A catalogue whose `Plural-Forms` header is checked as soon as the header is read."""

    def __setitem__(self, id: Any, message: Message) -> None:
        super().__setitem__(id, message)
        if not id:
            _plurals(self)


class Refused(Unreadable):
    """A catalogue read but refused: why (a phrase after the file's name) and its fix."""

    def __init__(self, why: str, fix: str):
        super().__init__(why)
        self.fix = fix


def _plurals(catalogue: Catalog) -> None:
    why = plural_problem(catalogue.num_plurals, catalogue.plural_expr)
    if why is not None:
        raise Refused(f"has Plural-Forms {why}", f"write its language's, e.g. {EXAMPLE!r} (docs/languages.md)")


def _catalogue(data: bytes) -> Catalog:
    catalogue = _Checked()
    try:
        PoFileParser(catalogue, abort_invalid=True).parse(io.BytesIO(data))
    except Unreadable:
        raise
    except Exception as exc:  # babel raises PoFileError and assorted parse errors
        raise Unreadable(f"cannot be parsed: {placeholders.quoted(str(exc))}") from exc
    _plurals(catalogue)  # a catalogue without the header: its locale's
    for message in catalogue:
        problem = message_problem(message)
        if problem is not None:
            raise Refused(*problem)
    return catalogue


def message_problem(message: Message) -> tuple[str, str] | None:
    """(why, the fix) when a message's translation is not one geodeck prints (its fields, markup, characters),
    else None."""
    if not message.id:
        return None
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    where = f"msgid {placeholders.quoted(str(ids[0]))!r}"
    if message.context:
        where += f" (msgctxt {placeholders.quoted(message.context)!r})"
    try:
        braces = sorted({name for one in ids for name in placeholders.fields(one)})
        jinja = any("%(" in one or "%%" in one for one in ids)  # formatted with % by jinja2 (pipeline/review)
        percent = sorted({name for one in ids for name in _percent(one)}) if jinja else None
    except placeholders.Invalid as exc:
        return f"has {where}, which is no geodeck message: {exc}", "remove it (`pybabel update` drops it)"
    for string in (s for s in strings if s):
        problem = _translation_problem(string, braces, percent, Counter(TAGS.findall(ids[0])))
        if problem is not None:
            return f"has {where} whose msgstr {problem[0]}", problem[1]
    return None


def _translation_problem(
    string: str, braces: list[str], percent: list[str] | None, tags: Counter
) -> tuple[str, str] | None:
    """(why, the fix) when a translation uses fields (`braces`; `percent` in a jinja2 message) or markup its
    msgid has not, or characters geodeck prints not; else None."""
    why = placeholders.problem(string, braces)
    if why is not None:
        return f"is refused: {why}", f"use only {placeholders.allowing(braces)} in it"
    if percent is not None:
        try:
            unknown = [name for name in _percent(string) if name not in percent]
            why = f"%({unknown[0]})s is not a field it may use" if unknown else None
        except placeholders.Invalid as exc:
            why = str(exc)
        if why is not None:
            return f"is refused: {why}", f"use only {', '.join(f'%({n})s' for n in percent) or 'no field'} and %%"
    if Counter(TAGS.findall(string)) != tags:
        return "changes its markup", f"keep the msgid's tags exactly ({' '.join(tags.elements()) or 'none'})"
    bad = text.unsafe(string)
    if bad:
        return f"holds {bad}, a control character or bidi override", "remove it"
    if len(string) > text.LONGEST:
        return f"is {len(string):,} characters long", f"keep it under {text.LONGEST:,}"
    return None


def _percent(message: str) -> list[str]:
    """The `%(name)s` fields of a message jinja2 formats; `Invalid` for a `%` that is no field or `%%`."""
    names = []
    for found in PERCENT.finditer(message):
        if found.group(1):
            names.append(found.group(1))
        elif not found.group(2):
            raise placeholders.Invalid("a % that is neither %(name)s nor %% (a percent sign)")
    return names


readers.register(
    readers.Kind("po", "gettext catalogue", 16 * MB, _catalogue, fix="fix it with `pybabel update` or restore it")
)


@cache
def read(path: Path) -> Catalog:
    """The catalogue in `path`; a broken one is one GeodeckError naming the file and the fix."""
    try:
        return readers.read("po", path)
    except Unreadable as exc:
        raise readers.failure("po", path, exc, getattr(exc, "fix", None)) from exc


@cache
def plural(path: Path) -> Callable[[int], int]:
    """The catalogue's plural expression as a function of n (checked when the catalogue was read)."""
    return c2py(read(path).plural_expr)


def form_index(path: Path, n: int) -> int:
    """The index of the plural form for `n`; one GeodeckError when the expression fails beyond the numbers it
    was checked on."""
    try:
        index = plural(path)(n)
    except ArithmeticError:
        index = -1
    if not 0 <= index < read(path).num_plurals:
        raise GeodeckError(f"{path}: its Plural-Forms picks no form for n = {n}; write its language's, e.g. {EXAMPLE}")
    return index


def header_locale(path: Path) -> str | None:
    """The locale a catalogue's `Language:` header names (e.g. "fr_FR"), or None."""
    locale = read(path).locale
    return str(locale) if locale is not None else None


def header_language(path: Path) -> str | None:
    """The `Language:` header as written (even when CLDR knows no such locale), or None."""
    return read(path).locale_identifier
