"""A deck recipe (docs/recipes.md): which game, which items, which categories, language and title, read from
a TOML file and checked whole, every problem one line naming its key and the fix (`RecipeError`).

    [recipe]      name, game (laender-toppen | world-game), title, lang, cards (per game: games.toml), jokers,
                  group_word
    [items]       countries: continents, include, exclude, top = {field, n}; or table = "file.csv|xlsx"
                  with its columns name, group, source and picture, its header row and sheet
    [[categories]] field, direction (higher | lower), pattern, icon, decimals, scale, words = {label, unit, strip}
                  (pipeline/decks/categories.py: the schema a built-in deck spec declares its categories in too)

What a recipe may name is data: the games and their category rules in templates/recipes/games.toml, the
numeric country fields in pipeline/fields.toml, the continents in its `continents` choices, the languages in
the language registry. Its words are text as a deck's are (pipeline/text.py: no control character or bidi
override, a title as long as a deck's, a word at most `WORDS` characters); an unknown key is refused with the
key it most likely meant. Every problem is found here, when the recipe is read, before any play-check.
"""

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline import readers, text
from pipeline.decks import categories, schema
from pipeline.decks.categories import Category, key_shown, shown
from pipeline.errors import GeodeckError
from pipeline.fields import fields as field_table
from pipeline.i18n import registry
from pipeline.i18n.catalogue import N_, N_plural, translate, translate_plural
from pipeline.i18n.language import Language
from pipeline.jsonfile import Unreadable
from pipeline.paths import TEMPLATES_DIR

