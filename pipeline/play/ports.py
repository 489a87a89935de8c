"""What `geodeck play` reads of a game (pipeline/framework/contracts.py: ports): its `terminal`, the table
drawn for a human (loop.py), and the rulebook's variants it declares (variants.py)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pipeline.framework.contracts import Port, member
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language

if TYPE_CHECKING:  # annotations only
    from rich.console import RenderableType

    from pipeline.play.view import View


@dataclass(frozen=True)
class Variant:
    """One of the rulebook's variants (`geodeck play GAME --variant NAME[=VALUE]`, variants.py)."""

    help: str  # "NAME[=VALUE]: what the rulebook calls it"
    options: Callable[[str], dict]  # VALUE (empty without "=") -> the engine's options; ValueError: a bad value


class TerminalModule(Protocol):
    """`terminal`, `view` a `pipeline.play.view.View`: `seat_names(players, lang)`, `board(state, player,
    view)` (what `player` may see), `label(state, action, view, own)` (a move in words, hidden details only
    when `own`), `rules(view)`. Every word is a message of the catalogues (`view.say`). Optional: the types
    below."""

    def seat_names(self, players: int, lang: Language, /) -> list[str]: ...
    def board(self, state: Any, player: int, view: "View", /) -> "RenderableType": ...
    def label(self, state: Any, action: int, view: "View", own: bool, /) -> str: ...
    def rules(self, view: "View", /) -> str: ...


Moves = Callable[[Any, list[int], "View"], "RenderableType | None"]  # the numbered legal moves laid out (a grid)
Progress = Callable[[Any], int]  # how many tricks or rounds are revealed so far
Revealed = Callable[[Any, int, "View"], str]  # trick or round `index` in words, shown as it is revealed
FreeText = Callable[[Any, list[int], "View"], str | None]  # the prompt of a decision typed as text, else None
Read = Callable[[Any, list[int], str, "View"], int | str]  # a typed answer: its move, or why it is none
Variants = Mapping[str, Variant]  # the rulebook's variants by name
RefusalWords = Callable[[Any, dict, "View"], dict[str, str]]  # the words of an engine's core.Refusal fields
Refused = Callable[[Any, "View"], str | None]  # why a human cannot play this game (the engine's) here, else None
# The cards `player` sees, by place (its heading, then each card's id and name): a page draws them as pictures
CardsSeen = Callable[[Any, int, "View"], list[tuple[str, list[tuple[str, str]]]]]

PORTS = (
    Port(
        "terminal",
        TerminalModule,
        {
            "moves": Moves,
            "progress": Progress,
            "revealed": Revealed,
            "free_text": FreeText,
            "read": Read,
            "VARIANTS": Variants,
            "refusal_words": RefusalWords,
            "refused": Refused,
            "cards_seen": CardsSeen,
        },
    ),
)


def terminal(game: GameDefinition) -> TerminalModule:
    """The game's terminal; a one-line error naming the module where its slice has none."""
    return game.needed("terminal", "played in the terminal")


def moves(module: TerminalModule) -> Moves | None:
    return member(module, "moves")


def progress(module: TerminalModule) -> Progress | None:
    return member(module, "progress")


def revealed(module: TerminalModule) -> Revealed:
    """`revealed`, which a terminal with `progress` has (checked with it)."""
    return member(module, "revealed")


def free_text(module: TerminalModule) -> FreeText | None:
    return member(module, "free_text")


def read(module: TerminalModule) -> Read:
    """`read`, which a terminal with `free_text` has."""
    return member(module, "read")


def variants(module: TerminalModule) -> Variants:
    return member(module, "VARIANTS") or {}


def refusal_words(module: TerminalModule) -> RefusalWords | None:
    return member(module, "refusal_words")


def refused(module: TerminalModule) -> Refused | None:
    return member(module, "refused")


def cards_seen(module: TerminalModule) -> CardsSeen | None:
    return member(module, "cards_seen")
