"""A translated card field's name in one language (a deck spec's `translated = KIND`, pipeline/decks/spec.py),
with its provenance. Each kind tries its sources in order and falls back to the local name, never to
another language's:

- `country`: sources/reviewed/names_<lang>.csv (iso3, name_<lang>, reason), else CLDR's name of the
  country's ISO alpha-2 code (the field's column).
- `capital`: every capital of the column (';'-joined) by sources/reviewed/capitals_<lang>.csv (iso3,
  capital_en, capital_<lang>, citation), else CLDR's exemplar city of the time zone named after it
  (Europe/Warsaw: Varsovie, Warszawa), else the column's name.
- `peak`: sources/reviewed/peak_names_<lang>.csv (iso3, name, name_<lang>, citation), else the column's name.
- `place`: a town by sources/reviewed/place_names_<lang>.csv (iso3, name, name_<lang>, citation; iso3 the
  row's `country`, a single-country deck's spec option), else the column's name, in another language than
  its own without the bracket that tells it from a namesake at home (Destatis' "Halle (Saale)", "Oldenburg
  (Oldenburg)": Halle, Oldenburg), unless two cards of the deck would then print one name (`distinct`).
- `division`: a first-level division of the row's `country` (ISO3) by sources/reviewed/divisions_<lang>.csv
  (code, name, name_<lang>, citation; code its ISO 3166-2 code), else pycountry's translation of its ISO
  3166-2 name (iso-codes, gettext domain iso3166-2), else the column's name.

The column's names are in the language the spec's `column_lang` names (the capitals and peaks of the
Factbook and English references: "en"), a division's in its country's first official language (CLDR); in
that language the column's name is the name, with the column's
provenance. In any other language it is a fallback: its provenance's citation says so (FALLBACK), and
the deck's changelog lists it.
"""

import csv
import gettext
import re
from functools import cache
from importlib import metadata
from io import StringIO

import pycountry
from babel.languages import get_official_languages

from pipeline import readers
from pipeline.decks.values import card_value, missing, provenance
from pipeline.errors import GeodeckError
from pipeline.i18n import names, registry
from pipeline.i18n.language import Language
from pipeline.paths import SOURCES_DIR

REVIEWED_DIR = SOURCES_DIR / "reviewed"
REVIEWED, REVIEWED_VINTAGE = "reviewed", "2026-12"
CLDR = "cldr"
PYCOUNTRY = "pycountry"
FALLBACK = "fallback: the local name, none in "  # a fallback's citation says so, with the language
# kind -> (reviewed table stem, its key column besides the row's, its name column without the language)
TABLES = {
    "country": ("names", None, "name"),
    "capital": ("capitals", "capital_en", "capital"),
    "peak": ("peak_names", "name", "name"),
    "place": ("place_names", "name", "name"),
    "division": ("divisions", "name", "name"),
}


@cache
def reviewed(kind: str, lang: str) -> dict[tuple[str, str], tuple[str, str]]:
    """A reviewed table of `kind` in `lang`: (code, name in the column or "") -> (name in lang, citation);
    empty where the language has no table."""
    stem, key, column = TABLES[kind]
    path = REVIEWED_DIR / f"{stem}_{lang}.csv"
    if not path.is_file():
        return {}
    code = "code" if kind == "division" else "iso3"
    with StringIO(readers.read_input("csv", path), newline="") as fh:
        rows = list(csv.DictReader(fh))
    table = {}
    for line, row in enumerate(rows, start=2):
        at = (row.get(code) or "", row.get(key) or "" if key else "")
        name, why = row.get(f"{column}_{lang}"), row.get("citation") or row.get("reason")
        if not (at[0] and name and name.strip() and why and why.strip()) or (key and not at[1]) or at in table:
            raise GeodeckError(
                f"{path}:{line}: every row needs {code}, {f'{key}, ' if key else ''}{column}_{lang} and its "
                "citation (or reason), once each; fix the row"
            )
        table[at] = (name, f"{path.name}: {why}")
    return table


