"""The publish gate that prints: before `geodeck deck new` publishes a deck, its whole kit (every card face,
the rules, every accessory, the sources page) is rendered in memory in the deck's language, as `geodeck print
--kit` renders it; a text that would not fit its box is a refusal naming the recipe key (or the table's
column, or the country to exclude) that wrote it, how long it is and how much its box holds, never a
generated template."""

import re
from collections.abc import Iterator

from pipeline.decks import files
from pipeline.extract import open_store
from pipeline.framework.definition import GameDefinition
from pipeline.games.custom.recipe import Recipe, RecipeError
from pipeline.render import kit, layouts
from pipeline.render.printing import PrintOptions
from pipeline.render.text import DoesNotFit


def check(game: GameDefinition, deck: dict, made: Recipe) -> None:
    """Render the kit of `deck` (the game's staged templates) in the recipe's language; a text that does not
    fit is a RecipeError naming its key (`refusal`)."""
    options = PrintOptions(lang=made.language, draft=True)
    manifest = {"sources": files.used_sources(deck["cards"])}
    try:
        kit.render(game, deck, manifest, options, open_store())
    except DoesNotFit as exc:
        raise RecipeError(str(made.path), [refusal(exc, game, deck, made)]) from None


def refusal(exc: DoesNotFit, game: GameDefinition, deck: dict, made: Recipe) -> str:
    """The line for a text that does not fit: the recipe key (or table row) that wrote it and its fix."""
    size = f"{len(exc.text)} characters, the box holds {exc.holds()} at {exc.floor:g} pt"
    for key, written, fix in sources(game, deck, made):
        if written == exc.text or _unit_matches(written, exc.text):
            return f"{key} {written!r} does not print: {size}; {fix}"
    return f"{exc.text!r} does not print ({exc}): {size}; shorten the recipe's words that make it"


def sources(game: GameDefinition, deck: dict, made: Recipe) -> Iterator[tuple[str, str, str]]:
    """(recipe key, text as printed in the recipe's language, fix) of every word the recipe or its table
    writes on the cards and in the kit."""
    layout = layouts.load(game).localised(made.language)
    shorten = "shorten it"
    yield "recipe.title", made.title, shorten
    for n, row in enumerate(layout.data.get("categories", []), 1):
        words = row["words"]
        yield f"categories[{n}].words.label", words["label"], shorten
        yield f"categories[{n}].words.unit", words["unit"], shorten
    for group in layout.data.get("groups", []):
        key = f"{made.items.table.name}, column {made.items.columns['group']!r}" if made.items.table else "items.groups"
        yield f"{key}: the group", group, "shorten it"
    for card in deck["cards"]:
        fields = card["fields"]
        if made.items.table is not None and fields.get("name"):
            yield f"{made.items.table.name}, column {made.items.columns['name']!r}: the name", fields["name"], shorten
        code = fields.get("iso3") or card["id"].rsplit("-", 1)[-1]  # a country's (an item card's id ends in it)
        for key, name in fields.items():
            if key.startswith("name_") and made.items.table is None:
                yield f"items: {code}'s name", name, f'exclude it (items.exclude = ["{code}"])'


def _unit_matches(unit: str, printed: str) -> bool:
    """Whether `printed` is the unit `unit` ("{n} km²") with a number in its place."""
    if "{n}" not in unit:
        return False
    pattern = "[-+0-9.,\u00a0\u202f ]+".join(re.escape(part) for part in unit.split("{n}"))
    return re.fullmatch(pattern, printed) is not None
