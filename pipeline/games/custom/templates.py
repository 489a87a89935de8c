"""A custom deck's three templates, made from its base game's and the recipe: the deck spec (the base's card
kinds with the recipe's categories, its own card count and id prefix), the card layout (the base's, its
categories the recipe's: cards, strips, scoring sheet and terminal read them there) and the base's play-check
thresholds (a section's `no_tiebreak` variant in its place: a custom deck has no tie-break card). Written
beside the deck's versions (output/decks/custom-<name>/templates/), so print, play and play-check read them
like a built-in game's."""

from pathlib import Path

import tomlkit

from pipeline import atomic, readers
from pipeline.decks.categories import Category, field_entry, layout_row
from pipeline.decks.counting import ALL
from pipeline.framework.definition import GameDefinition
from pipeline.games.custom.recipe import Recipe, table_field

JOKER = "joker"
NO_TIEBREAK = "no_tiebreak"  # a play-check section's thresholds for a deck without the base deck's tie-break card


def card_field(recipe: Recipe, category: Category) -> str:
    """The card field of a category: the country table's column, or the user's column's (`table_field`)."""
    return category.field if recipe.items.table is None else table_field(category.field)


def spec(recipe: Recipe, base: GameDefinition, cards: int, ranges: dict[str, tuple[float, float]]) -> dict:
    """The deck spec; `ranges` the values' range of each field of a user's table (a country field's is its
    column's in pipeline/fields.toml). A land neighbour that is no card still counts (the base's
    `counting.neighbours_also` made "all", as the kit then says)."""
    document = readers.read_input("toml", base.spec_path)
    deck = {
        "game": recipe.deck_name,
        "title": recipe.title,
        "card_size_mm": document["deck"]["card_size_mm"],
        "id_prefix": f"c-{recipe.name}",
        "card_count": [cards, cards],
        "base": base.name,
        "family": base.package,  # whose deck module makes the cards of a deck of its own fields (deck.py)
        "review_region": "continents",
        "lang": recipe.lang,
    }
    if "counting" in document["deck"] and not recipe.items_deck:  # how the base's countries count, for the kit
        deck["counting"] = counting = dict(document["deck"]["counting"])
        if "neighbours_also" in counting:
            counting["neighbours_also"] = ALL
    if not recipe.categories:  # the base's own categories (the World Game's facts)
        return {**document, "deck": deck}
    fields = {name: entry for name, entry in document["fields"].items() if not entry.get("category")}
    fields.pop("population_density", None)
    text = [name for name in fields if name != "population_density"]
    for category in recipe.categories:
        name = card_field(recipe, category)
        table = recipe.items.table is not None
        fields[name] = entry = field_entry(category, column=name, decimals=6 if table else None)  # a table's as given
        if table:
            low, high = ranges[name]
            entry["range"] = [float(low) * category.scale, float(high) * category.scale]
    names = [card_field(recipe, c) for c in recipe.categories]
    if recipe.items.table is None:  # countries: the base game's card (map, capital, peak), in the recipe's groups
        kinds = {"country": [*text, *names]}
        optional = {"country": sorted({n for kind in document.get("optional", {}).values() for n in kind} & set(text))}
        if recipe.items.groups:
            fields["continents"] = {"type": "list", "column": "groups"}
    else:  # a table's items: the user's names (in the recipe's language), a picture
        fields = {
            "name": {"type": "string", "column": "name"},
            "continents": {"type": "list", "column": "groups"},
            "picture": {"type": "string", "column": "picture"},
            **{n: fields[n] for n in names},
        }
        kinds, optional = {"item": ["name", "continents", "picture", *names]}, {"item": ["picture"]}
    if recipe.jokers:
        kinds[JOKER] = ["continents"]
        deck["jokers"] = [list(pair) for pair in recipe.jokers]
    return {"deck": deck, "kinds": kinds, "optional": optional, "fields": fields}


def layout(recipe: Recipe, base: GameDefinition, groups: list[str], dealt: list[list[int]]) -> dict:
    """The card layout: the base's (its words translated as the base's: `words_context`), with the recipe's
    categories (their words as the recipe gives them, translated where the catalogues have them: a built-in
    recipe's English words), the recipe's language as the deck's own, a table's
    `groups` (their order gives their colours) and the deck's deal ([players, hand cards, rounds], the kit's
    and score sheet's table, where the base prints one)."""
    document = readers.read_input("toml", base.layout_path)
    document |= {"default_lang": recipe.lang, "words_context": base.layout_path.stem}
    rules = document.get("kit", {}).get("rules", {})
    if dealt and "table" in rules:
        rules["table"] = dealt
        if "strips" in document.get("accessories", {}):  # a strip per player of the largest table
            document["accessories"]["strips"] = max(players for players, _, _ in dealt)
    rules.pop("example", None)  # the rulebook's worked example names the base deck's cards
    if recipe.items_deck:
        rules.pop("anatomy", None)  # its legend is the base deck's card's (continents, a table's item has no map)
    if recipe.items.table is not None:
        for row in rules.get("setup", []):  # the setup picture with the deck's items
            for item in row:
                item[3] = "item" if item[3] == "country" else item[3]
    for words in (document.get("words", {}), document.get("accessories", {}).get("words", {})):
        for key in ("title", "back"):  # the back's, the kit's and the strips' title: the deck's
            if key in words:
                words[key] = recipe.title
    if groups:
        document["groups"] = groups
    if recipe.group_word:
        word = recipe.group_word  # the kit's word for a group (its rules, its score sheet): one, or one per language
        document["group_word"] = word.get("", word)
    if not recipe.categories:
        return document
    categories = [layout_row(category, card_field(recipe, category)) for category in recipe.categories]
    return document | {"categories": categories}


def playcheck(base: GameDefinition) -> dict:
    """The play-check thresholds: the base's (their words translated as the base's: `words_context`), each
    section with a `no_tiebreak` variant replaced by it: a custom deck has none of the base deck's special
    cards, so no Antarctica card gives a tie of the totals to its owner (Länder toppen's shared wins)."""
    stem = base.playcheck_path.stem
    document = {"words_context": stem} | readers.read_input("toml", base.playcheck_path)
    for name, section in document.items():
        if isinstance(section, dict) and NO_TIEBREAK in section:
            document[name] = {"words_context": f"{stem}:{name}.{NO_TIEBREAK}"} | section[NO_TIEBREAK]
    return document


def write(
    recipe: Recipe, base: GameDefinition, folder: Path, spec_doc: dict, groups: list[str], dealt: list[list[int]]
) -> None:
    """The three templates into `folder` (decks/, cards/, playcheck/), each written atomically."""
    name = recipe.deck_name
    atomic.write_text(folder / "decks" / f"{name}.toml", tomlkit.dumps(spec_doc))
    atomic.write_text(folder / "cards" / f"{name}.toml", tomlkit.dumps(layout(recipe, base, groups, dealt)))
    atomic.write_text(folder / "playcheck" / f"{name}.toml", tomlkit.dumps(playcheck(base)))