GAMES = TEMPLATES_DIR / "recipes" / "games.toml"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
CARDS = (20, 200)  # the cards (items and jokers) a recipe may ask for, unless its game deals fewer
NUMERIC = (float, int)
WORDS = schema.TITLE  # characters in a recipe's other words (a label, a unit, a strip's line, a group, a column)
UNKNOWN_KEY = N_("{key}: no such key; use {keys}")
UNKNOWN_MEANT = N_("{key}: no such key (did you mean {meant}?); use {keys}")
NO_TABLE = N_("[{key}] is missing; add the table (docs/recipes.md)")
NO_SUCH_TABLE = N_("[{key}]: no such table; a recipe has [recipe], [items] and [[categories]]")
NO_SUCH_TABLE_MEANT = N_(
    "[{key}]: no such table (did you mean {meant}?); a recipe has [recipe], [items] and [[categories]]"
)
NO_TEXT = N_("{key} is missing or empty; give it as text")
NO_TEXT_CHOICES = N_("{key} is missing or empty; give it as text: {choices}")
NOT_ONE_OF = N_("{key} {value} is not one of {choices}")
NOT_A_LANGUAGE = N_(
    "{key} {value} is not one of {choices} (geodeck's languages; a new one is one catalogue: docs/languages.md)"
)
IN_ENGLISH = "; the recipe's other lines are in English until it names one"  # said in English only: no language
COUNT = N_("{key} {value}: a whole number from 1 to 1,000,000")
BAD_NAME = N_("recipe.name {value}: lower-case letters, digits and '-', at most 40; e.g. europe-40")
CARDS_WHOLE = N_("recipe.cards {value}: a whole number of item cards, e.g. {n}")
CARDS_RANGE = N_plural(
    "recipe.cards {cards}: {game} deals {low}-{high} cards (items and jokers), {cards} and {n} joker make {total}; "
    "{fix}",
    "recipe.cards {cards}: {game} deals {low}-{high} cards (items and jokers), {cards} and {n} jokers make {total}; "
    "{fix}",
)
A_GAME = N_("a game")
AT_MOST = N_plural("ask for at most {n} item card (recipe.cards)", "ask for at most {n} item cards (recipe.cards)")
ASK_FOR = N_plural(
    "ask for {n} item card (recipe.cards) where [items] has them",
    "ask for {n} item cards (recipe.cards) where [items] has them",
)
ADD_JOKERS = N_plural(
    "add {n} joker (recipe.jokers, each a pair of groups) to reach {low} cards",
    "add {n} jokers (recipe.jokers, each a pair of groups) to reach {low} cards",
)
ADD_OR_ASK = N_("{add}, or {ask}")
TOP = N_("items.top: give {example}: the n items largest in a field")
TOP_EXAMPLE = '{field = "population", n = 60}'
NO_CATEGORIES = N_("[[categories]] is missing; add one table per category (field, words)")
CATEGORY_COUNT = N_plural(
    "categories: {n} given, this game compares {compared}", "categories: {n} given, this game compares {compared}"
)
FIELD_MISSING = N_("{key} is missing; name a numeric field: {fields}")
FIELD_TWICE = N_("{key} {value} is compared twice; give each field once")
FIELD_UNKNOWN = N_("{key} {value} is no numeric field of pipeline/fields.toml; use {fields}")
FIELD_FIXED = N_("{key} {value}: this game's engine compares only {fields}")
NO_JOKERS = N_("recipe.jokers: this game has no jokers; remove the key")
JOKER_PAIRS = N_("recipe.jokers: a list of pairs of two different groups, e.g. {example}")
JOKER_EXAMPLE = '[["Europe", "Asia"]]'
GROUP_WORD_LANGUAGES = N_("recipe.group_word: {codes} is no language; use {choices}")
GROUP_WORD = N_("recipe.group_word: the word for one group, e.g. {example}, or one per language, e.g. {each}")
TEXTS = N_("{key}: a list of texts, e.g. {example}")
NO_CONTINENT = N_("items.continents: {value} is no continent; use {choices}")
TABLE_PATH = N_("items.table: the path of a CSV or XLSX file, relative to the recipe")
COLUMNS = N_("items.columns: a table of roles to column names, e.g. {example}")
NO_ROLE = N_("{key}: no such role; the roles are {roles}")
NO_ROLE_MEANT = N_("{key}: no such role (did you mean {meant}?); the roles are {roles}")
SHEET = N_("items.sheet: the name of the XLSX sheet that holds the table, e.g. {example}")
GROUPS = N_("items.groups: a table of groups to ISO3 codes, e.g. {example}")
NO_COLUMN = N_("{key}: a recipe's category reads the column its field names; remove column")
SAME_FIELD = N_(
    "{key} {value} and the column {other} both become the card field {field}; rename one of the two columns in the "
    "table"
)
KEYS = {
    "recipe": ("name", "game", "title", "lang", "cards", "jokers", "group_word"),
    "items": ("continents", "include", "exclude", "top", "table", "columns", "groups", "header", "sheet"),
    "items.top": ("field", "n"),
    "words": ("label", "unit", "strip"),
}
ROLES = ("name", "group", "source", "picture")  # the columns of a user's table a recipe names (items.columns)
# A user's column never shadows geodeck's own fields of an item (its card, its provenance, the optimiser's flag):
# one of these names becomes `<name>_value` (`table_field`).
OWN_FIELDS = ("name", "groups", "continents", "source", "picture", "card", "label", "in_deck", "reason", "kind", "id")


class RecipeError(GeodeckError):
    """Every problem of a recipe or table, one line each (the CLI prints each after `error:`)."""

    def __init__(self, source: str, problems: list[str]):
        self.problems = [f"{source}: {problem}" for problem in problems]
        super().__init__("\nerror: ".join(self.problems))


@dataclass(frozen=True)
class Items:
    continents: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    top: tuple[str, int] | None = None  # (field, n): the n items with the largest values of field
    table: Path | None = None  # the user's table (CSV or XLSX); None: the country table
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # countries: group -> ISO3 (else continents)
    columns: dict[str, str] = field(default_factory=dict)  # role (name, group, source, picture) -> column
    header: int | None = None  # the table's header row (1: the first); None: the first row naming the name column
    sheet: str | None = None  # an XLSX table's sheet; None: the first sheet with the header


