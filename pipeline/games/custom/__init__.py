"""Custom decks: a deck recipe (docs/recipes.md) made a game of its own, `custom-<name>`.

`geodeck deck new RECIPE` publishes `output/decks/custom-<name>/`, each version with the templates it was
made with (deck spec, card layout, play-check thresholds: pinned in it, pipeline.decks.pinned); every published
custom deck is a game (`games()`, read by the registry) of the family of the recipe's `game`
(GameDefinition.family: that game's package, from its definition in the registry), played, printed and
play-checked with the family's engine, bots, notation, terminal and accessories, its cards drawn by the family's
renderer (countries) or by `grouped`'s (a table's items, countries in the recipe's groups); no module of this
slice imports another game's."""

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import paths, readers
from pipeline.decks import versions
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.jsonfile import Unreadable

PREFIX = "custom-"
TEMPLATES = "templates"  # the folder of a custom deck's templates: in each version, and in its build folder
GROUPED = f"{__name__}.grouped"  # the package of a deck of items in groups: its own card renderer


def definition(
    name: str, base: GameDefinition, items: bool, templates: Path | None = None, players: int | None = None
) -> GameDefinition:
    """The game `custom-<name>` of the recipe game `base` (its definition, where a name became a game): this
    slice's deck module (and, for `items` in groups, the card renderer of its package `grouped`), every other
    module its family's (the recipe game's package, GameDefinition.family); its templates in `templates` (a
    build's, or a published version's: each version pins its own, pipeline.decks.pinned; default: those of the
    version LATEST names), played by `players` by default (the recipe game's default)."""
    game = f"{PREFIX}{name}"
    if templates is None:
        templates = paths.DECKS_DIR / game / str(_shown(paths.DECKS_DIR / game)) / TEMPLATES
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
        templates=templates,
        pinned_templates=True,
    )


def games(declared: Mapping[str, GameDefinition]) -> list[GameDefinition]:
    """A game per published custom deck (a folder output/decks/custom-<name>/ with a version) whose recipe game
    is one of the `declared` games (the registry's, by name), reading the templates of the version LATEST names;
    a folder whose templates cannot be read is no game but a problem (`damaged`: what `verify` and every command
    naming it say)."""
    _DAMAGED.clear()
    if not paths.DECKS_DIR.is_dir():
        return []
    found: list[GameDefinition] = []
    for folder in sorted(paths.DECKS_DIR.glob(f"{PREFIX}*")):
        version = _shown(folder)
        if version is None:
            continue
        templates = folder / version / TEMPLATES
        spec = templates / "decks" / f"{folder.name}.toml"
        try:
            deck = readers.read("toml", spec)
            head = deck["deck"]
            base = declared[head["base"]]
            found.append(
                definition(folder.name.removeprefix(PREFIX), base, "item" in deck["kinds"], templates, head["players"])
            )
        except (Unreadable, KeyError, TypeError) as exc:
            _DAMAGED[folder.name] = damage(folder, spec, exc)
    return found


_DAMAGED: dict[str, str] = {}  # a published custom deck's folder name -> why it is no game (`games`)


def damaged() -> dict[str, str]:
    """{name: the line with the fix} of each published custom deck whose templates cannot be read (after
    `games`)."""
    return dict(sorted(_DAMAGED.items()))


def damage(folder: Path, spec: Path, exc: Exception) -> str:
    """The line of a custom deck `folder` whose newest version's templates (`spec` among them) are unreadable."""
    command = f"`geodeck deck new RECIPE` (the recipe of {folder.name})"
    if (folder / TEMPLATES).is_dir() and not spec.parent.parent.is_dir():
        return (
            f"{folder / TEMPLATES} lies beside the versions of {folder.name}, not in them (a deck published before "
            f"its versions kept their templates); {command} moves it into them"
        )
    what = "is missing" if isinstance(exc, Unreadable) and not spec.exists() else "cannot be read"
    version = spec.parent.parent.parent
    return (
        f"{spec} {what}, so {folder.name} cannot be printed as published; restore it with "
        f"`git checkout -- {version}`, or delete the version (`rm -r {version}`) and run {command}"
    )


def _shown(folder: Path) -> str | None:
    """The version of `folder` LATEST names, else its newest (None: nothing published)."""
    try:
        return versions.latest(folder) or versions.newest(folder)
    except GeodeckError:
        return versions.newest(folder)


def unmade(name: str) -> str | None:
    """The fix for a custom deck `name` not published here (the command that publishes it), or why a published
    one is no game (`damaged`)."""
    if not name.startswith(PREFIX) or len(name) == len(PREFIX):
        return None
    if name in _DAMAGED:
        return _DAMAGED[name]
    return f"{name} is not built yet: `geodeck deck new RECIPE` publishes it from its recipe (docs/recipes.md)"


if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.framework import contracts

    from . import commands, deck

    _commands: contracts.CommandsModule = commands
    _deck: deck_ports.DeckModule = deck
    _deck_metadata: deck_ports.Metadata = deck.metadata
    _deck_reasons: deck_ports.Reasons = deck.reasons
