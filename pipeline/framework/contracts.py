"""The game contracts: what a slice's modules provide, as `typing.Protocol`s mypy checks, and how a stage
reads a member a slice may leave out.

Each stage declares the modules it consumes in its own `ports.py` (pipeline/decks/ports.py, render/,
playcheck/, records/, play/): a `Port` per module, its Protocol (the required members) and the types of
its optional members, with one typed accessor per member, the only place a stage probes a game
(`member`). The framework's own are here: the rules engine (`EngineModule`, read by play-check, records and
play), a slice's commands (`CommandsModule`, read by the CLI) and a slice package's `own_language`.

A slice's `__init__.py` checks its modules under `TYPE_CHECKING`: each module against its port's
Protocol (`_cards: render.CardsModule = cards`) and each optional member it has against its type
(`_art: render.Art = cards.art`), so that mypy names a missing, renamed or mistyped member;
tests/framework/test_games_ports.py fails when a module or member of a registered slice has no check. Parameters are
positional-only (a slice names them as it likes); states, games and actions are `Any`, each engine having
its own classes (pipeline.framework.core).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # annotations only
    import click

    from pipeline.framework.core import EngineGame


@dataclass(frozen=True)
class Port:
    """A module of a slice as a stage reads it: its name (`cards`), its Protocol and its optional members
    by name, each with its type (what the slice's check assigns the member to)."""

    module: str
    protocol: type
    optional: Mapping[str, object] = field(default_factory=dict)


def member(module: ModuleType | object, name: str) -> Any:
    """The optional member `name` of a slice's module, None where the slice has none: a stage's port
    accessor types it."""
    return getattr(module, name, None)


class EngineModule(Protocol):
    """`engine`: the rules engine: `Game.from_deck(deck, players=N)`, a `core.EngineGame` whose states are
    `core.EngineState`s, and `BOTS` (name -> bot factory `(game, rng) -> policy`) for `geodeck play`."""

    @property
    def Game(self) -> "type[EngineGame]": ...
    @property
    def BOTS(self) -> Mapping[str, Callable]: ...


class CommandsModule(Protocol):
    """`commands` (optional module): the game's own click commands, added to `geodeck`."""

    @property
    def COMMANDS(self) -> "Sequence[click.Command]": ...


OwnLanguage = Callable[[str], str | None]  # a slice package's `own_language(name)`: GameDefinition.own_language

PORTS = (
    Port("engine", EngineModule),
    Port("commands", CommandsModule),
    Port("", object, {"own_language": OwnLanguage}),  # the slice package itself ("": its __init__.py)
)
