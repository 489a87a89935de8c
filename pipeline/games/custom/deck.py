"""A custom deck's cards: the recipe's chosen items (build/custom/<name>/items.parquet, `in_deck`), each a
card of its spec's kind with its values' provenance, then the recipe's jokers; the World Game's cards are
made by its family's deck module (the recipe game's package, templates/recipes/games.toml) from the chosen
countries. deck.json carries the recipe's categories (field,
direction) and where its items came from (`recipe.json` beside the table: the recipe's and table's sha256)."""

import importlib
from pathlib import Path

import pandas as pd

from pipeline import readers
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.games.custom import recipe
from pipeline.hashing import file_sha256

RECIPE = "recipe.json"  # beside the items table: the deck's categories, jokers and sources


def chosen(items: pd.DataFrame, name: str) -> pd.DataFrame:
    picked = items[items["in_deck"].astype(bool)]
    if picked.empty:
        raise GeodeckError(f"build/custom/{name}/items.parquet marks no item in_deck; run `geodeck deck new RECIPE`")
    return picked


def cards(items: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    picked = chosen(items, spec.game)
    base = spec.options["base"]
    if recipe.games()[base].get("fields"):  # its engine compares fixed fields (the World Game's facts): the
        if "family" not in spec.options:  # a spec written before it named its family
            raise GeodeckError(
                f"{spec.game}: its deck spec names no family; make it again with `geodeck deck new RECIPE`"
            )
        family = importlib.import_module(f"{spec.options['family']}.deck")  # family's deck module makes its cards
        return family.cards(picked.drop(columns=["card", "label", "in_deck", "reason"]), spec)
    kind = next(k for k in spec.kinds if k != "joker")
    out = [Card.from_row(f"{spec.id_prefix}-{row['card']}", kind, row, spec) for row in picked.to_dict("records")]
    jokers = spec.options.get("jokers", [])
    out += [
        Card(f"{spec.id_prefix}-joker-{n}", "joker", {"continents": list(pair)}) for n, pair in enumerate(jokers, 1)
    ]
    return out


def reasons(items: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each candidate is a card or not (pipeline.decks.reasons): the recipe's selection and the optimiser."""
    return pd.DataFrame(
        {"card": spec.id_prefix + "-" + items["card"].astype(str), "label": items["label"], "reason": items["reason"]}
    )


def metadata(build_root: Path, reads: tuple[str, ...]) -> tuple[dict, dict[str, str]]:
    """The deck's `categories` (field and direction, what the engine compares), its `groups` (a table's:
    the majorities' piles; countries: the continents) and its `recipe` (base game, language, sources), from
    build/custom/<name>/recipe.json (`reads`: the definition's `deck_reads`)."""
    (relative,) = reads
    path = build_root / relative
    made = readers.read_input("custom", path)
    declared = {key: made[key] for key in ("categories", "groups") if made.get(key)}
    recipe = {key: made[key] for key in ("base", "lang", "sources")}
    return declared | {"recipe": recipe}, {f"build/{relative}": file_sha256(path)}
