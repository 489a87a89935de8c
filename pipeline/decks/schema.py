"""The checks every deck passes before it is published or an engine, renderer or record sees it: a build's,
a published version's and a draft's (`--deck FILE`) alike. From the deck spec (templates/decks/<game>.toml)
and the field table (pipeline/fields.toml): the card count, unique ids with the game's prefix, known kinds,
exactly the kind's fields, each value of its type (finite numbers, non-empty text and lists), within its
range or choices, null only where the spec allows it, no control character or bidi override in any string
(pipeline/text.py). The first problem is one line naming the card and field.
"""

import math
import re

from pipeline import text
from pipeline.decks.spec import DeckSpec, FieldSpec
from pipeline.errors import GeodeckError
from pipeline.fields import fields as field_table

LABEL = re.compile(r"[\w.+-]{1,40}")  # a version label: published ones are also checked against their folder
TITLE = 200  # characters in a deck's title (region build --title)


def check(deck: object, spec: DeckSpec, source: str, complete: bool = True) -> None:
    """Refuse `deck` (read from `source`) unless it is a well-formed deck of `spec`'s game; `complete=False`
    for a published version (verified against its manifest), which may predate fields added to the spec since
    (a language registered since) or renamed since (its fields not in the spec are not checked)."""
    if not isinstance(deck, dict):
        raise GeodeckError(f"{source} is not a deck: a JSON object with game, version, title and cards expected")
    text.check_all(deck, source)
    if deck.get("game") != spec.game:
        raise GeodeckError(f"{source} is a {deck.get('game')!r} deck, not {spec.game}; name a {spec.game} deck.json")
    version = deck.get("version")
    if version is not None and not (isinstance(version, str) and LABEL.fullmatch(version) and ".." not in version):
        raise GeodeckError(f"{source}: version {_show(version)} is not like 2026.11.0 (letters, digits, . + - _)")
    if not isinstance(deck.get("title"), str) or not 0 < len(deck["title"]) <= TITLE:
        raise GeodeckError(f"{source}: title must be text of 1-{TITLE} characters (the game's title)")
    cards = deck.get("cards")
    low, high = spec.card_count
    if not isinstance(cards, list) or not low <= len(cards) <= high:
        count = f"{len(cards):,} cards" if isinstance(cards, list) else "no list of cards"
        raise GeodeckError(f"{source} has {count}; a {spec.game} deck has {low}-{high} (templates/decks)")
    seen: set[str] = set()
    for number, card in enumerate(cards, 1):
        _card(card, number, spec, seen, source, complete)


def _card(card: object, number: int, spec: DeckSpec, seen: set[str], source: str, complete: bool) -> None:
    where = f"{source}: card {number}"
    if not isinstance(card, dict):
        raise GeodeckError(f"{where} is not an object with id, kind, fields and provenance")
    ident = card.get("id")
    if not (isinstance(ident, str) and re.fullmatch(rf"{re.escape(spec.id_prefix)}-[\w-]{{1,60}}", ident)):
        raise GeodeckError(f"{where}: id {_show(ident)} is not like {spec.id_prefix}-XYZ")
    if ident in seen:
        raise GeodeckError(f"{where}: id {ident} is on two cards; ids are unique")
    seen.add(ident)
    where = f"{source}: card {ident}"
    kind, values, provenance = card.get("kind"), card.get("fields"), card.get("provenance", {})
    if not isinstance(kind, str) or kind not in spec.kinds:
        raise GeodeckError(f"{where}: kind {_show(kind)} is not one of {', '.join(spec.kinds)}")
    have = set(values) if isinstance(values, dict) else set()
    lacks = sorted(set(spec.kinds[kind]) - have) if complete else []
    extra = sorted(have - set(spec.kinds[kind]), key=str) if complete else []
    if not isinstance(values, dict) or lacks or extra:
        raise GeodeckError(
            f"{where}: fields must be those of a {kind} card"
            + (f"; lacks {', '.join(lacks)}" if lacks else "")
            + (f"; has no field {', '.join(map(str, extra))[:80]}" if extra else "")
        )
    for name, value in values.items():
        if name not in spec.fields:  # a published version's field renamed since (capital -> capital_de)
            continue
        problem = _problem(value, spec.fields[name], name in spec.optional.get(kind, ()))
        if problem:
            raise GeodeckError(f"{where}: field {name}: {problem}")
    if not isinstance(provenance, dict) or not all(
        name in values and isinstance(p, dict) and isinstance(p.get("source"), str) for name, p in provenance.items()
    ):
        raise GeodeckError(f"{where}: provenance must map the card's fields to {{source, vintage}}")


def _problem(value: object, field: FieldSpec, optional: bool) -> str | None:
    """Why `value` cannot be the card value of `field`, or None."""
    if value is None:
        return None if optional else "null, but this field always has a value"
    column = None if field.translated else field_table().get(field.column or "")  # a name, not its column's code
    if field.type == "list":
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
            return f"{_show(value)} is not a non-empty list of texts"
        return _choice(value, column.choices if column else ())
    if field.type == "string":
        if not isinstance(value, str) or not value.strip():
            return f"{_show(value)} is not a non-empty text"
        if column and column.pattern and not re.fullmatch(column.pattern, value):
            return f"{_show(value)} does not have the form {column.pattern}"
        return _choice([value], column.choices if column else ())
    wanted = (int,) if field.type == "integer" else (int, float)
    if isinstance(value, bool) or not isinstance(value, wanted):
        return f"{_show(value)} is not {'an integer' if field.type == 'integer' else 'a number'}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    low, high = field.range or (-math.inf, math.inf)
    if not low <= value <= high:
        return f"{_show(value)} is outside its range {low:g}..{high:g}"
    return None


def _choice(values: list[str], choices: tuple[str, ...]) -> str | None:
    unknown = [v for v in values if choices and v not in choices]
    return f"{_show(unknown[0])} is not one of {', '.join(choices)}" if unknown else None


def _show(value: object) -> str:
    """A value in a message, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"
