"""A typed answer to a World Game challenge, matched forgivingly: any case, accents and punctuation, the
card's names in every language (`name_<lang>`, `capitals_<lang>`), common other names
(templates/world-game/answers.toml) and one small typo. A player types the answer as at the table (recall,
not recognition): nothing is listed, and an answer that names nothing on any card is asked for again
without hints."""

import difflib
import unicodedata
from functools import cache

from pipeline import readers
from pipeline.i18n import registry
from pipeline.i18n.catalogue import gettext
from pipeline.paths import TEMPLATES_DIR

ALIASES = TEMPLATES_DIR / "world-game" / "answers.toml"
CLOSE = 0.85  # difflib's ratio a typo must keep to the one name it stands for


def normal(text: str) -> str:
    """Lower case without accents, punctuation or a leading article: "Côte d'Ivoire" -> "cote d ivoire"."""
    text = unicodedata.normalize("NFKD", text.replace("ß", "ss")).casefold()
    text = "".join(c if c.isalnum() else " " for c in text if not unicodedata.combining(c))
    words = text.split()
    return " ".join(words[1:] if words[:1] in (["the"], ["die"], ["der"]) else words)


def in_every_language(message: str) -> set[str]:
    """A message as typed in any registered language, normalised (" and ": and, und, et, y, e, i)."""
    return {normal(gettext(code, message)) for code in registry.codes()}


def passes(text: str) -> bool:
    """Whether a typed answer passes: "-", "p" or the word "pass" in any registered language ("passer")."""
    return text.strip() == "-" or normal(text) in {"p", *in_every_language("pass")}


@cache
def aliases() -> dict:
    return readers.read_input("toml", ALIASES)


def names(answered: str, value, cards: dict, continent_names: dict[str, list[str]]) -> list[str]:
    """What a player may type for an answer value: a country by its card's names (`cards`: id -> fields), a
    capital in any of the card's languages, a map number, a continent in either language."""
    if answered == "country":
        found = [value]
        for fields in cards.values():
            if fields.get("name_en") == value:
                found += [v for k, v in fields.items() if k.startswith("name_") and isinstance(v, str)]
                found.append(fields.get("iso3") or "")
                found += aliases()["countries"].get(fields.get("iso3"), [])
        return found
    if answered == "capital":
        found = [value, *aliases()["capitals"].get(value, [])]
        for fields in cards.values():
            capitals = fields.get("capitals") or []
            for key, names in fields.items():
                if key.startswith("capitals_"):
                    found += [name for capital, name in zip(capitals, names) if capital == value]
        return found
    if answered == "map number":
        return [str(value)]
    return continent_names.get(value, [value])


class Matcher:
    """Typed text -> the answer action it names, among `answers` ({action: names})."""

    def __init__(self, answers: dict[int, list[str]]):
        self.by_name: dict[str, set[int]] = {}
        for action, found in answers.items():
            for name in found:
                if normal(name):
                    self.by_name.setdefault(normal(name), set()).add(action)

    def match(self, text: str) -> int | None:
        """The one action `text` names exactly (forgiving case, accents, punctuation) or with one small typo."""
        key = normal(text)
        exact = self.by_name.get(key, set())
        if len(exact) == 1:
            return next(iter(exact))
        close = difflib.get_close_matches(key, self.by_name, n=3, cutoff=CLOSE) if len(key) > 3 else []
        actions = {a for name in close for a in self.by_name[name]}
        return next(iter(actions)) if len(actions) == 1 else None


def continent_sets(text: str, one: dict[str, str]) -> frozenset[str] | None:
    """Typed continents ("Europa und Asien", "Europa i Azja", "asia, europe") as a set of continent keys; None
    if a part names no continent (`one`: normalised continent name -> continent key)."""
    joining = in_every_language(" and ")
    words = [w for w in normal(text).split() if w not in joining]
    keys, i = set(), 0
    while i < len(words):
        for size in (2, 1):  # "north america" before "north"
            piece = " ".join(words[i : i + size])
            close = difflib.get_close_matches(piece, one, n=1, cutoff=CLOSE) if len(piece) > 3 else []
            if piece in one or close:
                keys.add(one[piece] if piece in one else one[close[0]])
                i += size
                break
        else:
            return None
    return frozenset(keys) or None
