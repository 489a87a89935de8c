"""A deck recipe (docs/recipes.md): which game, which items, which categories, language and title, read from
a TOML file and checked whole, every problem one line naming its key and the fix (`RecipeError`).

    [recipe]      name, game (laender-toppen | world-game), title, lang, cards (20-200), jokers
    [items]       countries: continents, include, exclude, top = {field, n}; or table = "file.csv|xlsx"
                  with its columns name, group, source and picture
    [[categories]] field, direction (higher | lower), pattern, icon, decimals, scale, words = {label, unit, strip}
                  (pipeline/decks/categories.py: the schema a built-in deck spec declares its categories in too)

What a recipe may name is data: the games and their category rules in templates/recipes/games.toml, the
numeric country fields in pipeline/fields.toml, the continents in its `continents` choices.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import readers
from pipeline.decks import categories
from pipeline.decks.categories import Category
from pipeline.errors import GeodeckError
from pipeline.fields import fields as field_table
from pipeline.jsonfile import Unreadable
from pipeline.paths import TEMPLATES_DIR

GAMES = TEMPLATES_DIR / "recipes" / "games.toml"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
CARDS = (20, 200)  # the cards (items and jokers) a recipe may ask for, unless its game deals fewer
NUMERIC = (float, int)


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


def games() -> dict:
    """The games a recipe may name, with their rules (templates/recipes/games.toml)."""
    try:
        return readers.read("toml", GAMES)["games"]
    except (Unreadable, KeyError) as exc:
        raise GeodeckError(f"{GAMES}: not the table of recipe games ({exc}); restore it with git checkout") from exc


def family(game: str) -> str:
    """The package of the game a recipe names (`family` in templates/recipes/games.toml): the family whose
    modules its decks play and print with."""
    try:
        return str(games()[game]["family"])
    except KeyError as exc:
        raise GeodeckError(f"{GAMES}: no family for the recipe game {game!r}; restore it with git checkout") from exc


def load(path: Path) -> Recipe:
    """The recipe in `path`, checked: a `RecipeError` listing every problem."""
    try:
        document = readers.read("recipe", path)
    except Unreadable as exc:
        raise readers.failure("recipe", path, exc) from exc
    problems: list[str] = []
    recipe = _recipe(path, document, problems)
    if problems or recipe is None:
        raise RecipeError(str(path), problems)
    return recipe


def reach(rules: dict, items: int, jokers: int, more_items: bool = True) -> str:
    """The fix for a deck of `items` item cards and `jokers` jokers outside its game's range (`rules`: its
    games.toml table): jokers where the game has them, or (`more_items`) more item cards."""
    low, high = rules.get("cards", CARDS)
    if items + jokers > high:
        return f"ask for at most {high - jokers} item cards (recipe.cards)"
    more = f"ask for {low - jokers} item cards (recipe.cards) where [items] has them"
    if not rules.get("jokers", True):
        return more
    add = f"add {low - items - jokers} jokers (recipe.jokers, each a pair of groups) to reach {low} cards"
    return f"{add}, or {more}" if more_items else add


def _recipe(path: Path, document: dict, problems: list[str]) -> Recipe | None:
    head = _table(document, "recipe", problems)
    known = games()
    game = _text(head, "recipe.game", problems, choices=tuple(known))
    name = _text(head, "recipe.name", problems)
    if name and not NAME.fullmatch(name):
        problems.append(f"recipe.name {name!r}: lower-case letters, digits and '-', at most 40; e.g. europe-40")
    title = _text(head, "recipe.title", problems)
    lang = _text(head, "recipe.lang", problems, default="en")
    rules = known.get(game or "", {})
    jokers = _jokers(head.get("jokers", []), rules, problems)
    cards = head.get("cards")
    low, high = rules.get("cards", CARDS)
    if isinstance(cards, bool) or not isinstance(cards, int):
        problems.append(f"recipe.cards {cards!r}: a whole number of item cards, e.g. {low - len(jokers)}")
        cards = 0
    elif not low <= cards + len(jokers) <= high:
        problems.append(
            f"recipe.cards {cards!r}: {game or 'a game'} deals {low}-{high} cards (items and jokers), "
            f"{cards} and {len(jokers)} jokers make {cards + len(jokers)}; {reach(rules, cards, len(jokers))}"
        )
        cards = 0
    items = _items(path, _table(document, "items", problems), problems)
    categories = _categories(document.get("categories"), rules, items.table is not None, problems)
    for key in sorted(set(document) - {"recipe", "items", "categories"}):
        problems.append(f"{key}: no such table; a recipe has [recipe], [items] and [[categories]]")
    if None in (game, name, title, lang) or problems:
        return None
    return Recipe(path, str(name), str(game), str(title), str(lang), cards, jokers, items, categories)


def _table(document: dict, key: str, problems: list[str]) -> dict:
    value = document.get(key)
    if not isinstance(value, dict):
        problems.append(f"[{key}] is missing; add the table (docs/recipes.md)")
        return {}
    return value


def _text(table: dict, key: str, problems: list[str], choices: tuple = (), default: str | None = None) -> str | None:
    value = table.get(key.split(".")[-1], default)
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{key} is missing or empty; give it as text" + (f": {', '.join(choices)}" if choices else ""))
        return None
    if choices and value not in choices:
        problems.append(f"{key} {value!r} is not one of {', '.join(choices)}")
        return None
    return value


def _codes(table: dict, key: str, problems: list[str]) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        problems.append(f'items.{key}: a list of texts, e.g. ["DEU", "FRA"]')
        return ()
    return tuple(value)


def _items(path: Path, table: dict, problems: list[str]) -> Items:
    continents = _codes(table, "continents", problems)
    choices = field_table()["continents"].choices
    for continent in continents:
        if continent not in choices:
            problems.append(f"items.continents: {continent!r} is no continent; use {', '.join(choices)}")
    top = table.get("top")
    chosen_top = None
    if top is not None:
        if not isinstance(top, dict) or not isinstance(top.get("n"), int) or not isinstance(top.get("field"), str):
            problems.append('items.top: give {field = "population", n = 60}: the n items largest in a field')
        else:
            chosen_top = (top["field"], top["n"])
    source = table.get("table")
    columns = table.get("columns", {})
    if source is not None and not isinstance(source, str):
        problems.append("items.table: the path of a CSV or XLSX file, relative to the recipe")
        source = None
    if not isinstance(columns, dict) or not all(isinstance(v, str) for v in columns.values()):
        problems.append('items.columns: a table of roles to column names, e.g. {name = "Land", group = "Region"}')
        columns = {}
    if unknown := sorted(set(columns) - {"name", "group", "source", "picture"}):
        problems.append(f"items.columns: no role {', '.join(unknown)}; the roles are name, group, source, picture")
    groups = table.get("groups", {})
    if not isinstance(groups, dict) or not all(
        isinstance(codes, list) and all(isinstance(c, str) for c in codes) for codes in groups.values()
    ):
        problems.append('items.groups: a table of groups to ISO3 codes, e.g. {North = ["NOR", "SWE"], South = ["ITA"]}')
        groups = {}
    keys = {"continents", "include", "exclude", "top", "table", "columns", "groups"}
    if unknown := sorted(set(table) - keys):
        problems.append(f"items: no key {', '.join(unknown)}; use {', '.join(sorted(keys))}")
    return Items(
        continents=continents,
        include=_codes(table, "include", problems),
        exclude=_codes(table, "exclude", problems),
        top=chosen_top,
        table=(path.parent / source) if source else None,
        columns={"name": "name", "group": "group", "source": "source", **columns},
        groups={name: tuple(codes) for name, codes in groups.items()},
    )


def numeric_fields() -> list[str]:
    """The country table's numeric fields a category may compare (pipeline/fields.toml)."""
    return [name for name, f in field_table().items() if f.master and f.dtype in NUMERIC and f.range is not None]


