"""How a report names a game's data in a language: its counts per game and its categories are keys of the
report (data, as the game names them), made from messages its playcheck module lists (`COUNTS`,
`CATEGORIES`: `N_("placed {guess}")`); a name is shown as its message translated with the same fields."""

import re
from string import Formatter

from pipeline.i18n.catalogue import translate
from pipeline.i18n.language import Language


def of(report: dict, what: str) -> tuple[str, ...]:
    """The messages `what` (COUNTS, CATEGORIES) the report's counts or categories were made from (the runner
    keeps them in the report under `names`); none in a report without them."""
    return tuple(report.get("names", {}).get(what, ()))


def named(key: str, messages: tuple[str, ...], lang: Language) -> str:
    """`key` (e.g. "placed most") in `lang`: the message it was made from ("placed {guess}") translated, its
    fields named the same way ("most"); a key made from none as it is."""
    for message in messages:
        parts = Formatter().parse(message)
        pattern = "".join(re.escape(text) + (f"(?P<{field}>.+?)" if field else "") for text, field, _, _ in parts)
        found = re.fullmatch(pattern, key)
        if found:
            fields = {
                name: named(value, messages, lang) if value != key else value
                for name, value in found.groupdict().items()
            }
            return translate(lang, message, **fields)
    return key


def continent(name: str, lang: Language) -> str:
    """A continent (a card's, by its name in the deck) as the cards print it in `lang` (CLDR's name); a
    continent geodeck does not know as the deck names it."""
    from pipeline.render import layouts

    return layouts.continent_name(name, lang) or name