@dataclass(frozen=True)
class Recipe:
    path: Path
    name: str
    game: str
    title: str
    lang: str
    cards: int
    jokers: tuple[tuple[str, str], ...]
    items: Items
    categories: tuple[Category, ...]
    group_word: dict[str, str] = field(default_factory=dict)  # the word for one group, by language ("" any)

    @property
    def language(self) -> Language:
        """The recipe's language, `lang` (a registered one, checked when the recipe was read): the recipe is
        where its code enters."""
        return registry.language(self.lang)

    def compared(self) -> list[tuple[str, str]]:
        """(key, field) of each field the deck compares: the recipe's categories, else its game's fixed ones."""
        if self.categories:
            return [(f"categories[{n}].field", c.field) for n, c in enumerate(self.categories, 1)]
        return [(f"{self.game}'s fact", name) for name in games()[self.game].get("fields", [])]

    @property
    def items_deck(self) -> bool:
        """Whether the cards are items drawn by the custom slice (a table's, or countries in the recipe's own
        groups) rather than the base game's country cards."""
        return self.items.table is not None or bool(self.items.groups)

    @property
    def deck_name(self) -> str:
        return f"custom-{self.name}"


class Problems(list[str]):
    """A recipe's problem lines, each said in `lang` (the recipe's, or the caller's)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def say(self, message: str, **fields: Any) -> None:
        self.append(translate(self.lang, message, **fields))

    def say_plural(self, forms: tuple[str, str], n: int, **fields: Any) -> None:
        self.append(translate_plural(self.lang, *forms, n, **fields))


def games() -> dict:
    """The games a recipe may name, with their rules (templates/recipes/games.toml)."""
    try:
        return readers.read("toml", GAMES)["games"]
    except (Unreadable, KeyError) as exc:
        raise GeodeckError(f"{GAMES}: not the table of recipe games ({exc}); restore it with git checkout") from exc


def load(path: Path, lang: str | None = None) -> Recipe:
    """The recipe in `path`, checked: a `RecipeError` listing every problem, in `lang` (default: the recipe's
    `lang`; English where that is no language of geodeck's)."""
    try:
        document = readers.read("recipe", path)
    except Unreadable as exc:
        raise readers.failure("recipe", path, exc) from exc
    words = _words(document)
    problems = Problems(lang or _language(document))
    recipe = _recipe(path, document, problems, fallen=lang is None)
    flagged = tuple(key for key, _line in words)  # a value not text is one problem, not one more per later check
    lines = [line for _key, line in words] + [p for p in problems if not p.startswith(flagged)]
    if lines or recipe is None:
        raise RecipeError(str(path), lines)
    return recipe


def _language(document: dict) -> str:
    """The language a recipe's problems are said in: its `lang` where geodeck has it, else the source's."""
    head = document.get("recipe")
    lang = head.get("lang") if isinstance(head, dict) else None
    return lang if isinstance(lang, str) and lang in registry.codes() else registry.source()


def reach(rules: dict, items: int, jokers: int, more_items: bool = True, lang: str = "en") -> str:
    """The fix for a deck of `items` item cards and `jokers` jokers outside its game's range (`rules`: its
    games.toml table): jokers where the game has them, or (`more_items`) more item cards; said in `lang`."""
    low, high = rules.get("cards", CARDS)
    if items + jokers > high:
        return translate_plural(lang, *AT_MOST, high - jokers)
    more = translate_plural(lang, *ASK_FOR, low - jokers)
    if not rules.get("jokers", True):
        return more
    add = translate_plural(lang, *ADD_JOKERS, low - items - jokers, low=low)
    return translate(lang, ADD_OR_ASK, add=add, ask=more) if more_items else add


def _recipe(path: Path, document: dict, problems: Problems, fallen: bool = True) -> Recipe | None:
    """The recipe of `document`, or None with its problems said in `problems` (`fallen`: in the recipe's own
    language, so a `lang` geodeck lacks says its lines are English)."""
    head = _table(document, "recipe", problems)
    known = games()
    game = _text(head, "recipe.game", problems, choices=tuple(known))
    name = _text(head, "recipe.name", problems)
    if name and not NAME.fullmatch(name):
        problems.say(BAD_NAME, value=shown(name))
    title = _text(head, "recipe.title", problems)
    lang = _text(
        head,
        "recipe.lang",
        problems,
        choices=registry.codes(),
        default=registry.source(),
        wrong=NOT_A_LANGUAGE,
        more=IN_ENGLISH if fallen else "",
    )
    rules = known.get(game or "", {})
    jokers = _jokers(head.get("jokers", []), rules, problems)
    written = head.get("cards")
    low, high = rules.get("cards", CARDS)
    if isinstance(written, bool) or not isinstance(written, int):
        problems.say(CARDS_WHOLE, value=repr(written), n=low - len(jokers))
        cards, counted = 0, False
    else:
        cards, counted = written, True
    at = len(problems)  # the count's problem, if any, goes here: after the jokers', before group_word's and items'
    group_word = _group_word(head.get("group_word"), problems)
    _unknown(head, "recipe", problems)
    items = _items(path, _table(document, "items", problems), problems)
    if counted and not low <= cards + len(jokers) <= high:  # a table's rows are all it has: no more item cards
        fix = reach(rules, cards, len(jokers), more_items=items.table is None, lang=problems.lang)
        game_named = game or translate(problems.lang, A_GAME)
        problems.say_plural(
            CARDS_RANGE,
            len(jokers),
            cards=cards,
            game=game_named,
            low=low,
            high=high,
            total=cards + len(jokers),
            fix=fix,
        )
        problems.insert(at, problems.pop())
        cards = 0
    categories = _categories(document.get("categories"), rules, items.table is not None, problems)
    for key in sorted(set(document) - {"recipe", "items", "categories"}):
        meant = _meant(key, ("recipe", "items", "categories"))
        problems.say(NO_SUCH_TABLE_MEANT if meant else NO_SUCH_TABLE, key=key_shown(key), meant=meant)
    if None in (game, name, title, lang) or problems:
        return None
    return Recipe(path, str(name), str(game), str(title), str(lang), cards, jokers, items, categories, group_word)


def _group_word(value, problems: Problems) -> dict[str, str]:
    """The kit's word for one of the items' groups (the trick game's piles: "Region" instead of "continent"): a
    word printed in every language (key ""), or a word per language code; none: the game's ("group")."""
    if value is None:
        return {}
    if isinstance(value, str) and value.strip():
        return {"": value}
    codes = registry.codes()
    if isinstance(value, dict) and value and all(isinstance(w, str) and w.strip() for w in value.values()):
        if stray := sorted(set(value) - set(codes)):
            problems.say(GROUP_WORD_LANGUAGES, codes=", ".join(map(shown, stray)), choices=", ".join(codes))
            return {}
        return dict(value)
    problems.say(GROUP_WORD, example='"Region"', each='{ de = "Region", fr = "région" }')
    return {}


def _words(document: dict) -> list[tuple[str, str]]:
    """(key, problem line) per string of the recipe (keys included) holding a control character or a bidi
    override or longer than a deck allows (its title) or `WORDS` (any other word), named by its recipe key."""
    problems = []
    for where, value in _strings(document):
        longest = schema.TITLE if where == "recipe.title" else WORDS
        try:
            text.check(value, where, longest)
        except GeodeckError as exc:
            problems.append((where, str(exc)))
    return problems


def _strings(value: object, where: str = "") -> list[tuple[str, str]]:
    """Every string in a recipe with its key (`categories[3].words.label`, lists counted from 1 as in every
    message about a recipe); a key itself is named `a key of <where>`."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, object]] = [(where, value)]
    while stack:
        at, item = stack.pop()
        if isinstance(item, str):
            found.append((key_shown(at or "a value"), item))
        elif isinstance(item, dict):
            for key, inner in reversed(list(item.items())):
                stack.append((f"{at}.{key}" if at else str(key), inner))
                stack.append((f"a key of {at or 'the recipe'}", key))
        elif isinstance(item, list):
            stack.extend(reversed([(f"{at}[{n}]", inner) for n, inner in enumerate(item, 1)]))
    return found


def _meant(key: str, known: tuple[str, ...] | list[str]) -> str:
    """`'title'` for a key close to a known one (the one it likely meant), else nothing."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return repr(close[0]) if close else ""


def _unknown(table: dict, where: str, problems: Problems, known: tuple[str, ...] = ()) -> None:
    """A problem line per key of the recipe table `where` that a recipe has not (`known`, default its
    `KEYS`), naming the one it most likely meant and the keys there are."""
    known = known or KEYS[where]
    for key in sorted(set(table) - set(known), key=str):
        meant = _meant(str(key), known)
        problems.say(
            UNKNOWN_MEANT if meant else UNKNOWN_KEY, key=f"{where}.{key_shown(key)}", meant=meant, keys=", ".join(known)
        )


def _count(table: dict, key: str, where: str, problems: Problems) -> int | None:
    """A whole number of at least 1 (None when absent); anything else a problem naming `where`."""
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
        problems.say(COUNT, key=where, value=shown(value))
        return None
    return value


def _table(document: dict, key: str, problems: Problems) -> dict:
    value = document.get(key)
    if not isinstance(value, dict):
        problems.say(NO_TABLE, key=key)
        return {}
    return value


def _text(
    table: dict,
    key: str,
    problems: Problems,
    choices: tuple = (),
    default: str | None = None,
    wrong: str = NOT_ONE_OF,
    more: str = "",
) -> str | None:
    """The text `key` of a recipe table, one of `choices` if given (`wrong`: the line for another; `more`: what
    follows it)."""
    value = table.get(key.split(".")[-1], default)
    if not isinstance(value, str) or not value.strip():
        problems.say(NO_TEXT_CHOICES if choices else NO_TEXT, key=key, choices=", ".join(choices))
        return None
    if choices and value not in choices:
        problems.say(wrong, key=key, value=shown(value), choices=", ".join(choices))
        problems[-1] += more
        return None
    return value


def _codes(table: dict, key: str, problems: Problems) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        problems.say(TEXTS, key=f"items.{key}", example='["DEU", "FRA"]')
        return ()
    return tuple(value)


def _items(path: Path, table: dict, problems: Problems) -> Items:
    continents = _codes(table, "continents", problems)
    choices = field_table()["continents"].choices
    for continent in continents:
        if continent not in choices:
            problems.say(NO_CONTINENT, value=shown(continent), choices=", ".join(choices))
    top = table.get("top")
    chosen_top = None
    if top is not None:
        if not isinstance(top, dict) or not isinstance(top.get("field"), str) or "n" not in top:
            problems.say(TOP, example=TOP_EXAMPLE)
        else:
            _unknown(top, "items.top", problems)
            if (n := _count(top, "n", "items.top.n", problems)) is not None:
                chosen_top = (top["field"], n)
    source = table.get("table")
    columns = table.get("columns", {})
    if source is not None and not isinstance(source, str):
        problems.say(TABLE_PATH)
        source = None
    if not isinstance(columns, dict) or not all(isinstance(v, str) for v in columns.values()):
        problems.say(COLUMNS, example='{name = "Land", group = "Region"}')
        columns = {}
    for role in sorted(set(columns) - set(ROLES)):
        meant = _meant(role, ROLES)
        key = f"items.columns.{key_shown(role)}"
        problems.say(NO_ROLE_MEANT if meant else NO_ROLE, key=key, meant=meant, roles=", ".join(ROLES))
    sheet = table.get("sheet")
    if sheet is not None and (not isinstance(sheet, str) or not sheet.strip()):
        problems.say(SHEET, example='"Tabelle2"')
        sheet = None
    groups = table.get("groups", {})
    if not isinstance(groups, dict) or not all(
        isinstance(codes, list) and all(isinstance(c, str) for c in codes) for codes in groups.values()
    ):
        problems.say(GROUPS, example='{North = ["NOR", "SWE"], South = ["ITA"]}')
        groups = {}
    _unknown(table, "items", problems)
    return Items(
        continents=continents,
        include=_codes(table, "include", problems),
        exclude=_codes(table, "exclude", problems),
        top=chosen_top,
        table=(path.parent / source) if source else None,
        columns={"name": "name", "group": "group", "source": "source", **columns},
        groups={name: tuple(codes) for name, codes in groups.items()},
        header=_count(table, "header", "items.header", problems),
        sheet=sheet,
    )


def slug(name: str) -> str:
    """A name as a card field or id part (letters, digits and single _): `Fläche (km²)` -> `fläche_km2`; empty
    for a name without a letter or digit."""
    plain = re.sub(r"\W+", "_", name.replace("²", "2").replace("³", "3"))
    return re.sub(r"_+", "_", plain).strip("_").lower()


def table_field(column: str) -> str:
    """The card field of a user's table column: its `slug`, in a namespace of its own where the slug is one
    of geodeck's own fields (`OWN_FIELDS`: a column `source` is the field `source_value`), so a user's column
    never replaces a card's name, group, citation or the optimiser's flag."""
    name = slug(column) or "value"
    return f"{name}_value" if name in OWN_FIELDS else name


def numeric_fields() -> list[str]:
    """The country table's numeric fields a category may compare (pipeline/fields.toml)."""
    return [name for name, f in field_table().items() if f.master and f.dtype in NUMERIC and f.range is not None]


def _categories(value, rules: dict, own_table: bool, problems: Problems) -> tuple[Category, ...]:
    """The recipe's categories; none for a game whose engine compares fixed fields (the World Game's facts)."""
    if value is None and rules.get("fields"):
        return ()
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.say(NO_CATEGORIES)
        return ()
    low, high = rules.get("categories", [3, 8])
    if not low <= len(value) <= high:
        problems.say_plural(CATEGORY_COUNT, len(value), compared=low if low == high else f"{low}-{high}")
    from pipeline.render.pictograms import PICTOGRAMS  # reportlab: not imported by the CLI's start

    fixed = rules.get("fields")
    known = numeric_fields()
    icons = tuple(PICTOGRAMS)
    found, seen = [], set()
    card_fields: dict[str, str] = {}  # a table's card field -> the column it comes from
    for n, entry in enumerate(value, 1):
        where = f"categories[{n}]"
        name = entry.get("field")
        if not isinstance(name, str) or not name:
            problems.say(FIELD_MISSING, key=f"{where}.field", fields=", ".join(known))
            continue
        if name in seen:
            problems.say(FIELD_TWICE, key=f"{where}.field", value=shown(name))
        elif own_table and (other := card_fields.get(table_field(name))) is not None:
            problems.say(
                SAME_FIELD, key=f"{where}.field", value=shown(name), other=shown(other), field=repr(table_field(name))
            )
        seen.add(name)
        card_fields.setdefault(table_field(name), name)
        if isinstance(entry.get("words"), dict):
            _unknown(entry["words"], f"{where}.words", problems, KEYS["words"])
        if not own_table and name not in known:
            problems.say(FIELD_UNKNOWN, key=f"{where}.field", value=shown(name), fields=", ".join(known))
        if fixed and name not in fixed:
            problems.say(FIELD_FIXED, key=f"{where}.field", value=shown(name), fields=", ".join(fixed))
        if "column" in entry:
            problems.say(NO_COLUMN, key=f"{where}.column")
        if (category := categories.parse(entry, where, problems, icons, problems.lang)) is not None:
            found.append(category)
    return tuple(found)


def _jokers(value, rules: dict, problems: Problems) -> tuple[tuple[str, str], ...]:
    """Jokers: none, or pairs of two different groups (continents, or the table's groups)."""
    if not value:
        return ()
    if not rules.get("jokers"):
        problems.say(NO_JOKERS)
        return ()
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(g, str) for g in p) and p[0] != p[1] for p in value
    ):
        problems.say(JOKER_PAIRS, example=JOKER_EXAMPLE)
        return ()
    return tuple((a, b) for a, b in value)