def _reviewed(name: str, why: str) -> tuple[str, dict]:
    return name, {"source": REVIEWED, "vintage": REVIEWED_VINTAGE, "citation": why}


def _cldr(name: str) -> tuple[str, dict]:
    return name, {"source": CLDR, "vintage": names.version()}


def _local(name: str, origin: dict | None, lang: str, local: str | None) -> tuple[str, dict]:
    """The column's name: the name in its own language, else a fallback saying so."""
    origin = dict(origin or {"source": "local", "vintage": None})
    if lang == local:
        return name, origin
    return name, origin | {"citation": "; ".join(filter(None, [origin.get("citation"), f"{FALLBACK}{lang}"]))}


@cache
def _subdivisions(iso2: str) -> dict[str, str]:
    """A country's first-level divisions: ISO 3166-2 name -> code."""
    return {s.name: s.code for s in pycountry.subdivisions.get(country_code=iso2) or () if s.parent_code is None}


@cache
def _iso_codes(lang: str) -> gettext.NullTranslations:
    return gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[lang], fallback=True)


def local_language(iso2: str) -> str | None:
    """A country's first official language (CLDR): the language of its divisions' own names."""
    official = get_official_languages(iso2, de_facto=True)
    return official[0] if official else None


def _division(name: str, country: str, lang: str, origin: dict | None) -> tuple[str, dict]:
    found = pycountry.countries.get(alpha_3=country)
    if found is None:
        raise GeodeckError(f"{country!r} is not an ISO 3166-1 alpha-3 code: a division's country; fix the table")
    code = _subdivisions(found.alpha_2).get(name, "")
    if (code, name) in reviewed("division", lang):
        return _reviewed(*reviewed("division", lang)[code, name])
    local = local_language(found.alpha_2)
    translated = _iso_codes(lang).gettext(name) if code else name
    if lang != local and translated != name:
        return translated, {"source": PYCOUNTRY, "vintage": f"pycountry {metadata.version('pycountry')} (iso3166-2)"}
    return _local(name, origin, lang, local)


BRACKET = re.compile(r"\s+\([^()]+\)$")  # a place's disambiguation at home: Halle (Saale), Frankfurt (Oder)
UNBRACKETED = "the local name without its bracket"  # a fallback's citation says so


def _place(name: str, origin: dict | None, lang: str, local: str | None) -> tuple[str, dict]:
    """The column's place name; in another language without its bracket (`BRACKET`), its citation says so."""
    shown, origin = _local(name, origin, lang, local)
    if lang == local or not BRACKET.search(name):
        return shown, origin
    return BRACKET.sub("", name), origin | {"citation": f"{origin['citation']}; {UNBRACKETED}"}


def distinct(cards: list[dict], spec) -> list[dict]:
    """`cards` where no two cards of a kind print one place name in a language: a name shortened by
    `_place` gets its bracket back (the column's name, the spec's untranslated field of the same column)
    where it would repeat another card's (Frankfurt, where Frankfurt am Main is Frankfurt in English)."""
    for field in (f for f in spec.fields.values() if f.translated == "place"):
        full = next((f.name for f in spec.fields.values() if f.column == field.column and not f.translated), None)
        seen: dict[tuple[str, object], list[dict]] = {}
        for card in cards:
            if field.name in card["fields"]:
                seen.setdefault((card["kind"], card["fields"][field.name]), []).append(card)
        for same in (group for group in seen.values() if len(group) > 1):
            for card in same:
                origin = card["provenance"].get(field.name) or {}
                if UNBRACKETED not in str(origin.get("citation")):
                    continue
                if full is None or full not in card["fields"]:
                    raise GeodeckError(
                        f"card {card['id']}: {field.name} {card['fields'][field.name]!r} repeats another card's; "
                        f"add its name to {TABLES['place'][0]}_{field.lang}.csv"
                    )
                card["fields"][field.name] = card["fields"][full]
                origin["citation"] = origin["citation"].replace(f"; {UNBRACKETED}", "")
    return cards


