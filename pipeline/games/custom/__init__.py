"""Custom decks: a deck recipe (docs/recipes.md) made a game of its own, `custom-<name>`.

`geodeck deck new RECIPE` publishes `output/decks/custom-<name>/` with its templates (deck spec, card layout,
play-check thresholds) beside its versions; every published custom deck is a game (`games()`, read by the
registry) of the family of the recipe's `game` (GameDefinition.family: that game's package, from its definition
in the registry), played, printed and play-checked with the family's engine, bots, notation, terminal and accessories,
its cards drawn by the family's renderer (countries) or by `grouped`'s (a table's items, countries in the
recipe's groups); no module of this slice imports another game's.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import paths, readers
from pipeline.framework.definition import GameDefinition
from pipeline.jsonfile import Unreadable

PREFIX = "custom-"
TEMPLATES = "templates"  # the folder of a custom deck's templates, beside its versions
GROUPED = f"{__name__}.grouped"  # the package of a deck of items in groups: its own card renderer


def definition(
    name: str, base: GameDefinition, items: bool, templates: Path | None = None, players: int | None = None
) -> GameDefinition:
    """The game `custom-<name>` of the recipe game `base` (its definition, where a name became a game): this
    slice's deck module (and, for `items` in groups, the card renderer of its package `grouped`), every other
    module its family's (the recipe game's package, GameDefinition.family); its templates in `templates`
    (default: beside its published versions), played by `players` by default (the recipe game's default)."""
    game = f"{PREFIX}{name}"
    return GameDefinition(
        name=game,
        package=GROUPED if items else __name__,
        family=base.package,
        default_players=players or base.default_players,
        input_table=f"custom/{name}/items.parquet",
        length_unit=base.length_unit,
        card_verdicts=base.card_verdicts,
        accessories_help=base.accessories_help,
        deck_reads=(f"custom/{name}/recipe.json",),
        in_build=False,
        made_by=f"geodeck deck new RECIPE (the recipe of {game})",
        templates=templates or paths.DECKS_DIR / game / TEMPLATES,
    )


def games(declared: Mapping[str, GameDefinition]) -> list[GameDefinition]:
    """A game per published custom deck (a folder output/decks/custom-<name>/ with LATEST and templates) whose
    recipe game is one of the `declared` games (the registry's, by name)."""
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
            base = declared[head["base"]]
            found.append(
                definition(folder.name.removeprefix(PREFIX), base, "item" in deck["kinds"], None, head["players"])
            )
        except (
            Unreadable,
            KeyError,
            TypeError,
        ):  # a damaged spec (or no such game): `geodeck deck new` writes it again
            continue
    return found


def unmade(name: str) -> str | None:
    """The fix for a custom deck `name` not published here: the command that publishes it."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        return None
    return f"{name} is not built yet: `geodeck deck new RECIPE` publishes it from its recipe (docs/recipes.md)"


if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.framework import contracts

    from . import commands, deck

    _commands: contracts.CommandsModule = commands
    _deck: deck_ports.DeckModule = deck
    _deck_metadata: deck_ports.Metadata = deck.metadata
    _deck_reasons: deck_ports.Reasons = deck.reasons
