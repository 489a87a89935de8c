"""Messages in every registered language: gettext catalogues read with Babel (`read_po`), one per language.

A message is its source-language text (the msgid) and, for words in the templates, a context: the template's
name and the path of its key (`<game>:words.capital`). `N_` marks a message in code that is translated
where it is shown (an engine's refusal); `translate` translates one for a language and fills its `{fields}`.
`localised` translates a template document: every string under a key `words`, at any depth, is a message
(its context: the template's stem and the key path, list positions left out); nothing else is."""

from typing import Any

from pipeline.i18n import po, registry

WORDS = "words"  # the key under which a template's strings are messages


def N_(message: str) -> str:
    """Mark `message` for extraction; it is translated where it is shown (`translate`)."""
    return message


def gettext(lang: str, message: str, context: str | None = None) -> str:
    """`message` in `lang`: its catalogue's translation, or the message itself in the source language or
    where the catalogue has none (the completeness test keeps the shipped catalogues whole)."""
    path = registry.language(lang).catalogue
    if path is None:
        return message
    entry = po.read(path).get(message, context=context)
    if entry is None or entry.fuzzy or not entry.string:
        return message
    return entry.string if isinstance(entry.string, str) else entry.string[0]


def translate(lang: str, message: str, context: str | None = None, **fields: Any) -> str:
    """`message` in `lang` with its `{fields}` filled in (a message without fields is returned as is)."""
    text = gettext(lang, message, context)
    return text.format(**fields) if fields else text


def labelled(lang: str, label: str, value: Any) -> str:
    """ "label: value" as `lang` writes it (French puts a no-break space before the colon)."""
    return translate(lang, "{label}: {value}", label=label, value=value)


def localised(document: Any, lang: str, stem: str, path: tuple[str, ...] = (), inside: bool = False) -> Any:
    """`document` (a template's TOML) with every string under a `words` key translated into `lang`; the
    context of each is `stem:` and its key path (`<game>:categories.words.label`)."""
    if isinstance(document, dict):
        return {
            key: localised(value, lang, stem, (*path, key), inside or key == WORDS) for key, value in document.items()
        }
    if isinstance(document, list):
        return [localised(value, lang, stem, path, inside) for value in document]
    if inside and isinstance(document, str):
        return gettext(lang, document, f"{stem}:{'.'.join(path)}")
    return document


def messages(document: Any, stem: str, path: tuple[str, ...] = (), inside: bool = False):
    """Every message of a template document as (context, message), in document order (for extraction)."""
    if isinstance(document, dict):
        for key, value in document.items():
            yield from messages(value, stem, (*path, key), inside or key == WORDS)
    elif isinstance(document, list):
        for value in document:
            yield from messages(value, stem, path, inside)
    elif inside and isinstance(document, str):
        yield f"{stem}:{'.'.join(path)}", document
