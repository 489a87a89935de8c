"""Custom decks: a deck recipe (docs/recipes.md) made a game of its own, `custom-<name>`.

`geodeck deck new RECIPE` publishes `output/decks/custom-<name>/` with its templates (deck spec, card layout,
play-check thresholds) beside its versions; every published custom deck is a game (`games()`, read by the
registry) played, printed and play-checked with its base game's engine, bots, notation, terminal and
accessories (the recipe's `game`), its cards drawn by the base game's renderer (countries) or this slice's
(the items of a user's table).
"""

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import paths, readers
from pipeline.games.definition import GameDefinition
from pipeline.jsonfile import Unreadable

PREFIX = "custom-"
TEMPLATES = "templates"  # the folder of a custom deck's templates, beside its versions
BASES = {"laender-toppen": "pipeline.games.laender_toppen", "world-game": "pipeline.games.world_game"}


@dataclass(frozen=True)
class CustomDefinition(GameDefinition):
    """A custom deck's game: this slice's deck module (and card renderer for a table's items), the base
    game's other modules."""

    base: str = "laender-toppen"
    items: bool = False  # the cards are a user's table's items (drawn by this slice), not countries

    def module(self, name: str):
        own = name in ("deck", "commands") or (name == "cards" and self.items)
        return super().module(name) if own else GameDefinition.module(self.base_game, name)

    @property
    def base_game(self) -> GameDefinition:
        return importlib.import_module(BASES[self.base]).GAME


def definition(
    name: str, base: str, items: bool, templates: Path | None = None, players: int | None = None
) -> CustomDefinition:
    """The game `custom-<name>` of base game `base`, its templates in `templates` (default: beside its
    published versions), played by `players` by default (the base game's default)."""
    game = f"{PREFIX}{name}"
    base_definition = importlib.import_module(BASES[base]).GAME
    return CustomDefinition(
        name=game,
        package=__name__,
        default_players=players or base_definition.default_players,
        input_table=f"custom/{name}/items.parquet",
        length_unit=base_definition.length_unit,
        card_verdicts=base_definition.card_verdicts,
        accessories_help=base_definition.accessories_help,
        deck_reads=(f"custom/{name}/recipe.json",),
        in_build=False,
        made_by=f"geodeck deck new RECIPE (the recipe of {game})",
        templates=templates or paths.DECKS_DIR / game / TEMPLATES,
        base=base,
        items=items,
    )


def games() -> list[GameDefinition]:
    """A game per published custom deck (a folder output/decks/custom-<name>/ with LATEST and templates)."""
    if not paths.DECKS_DIR.is_dir():
        return []
    found: list[GameDefinition] = []
    for folder in sorted(paths.DECKS_DIR.glob(f"{PREFIX}*")):
        spec = folder / TEMPLATES / "decks" / f"{folder.name}.toml"
        if not (folder / "LATEST").is_file() or not spec.is_file():
            continue
        try:
            deck = readers.read("toml", spec)
            head = deck["deck"]
            found.append(
                definition(
                    folder.name.removeprefix(PREFIX), head["base"], "item" in deck["kinds"], None, head["players"]
                )
            )
        except (Unreadable, KeyError, TypeError):  # a damaged spec: `geodeck deck new` writes it again
            continue
    return found


def unmade(name: str) -> str | None:
    """The fix for a custom deck `name` not published here: the command that publishes it."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        return None
    return f"{name} is not built yet: `geodeck deck new RECIPE` publishes it from its recipe (docs/recipes.md)"


if TYPE_CHECKING:  # mypy checks the slice's modules against the game contracts
    from pipeline.games import contracts

    from . import cards, commands, deck

    _deck: contracts.DeckModule = deck
    _cards: contracts.CardsModule = cards
    _commands: contracts.CommandsModule = commands
