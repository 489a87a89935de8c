"""Messages in every registered language: gettext catalogues read with Babel (`read_po`), one per language.

A message is its source-language text (the msgid) and, for words in the templates, a context: the template's
name and the path of its key (`<game>:words.capital`). `N_` marks a message in code that is translated
where it is shown (an engine's refusal); `translate` translates one for a language and fills its `{fields}`.
`localised` translates a template document: every string under a key `words`, at any depth, is a message
(its context: the template's stem and the key path, list positions left out); nothing else is. A word whose
form depends on a number is a table `{ one = "{n} place card", other = "{n} place cards" }`: a plural message
(gettext's msgid_plural), translated into the language's forms (`form` picks one by its Plural-Forms). A
table's `words_context` names where its words come from, `<stem>` or `<stem>:<key path>` (a custom deck's
template copied from its base game's): their context is the one they have there.

A language is given as a `Language` (made where its code entered: docs/architecture.md), or still as its
code by the callers that hold one (play-check's report, the build), looked up in the registry."""

from typing import Any

from pipeline import placeholders
from pipeline.i18n import po, registry
from pipeline.i18n.language import Language

WORDS = "words"  # the key under which a template's strings are messages
PLURAL = ("one", "other")  # the keys of a template word that is a plural message: its singular and plural
CONTEXT = "words_context"  # a table's key naming the template (and key path) its words come from


def _plural(value: Any) -> bool:
    return isinstance(value, dict) and tuple(value) == PLURAL and all(isinstance(v, str) for v in value.values())


def N_(message: str) -> str:
    """Mark `message` for extraction; it is translated where it is shown (`translate`)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message for extraction; it is translated where it is shown (`translate_plural`)."""
    return singular, plural


def gettext(lang: Language | str, message: str, context: str | None = None) -> str:
    """`message` in `lang`: its catalogue's translation, or the message itself in the source language or
    where the catalogue has none (the completeness test keeps the shipped catalogues whole)."""
    path = registry.language(lang).catalogue
    if path is None:
        return message
    entry = po.read(path).get(message, context=context)
    if entry is None or entry.fuzzy or not entry.string:
        return message
    return entry.string if isinstance(entry.string, str) else entry.string[0]


def plural_forms(lang: Language | str, singular: str, plural: str, context: str | None = None) -> tuple[str, ...]:
    """A plural message's forms in `lang`, in its catalogue's order (Polish: one, few, many); the source's
    (singular, plural) where the catalogue has none."""
    path = registry.language(lang).catalogue
    entry = po.read(path).get(singular, context=context) if path is not None else None
    forms = entry.string if entry is not None and not entry.fuzzy else None
    if not isinstance(forms, tuple | list) or not all(forms):
        return singular, plural
    return tuple(forms)


def form(lang: Language | str, forms: tuple[str, ...] | list[str], n: int) -> str:
    """The form of a plural message for the number `n` (the catalogue's Plural-Forms; the source's n != 1)."""
    path = registry.language(lang).catalogue
    if path is None or len(forms) != po.read(path).num_plurals:  # the source's forms (no translation)
        return forms[0 if n == 1 else 1]
    return forms[po.form_index(path, n)]


def translate_plural(lang: Language | str, singular: str, plural: str, n: int, **fields: Any) -> str:
    """A plural message in `lang` in its form for `n`, `{n}` and its `{fields}` filled in."""
    return placeholders.fill(form(lang, plural_forms(lang, singular, plural), n), n=n, **fields)


def translate(lang: Language | str, message: str, context: str | None = None, **fields: Any) -> str:
    """`message` in `lang` with its `{fields}` filled in (a message without fields is returned as is)."""
    text = gettext(lang, message, context)
    return placeholders.fill(text, **fields) if fields else text


def labelled(lang: Language | str, label: str, value: Any) -> str:
    """ "label: value" as `lang` writes it (French puts a no-break space before the colon)."""
    return translate(lang, "{label}: {value}", label=label, value=value)


def clauses(lang: Language | str, parts: list[str]) -> str:
    """Parts that hold commas themselves, joined by semicolons as `lang` writes them ("a; b", French
    "a ; b"); a plain list is Babel's `format_list` instead."""
    joined = parts[0] if parts else ""
    for part in parts[1:]:
        joined = translate(lang, "{before}; {after}", before=joined, after=part)
    return joined


def _origin(document: dict, stem: str, path: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The template stem and key path of a table's words: where its `words_context` names, else where it is."""
    if not isinstance(document.get(CONTEXT), str):
        return stem, path
    stem, _, at = document[CONTEXT].partition(":")
    return stem, tuple(at.split(".")) if at else ()


def localised(document: Any, lang: Language | str, stem: str, path: tuple[str, ...] = (), inside: bool = False) -> Any:
    """`document` (a template's TOML) with every string under a `words` key translated into `lang`; the
    context of each is `stem:` and its key path (`<game>:categories.words.label`), or its `words_context`'s."""
    if inside and _plural(document):
        return plural_forms(lang, document["one"], document["other"], f"{stem}:{'.'.join(path)}")
    if isinstance(document, dict):
        stem, path = _origin(document, stem, path)
        return {
            key: localised(value, lang, stem, (*path, key), inside or key == WORDS) for key, value in document.items()
        }
    if isinstance(document, list):
        return [localised(value, lang, stem, path, inside) for value in document]
    if inside and isinstance(document, str):
        return gettext(lang, document, f"{stem}:{'.'.join(path)}")
    return document


def messages(document: Any, stem: str, path: tuple[str, ...] = (), inside: bool = False):
    """Every message of a template document as (context, message), in document order (for extraction); a
    plural message's is (singular, plural)."""
    if inside and _plural(document):
        yield f"{stem}:{'.'.join(path)}", (document["one"], document["other"])
    elif isinstance(document, dict):
        for key, value in document.items():
            yield from messages(value, stem, (*path, key), inside or key == WORDS)
    elif isinstance(document, list):
        for value in document:
            yield from messages(value, stem, path, inside)
    elif inside and isinstance(document, str):
        yield f"{stem}:{'.'.join(path)}", document