def _one(kind: str, name: str, row, lang: str, origin: dict | None, local: str | None) -> tuple[str, dict]:
    iso3 = str(row.get("iso3") or row.get("country") or "")  # a town's country: its deck's (`country`)
    if kind == "capital":
        if (iso3, name) in reviewed(kind, lang):
            return _reviewed(*reviewed(kind, lang)[iso3, name])
        city = names.city(name, str(row.get("iso2") or ""), registry.language(lang)) if lang != local else None
        return _cldr(city) if city else _local(name, origin, lang, local)
    if (iso3, name) in reviewed(kind, lang):
        return _reviewed(*reviewed(kind, lang)[iso3, name])
    return _place(name, origin, lang, local) if kind == "place" else _local(name, origin, lang, local)


def _merged(origins: list[dict]) -> dict:
    """One provenance for a list of names: the sources, vintages and citations (fallbacks too) of its names."""
    merged: dict = {}
    for part in ("source", "vintage", "citation"):
        values = [str(o[part]) for o in origins if o.get(part)]
        if values or part != "citation":
            merged[part] = " + ".join(dict.fromkeys(values)) if values else None
    return merged


def value(field, row) -> tuple[object, dict | None]:
    """The card value of translated `field` (a FieldSpec with `translated` and `lang`) from a table row,
    with its provenance; None where the column has no value."""
    raw, lang, kind = row.get(field.column), str(field.lang), field.translated
    if missing(raw):
        return None, None
    origin = provenance(row, field.column)
    if kind == "country":
        iso3 = str(row.get("iso3"))
        if (iso3, "") in reviewed(kind, lang):
            return _reviewed(*reviewed(kind, lang)[iso3, ""])
        found = names.territory(str(raw), registry.language(lang))
        if found is None:
            raise GeodeckError(f"CLDR has no {lang} name for {iso3} ({raw}); add it to names_{lang}.csv")
        return _cldr(found)
    if kind == "division":
        return _division(str(raw), str(row.get("country")), lang, origin)
    if kind not in TABLES:
        raise GeodeckError(f"a deck spec's translated field {field.name}: no kind {kind!r} ({', '.join(TABLES)})")
    shown = card_value(raw, field)
    parts = [
        _one(kind, name, row, lang, origin, field.column_lang) for name in (shown if field.type == "list" else [shown])
    ]
    if field.type == "list":
        return [name for name, _ in parts], _merged([o for _, o in parts])
    return parts[0]


def languages(deck: dict, spec) -> list[str]:
    """The languages a deck's cards carry every translated field in (a published version may have fewer
    than the registry has now: it predates a language)."""
    cards = [c for c in deck.get("cards", []) if isinstance(c, dict) and isinstance(c.get("fields"), dict)]
    translated = [f for f in spec.fields.values() if f.translated]
    return [
        lang
        for lang in dict.fromkeys(str(f.lang) for f in translated)
        if all(
            f.name in card["fields"]
            for card in cards
            for f in translated
            if f.lang == lang and f.name in spec.kinds.get(card.get("kind"), ())
        )
    ]


def require(deck: dict, spec, lang: Language, made_by: str) -> None:
    """Refuse to show a deck in a language its names are not in: one error naming the command that
    publishes a version with them (never another language's names instead)."""
    if not any(f.translated for f in spec.fields.values()):
        return
    have = languages(deck, spec)
    if lang.code not in have:
        raise GeodeckError(
            f"{deck.get('game')} {deck.get('version') or ''}".rstrip()
            + f" has no names in {lang} (it has {', '.join(have) or 'none'}): it predates them; run `{made_by}` "
            "to publish a version with names in every language, or take a version that has them"
        )