def _categories(value, rules: dict, own_table: bool, problems: list[str]) -> tuple[Category, ...]:
    """The recipe's categories; none for a game whose engine compares fixed fields (the World Game's facts)."""
    if value is None and rules.get("fields"):
        return ()
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.append("[[categories]] is missing; add one table per category (field, words)")
        return ()
    low, high = rules.get("categories", [3, 8])
    if not low <= len(value) <= high:
        problems.append(f"categories: {len(value)} given, this game compares {low if low == high else f'{low}-{high}'}")
    from pipeline.render.pictograms import PICTOGRAMS  # reportlab: not imported by the CLI's start

    fixed = rules.get("fields")
    known = numeric_fields()
    icons = tuple(PICTOGRAMS)
    found, seen = [], set()
    for n, entry in enumerate(value, 1):
        where = f"categories[{n}]"
        name = entry.get("field")
        if not isinstance(name, str) or not name:
            problems.append(f"{where}.field is missing; name a numeric field: {', '.join(known)}")
            continue
        if name in seen:
            problems.append(f"{where}.field {name!r} is compared twice; give each field once")
        seen.add(name)
        if not own_table and name not in known:
            problems.append(
                f"{where}.field {name!r} is no numeric field of pipeline/fields.toml; use {', '.join(known)}"
            )
        if fixed and name not in fixed:
            problems.append(f"{where}.field {name!r}: this game's engine compares only {', '.join(fixed)}")
        if "column" in entry:
            problems.append(f"{where}.column: a recipe's category reads the column its field names; remove column")
        if (category := categories.parse(entry, where, problems, icons)) is not None:
            found.append(category)
    return tuple(found)


def _jokers(value, rules: dict, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """Jokers: none, or pairs of two different groups (continents, or the table's groups)."""
    if not value:
        return ()
    if not rules.get("jokers"):
        problems.append("recipe.jokers: this game has no jokers; remove the key")
        return ()
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(g, str) for g in p) and p[0] != p[1] for p in value
    ):
        problems.append('recipe.jokers: a list of pairs of two different groups, e.g. [["Europe", "Asia"]]')
        return ()
    return tuple((a, b) for a, b in value)
