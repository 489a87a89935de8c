"""Deck specs: one TOML file per game, `templates/decks/<game>.toml` (counts, jokers, fields, thresholds); a
card field's precision and range are its master-table column's (pipeline/fields.toml) unless the spec
states its own. The fields players compare may be declared as `[[categories]]`, in a deck recipe's form
(pipeline/decks/categories.py: the card layout takes its rows from them too); a kind names them `categories`.
A field named `<field>_*` (with `translated = KIND`) is declared once and is a field per registered language,
`<field>_<lang>` (name_de, name_fr, ...), each a name of that kind in that language
(pipeline/decks/translated.py)."""

from dataclasses import dataclass
from fnmatch import fnmatchcase

from pipeline import readers
from pipeline.decks import categories
from pipeline.errors import GeodeckError
from pipeline.fields import fields as field_table
from pipeline.framework.definition import GameDefinition
from pipeline.i18n import registry

FIELD_TYPES = {"string", "integer", "number", "list"}
ROUNDING = ("decimals", "step", "sig_below", "sig_digits")
CATEGORIES = "categories"  # in a kind's fields: the spec's `[[categories]]` (pipeline/decks/categories.py), in order


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: str
    column: str | None = None
    description: str | None = None
    category: bool = False
    scale: float = 1.0
    decimals: int | None = None
    step: int | None = None
    sig_below: float | None = None
    sig_digits: int | None = None
    threshold_rel: float | None = None
    threshold_abs: float | None = None
    range: tuple[float, float] | None = None  # a card value outside is refused (pipeline.decks.schema)
    translated: str | None = None  # the kind of name (pipeline/decks/translated.py) of a field per language
    lang: str | None = None  # the language of one of a translated field's fields
    column_lang: str | None = None  # the language of a translated field's column (its names' own language)


@dataclass(frozen=True)
class DeckSpec:
    game: str
    title: str
    card_size_mm: tuple[int, int]
    id_prefix: str
    kinds: dict[str, tuple[str, ...]]
    fields: dict[str, FieldSpec]
    card_count: tuple[int, int]  # the fewest and most cards a deck of the game may have
    optional: dict[str, tuple[str, ...]]  # kind -> the fields that may be null (the rest never are)
    options: dict

    @property
    def columns(self) -> list[str]:
        """Every card field once, in first-seen kind order (the deck.csv value columns)."""
        seen: dict[str, None] = {}
        for names in self.kinds.values():
            seen.update(dict.fromkeys(names))
        return list(seen)

    @property
    def categories(self) -> list[str]:
        """The numeric fields players compare (ranks and head-to-head flips are computed for these)."""
        return [name for name in self.columns if self.fields[name].category]


def with_card_precision(entry: dict) -> dict:
    """A card field's entry with the card precision of its master-table column (pipeline/fields.toml)
    unless the entry states its own rounding (e.g. inhabitants in millions)."""
    column = field_table().get(entry.get("column") or "")
    if column is None or any(key in entry for key in ROUNDING):
        return entry
    return column.card | entry


def with_range(entry: dict) -> dict:
    """A card field's entry with its range: the spec's own, else its master-table column's range times
    its scale (inhabitants_m: population 500-2,000,000,000 × 1e-6)."""
    column = field_table().get(entry.get("column") or "")
    if "range" in entry:
        return entry | {"range": tuple(entry["range"])}
    if column is None or column.range is None:
        return entry
    scale = entry.get("scale", 1.0)
    return entry | {"range": (column.range[0] * scale, column.range[1] * scale)}


PER_LANGUAGE = "_*"  # a field named `name_*` is a field per registered language: name_en, name_de, ...


def per_language(names) -> list[str]:
    """`names` with each translated field (`name_*`) as `name_<lang>` for every registered language."""
    return [
        f"{name.removesuffix(PER_LANGUAGE)}_{lang}" if name.endswith(PER_LANGUAGE) else name
        for name in names
        for lang in (registry.codes() if name.endswith(PER_LANGUAGE) else ("",))
    ]


def field_specs(entries: dict[str, dict]) -> dict[str, FieldSpec]:
    """Every card field's spec by name: a translated field (`name_*`, with its kind of name in `translated`)
    once per registered language."""
    specs = {}
    for name, entry in entries.items():
        entry = with_range(with_card_precision(entry))
        if name.endswith(PER_LANGUAGE) != ("translated" in entry):
            raise KeyError(f"{name}: a field per language is named name_* and says which names it has (translated)")
        for each in per_language([name]):
            specs[each] = FieldSpec(name=each, lang=each.removeprefix(name[:-1]) or None, **entry)
    return specs


def load_spec(definition: GameDefinition) -> DeckSpec:
    """The spec of a game (its definition names the file; a spec shared by a family of games names them with
    a pattern, `game = "region-*"`); a missing or malformed spec is a user error naming the file."""
    game, path = definition.name, definition.spec_path
    if not path.is_file():
        raise GeodeckError(f"game {game!r} has no deck spec: {path} is missing")
    try:
        data = readers.read_input("toml", path)
        deck = dict(data["deck"])
        declared = categories.declared(data.get("categories"), str(path))
        fields = field_specs(data["fields"] | {c.field: categories.field_entry(c) for c in declared})
        named = [c.field for c in declared]
        kinds = {
            kind: tuple(per_language([n for name in names for n in (named if name == CATEGORIES else [name])]))
            for kind, names in data["kinds"].items()
        }
        pattern = deck.pop("game")
        spec = DeckSpec(
            game=game if fnmatchcase(game, pattern) else pattern,
            title=deck.pop("title"),
            card_size_mm=tuple(deck.pop("card_size_mm")),
            id_prefix=deck.pop("id_prefix"),
            kinds=kinds,
            fields=fields,
            card_count=(int(deck["card_count"][0]), int(deck.pop("card_count")[1])),  # [fewest, most]
            optional={kind: tuple(per_language(names)) for kind, names in data.get("optional", {}).items()},
            options=deck,
        )
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise GeodeckError(f"{path}: not a valid deck spec ({exc}); fix the file") from exc
    missing = [n for n in spec.columns if n not in fields]
    bad = [f.name for f in fields.values() if f.type not in FIELD_TYPES]
    unbounded = [f.name for f in fields.values() if f.type in ("integer", "number") and f.range is None]
    if spec.game != game or missing or bad or unbounded:
        raise GeodeckError(
            f"{path}: game must be {game!r}, every kind field needs a [fields.X] entry "
            f"(missing: {missing}), types are {sorted(FIELD_TYPES)} (bad: {bad}) and every number field a "
            f"range, its own or its column's in pipeline/fields.toml (none: {unbounded})"
        )
    return spec