def completed(deck: dict, spec, lang: Language, made_by: str) -> tuple[dict, str | None]:
    """`deck` with its names in `lang` where it predates the language (a catalogue registered after the deck
    was published): each taken from its card as `geodeck build` takes it from the row (CLDR's name of the
    country's ISO code, CLDR's exemplar city of a capital, pycountry's division, else the local name flagged
    as a fallback), with a one-line warning counting where they came from; `deck` itself and None where it
    has them. The published deck is not changed: its version and content hash stay those of its files."""
    fields = [f for f in spec.fields.values() if f.translated and f.lang == lang.code]
    if not fields or lang.code in languages(deck, spec):
        return deck, None
    tally: dict[str, int] = {}
    cards = []
    for card in deck["cards"]:
        shown, origins = dict(card.get("fields") or {}), dict(card.get("provenance") or {})
        for field in fields:
            if field.name in spec.kinds.get(card.get("kind"), ()) and field.name not in shown:
                shown[field.name], origins[field.name] = value(field, _row(card, field, spec))
                if shown[field.name] is not None:
                    kind = origin_kind(origins[field.name])
                    tally[kind] = tally.get(kind, 0) + 1
        cards.append({**card, "fields": shown, "provenance": origins})
    if not tally:  # nothing to name: the cards have no column to take names from
        return deck, None
    counted = ", ".join(f"{n} {kind}" for kind, n in sorted(tally.items()))
    note = (
        f"{deck.get('game')} {deck.get('version') or ''}".rstrip()
        + f" predates {lang}: its names in {lang} taken from its cards now ({counted}); run `{made_by}` to "
        "publish a version with them"
    )
    return {**deck, "cards": cards}, note


def _row(card: dict, field, spec) -> dict:
    """The build table's row a card's translated `field` is made from, as far as the card keeps it: its
    fields, the country of a single-country deck (spec option), and the field's column: the card field read
    from that column, else the field in its column's own language (`column_lang`), with its provenance (a
    card of a version before `<field>_<lang>` may keep the column under its own name)."""
    fields, origins = card.get("fields") or {}, card.get("provenance") or {}
    base = field.name.removesuffix(f"_{field.lang}")
    source = next(
        (name for name, f in spec.fields.items() if f.column == field.column and not f.translated),
        f"{base}_{field.column_lang}",
    )
    # a version before <field>_<lang> keeps the column under its own name, or the field under its base name
    kept = next((name for name in (source, field.column, base) if name in fields), source)
    raw, origin = fields.get(kept), origins.get(kept) or {}
    return {
        "country": spec.options.get("country"),
        **fields,
        field.column: ";".join(raw) if isinstance(raw, list) else raw,
        **{f"{field.column}__{part}": origin.get(part) for part in ("source", "vintage", "citation")},
    }


def origin_kind(origin: dict | None) -> str:
    """Where a translated name came from, for the report: "CLDR", "reviewed", "pycountry", "local
    fallback", or "sources" (the column's own name in its own language)."""
    origin = origin or {}
    if FALLBACK in str(origin.get("citation") or ""):
        return "local fallback"
    return {CLDR: "CLDR", REVIEWED: "reviewed", PYCOUNTRY: "pycountry"}.get(str(origin.get("source")), "sources")


def report(cards: list[dict], spec) -> list[str]:
    """The deck's names in every language as changelog lines: per language how many names came from each
    origin, then every fallback to the local name (card, field, name)."""
    translated = {f.name: f for f in spec.fields.values() if f.translated}
    if not translated:
        return []
    counts: dict[str, dict[str, int]] = {}
    fallbacks = []
    for card in cards:
        for name, field in translated.items():
            if card["fields"].get(name) is None:
                continue
            origin = card.get("provenance", {}).get(name)
            kind = origin_kind(origin)
            tally = counts.setdefault(str(field.lang), {})
            tally[kind] = tally.get(kind, 0) + 1
            if kind == "local fallback":
                value = card["fields"][name]
                fallbacks.append(f"- {card['id']} {name}: {', '.join(value) if isinstance(value, list) else value}")
    lines = ["## Names in every language", ""]
    lines += [f"- {lang}: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())) for lang, tally in counts.items()]
    lines += ["", f"Names without one in their language, printed in the local name ({len(fallbacks)}):", ""]
    return lines + (fallbacks or ["(none)"])
