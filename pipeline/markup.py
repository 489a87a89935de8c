"""Reportlab's `Paragraph` reads its text as markup: `<img src=…>` reads the file it names into the PDF, `<a
href>` makes a link, an entity (`&lt;`) becomes another character and a stray `<b>` is a parse error. So the
kit's only markup is the project's own, `<b>`…`</b>` and `<br/>` in its templates' words (and in their
translations, which keep the msgid's, pipeline/i18n/po.py); every other string, a deck's, a recipe's, a
catalogue's, is text, and is printed as typed.

`Markup` is text made ready for a `Paragraph` (`pipeline.render.text.paragraph` takes nothing else): `text`
escapes any string (its control characters shown as escapes, as on the terminal), `words` keeps a template
word's own tags where they pair up and escapes the rest, `fill` fills a template word's `{fields}` with text (or
with `Markup` made here) through the one placeholder formatter (pipeline/placeholders.py)."""

import re
from typing import Any
from xml.sax.saxutils import escape

from pipeline import placeholders
from pipeline.text import shown

OWN = re.compile(r"&lt;(/?b|br/)&gt;")  # the project's tags, once escaped: <b>, </b>, <br/>
BOLD = re.compile(r"</?b>")


class Markup(str):
    """A string ready for a `Paragraph`: escaped text and the project's own tags."""


def text(value: Any) -> Markup:
    """Any value as text in a paragraph: `&`, `<` and `>` escaped, control characters shown as escapes."""
    return value if isinstance(value, Markup) else Markup(escape(shown(str(value))))


def words(template: str) -> Markup:
    """A template's words as markup: its `<b>`, `</b>` and `<br/>` kept where the bold tags pair up (else
    none is), everything else text."""
    escaped = text(template)
    kept = OWN.sub(r"<\1>", escaped)
    return Markup(kept) if _paired(kept) else escaped


def _paired(markup: str) -> bool:
    depth = 0
    for tag in BOLD.findall(markup):
        depth += 1 if tag == "<b>" else -1
        if depth not in (0, 1):
            return False
    return depth == 0


def fill(template: str, **values: Any) -> Markup:
    """A template's words (`words`) with its `{fields}` filled, each value text unless it is `Markup`."""
    return Markup(placeholders.fill(words(template), **{key: text(value) for key, value in values.items()}))


def bold(value: Any) -> Markup:
    """`value` as bold text."""
    return Markup(f"<b>{text(value)}</b>")


def lines(parts: list[Any]) -> Markup:
    """Parts (text unless `Markup`) one to a line."""
    return Markup("<br/>".join(text(part) for part in parts))
