"""How a report names a game's data in a language: its counts per game and its categories are keys of the
report (data, as the game names them), made from messages its playcheck module lists (`COUNTS`,
`CATEGORIES`: `N_("placed {guess}")`); a name is shown as its message translated with the same fields."""

import re
from string import Formatter

from pipeline.errors import GeodeckError
from pipeline.i18n.catalogue import translate


def of(game: str, what: str) -> tuple[str, ...]:
    """The messages `what` (COUNTS, CATEGORIES) of the game called `game`; none for a game geodeck lacks."""
    from pipeline.games import registry as games

    try:
        return tuple(getattr(games.get(game).playcheck, what, ()))
    except GeodeckError:  # a report of a game this geodeck does not know: its names as they are
        return ()


def named(key: str, messages: tuple[str, ...], lang: str) -> str:
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


def continent(report: dict, name: str, lang: str) -> str:
    """A continent (a card's, by its name in the deck) as the game's cards print it in `lang` (CLDR's name)."""
    from pipeline.games import registry as games
    from pipeline.render import layouts

    try:
        return layouts.load(games.get(report["game"])).continent(name, lang)[0]
    except GeodeckError:  # a game or continent this geodeck does not know: as the deck names it
        return name
