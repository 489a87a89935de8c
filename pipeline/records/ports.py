"""What records and replay read of a game (pipeline/framework/contracts.py: ports): its `notation`, moves
as stable text (docs/records.md)."""

from collections.abc import Callable
from typing import Any, Protocol

from pipeline.framework.contracts import Port, member
from pipeline.framework.definition import GameDefinition


class NotationModule(Protocol):
    """`notation`: `card_ids(game)` (the cards a deal orders), `write(state, action)`, `read(state, text)`
    (ValueError naming the problem). Optional: `choices`, `choose`."""

    def card_ids(self, game: Any, /) -> tuple[str, ...]: ...
    def write(self, state: Any, action: int, /) -> str: ...
    def read(self, state: Any, text: str, /) -> int: ...


# decisions that are not moves (Länder toppen's Russia and Turkey at scoring): as text, and made from it
Choices = Callable[[Any], list[str]]
Choose = Callable[[Any, str], None]

PORTS = (Port("notation", NotationModule, {"choices": Choices, "choose": Choose}),)


def notation(game: GameDefinition) -> NotationModule:
    """The game's notation; a one-line error naming the module where its slice has none."""
    return game.needed("notation", "recorded or replayed")


def choices(module: NotationModule) -> Choices | None:
    return member(module, "choices")


def choose(module: NotationModule) -> Choose | None:
    return member(module, "choose")
