"""The game registry: every game by name, for the door alone.

The CLI (pipeline.cli) turns a name into its `GameDefinition` here, once, and passes the definition on;
the build graph (pipeline.build.graph) is the one other reader: it makes a deck step for each registered
game. No stage imports this module. A slice is a subpackage `pipeline/games/<game>/` whose `__init__.py`
defines `GAME = GameDefinition(...)`; it is found by listing pipeline/games/, so a new game is a new
folder. A family (pipeline/games/grid/: the grid card game's shared modules, definition.py) is a package
without `GAME` or `games()`: the registry passes it over, its games name it in their definitions. A game
defined elsewhere (a test's toy game) calls `register(definition)`. A slice that makes games
from data (pipeline/games/region/: one game per published region deck) defines `games(declared)` returning
their definitions instead (`declared`: the games the slices declare, by name, which a made game may be of: a
custom deck's recipe game); its commands exist before it has made any, and it may define `unmade(name)`: how to make
the game `name` it has not made yet (the one-line fix an unknown name is refused with), or None, and
`damaged()`: a line for each published deck it could not make a game of.
"""

import importlib
import pkgutil

import pipeline.games
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition

_REGISTRY: dict[str, GameDefinition] = {}
_MAKERS: list[str] = []  # packages of the slices that make games (`games()`)
_DISCOVERED = False
_DECLARED: dict[str, GameDefinition] = {}  # the games the slices declare (`_discover`)

__all__ = ["commands", "damaged", "get", "names", "refresh", "register", "registered", "unmade"]


def register(definition: GameDefinition) -> GameDefinition:
    """Add a game (replacing one of the same name); returns it."""
    _REGISTRY[definition.name] = definition
    return definition


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    slices = [
        importlib.import_module(f"pipeline.games.{module.name}")
        for module in pkgutil.iter_modules(pipeline.games.__path__)
        if module.ispkg
    ]
    for slice_ in slices:
        if isinstance(getattr(slice_, "GAME", None), GameDefinition):
            _REGISTRY.setdefault(slice_.GAME.name, slice_.GAME)
    declared = dict(_REGISTRY)  # the games the slices declare, which the games the others make may be of
    _DECLARED.update(declared)
    for slice_ in slices:
        if callable(getattr(slice_, "games", None)):
            _MAKERS.append(slice_.__name__)
            for definition in slice_.games(declared):
                _REGISTRY.setdefault(definition.name, definition)


def refresh() -> list[str]:
    """Add the games the slices that make games have made since they were discovered (a deck another process
    published: the studio's workers); the names added."""
    registered()
    added = []
    for package in _MAKERS:
        for definition in importlib.import_module(package).games(_DECLARED):
            if definition.name not in _REGISTRY:
                added.append(register(definition).name)
    return added


def registered() -> dict[str, GameDefinition]:
    """Every game, by name, in name order."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def names() -> list[str]:
    return list(registered())


def get(name: str) -> GameDefinition:
    """The game called `name`; an unknown name is a user error listing the known games."""
    games = registered()
    if name not in games:
        raise GeodeckError(unmade(name) or f"unknown game {name!r}; known games: {', '.join(games)}")
    return games[name]


def unmade(name: str) -> str | None:
    """How to make the game `name` that a slice making games has not made yet (its `unmade`), or None."""
    registered()
    for package in _MAKERS:
        if fix := getattr(importlib.import_module(package), "unmade", lambda _name: None)(name):
            return fix
    return None


def damaged() -> dict[str, str]:
    """{name: the line with the fix} of each published deck a slice making games could not make a game of
    (its `damaged()`): `verify` reports them, never skips them."""
    registered()
    found: dict[str, str] = {}
    for package in _MAKERS:
        found |= getattr(importlib.import_module(package), "damaged", dict)()
    return found


def commands() -> list:
    """Every game's own CLI commands and those of the slices that make games, each command once."""
    found: dict[str, object] = {}
    for definition in registered().values():
        for command in definition.commands():
            found.setdefault(command.name, command)
    for package in _MAKERS:
        try:
            module = importlib.import_module(f"{package}.commands")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.commands":
                raise
            continue
        for command in module.COMMANDS:
            found.setdefault(command.name, command)
    return list(found.values())
