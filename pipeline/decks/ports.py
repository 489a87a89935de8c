"""What the deck stage reads of a game (pipeline/framework/contracts.py: ports): its `deck` module, the
deck publisher's (stage.py) and the changelog's (reasons.py)."""

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pipeline.framework.contracts import Port, member
from pipeline.framework.definition import GameDefinition

if TYPE_CHECKING:  # annotations only
    import pandas as pd

    from pipeline.decks.card import Card
    from pipeline.decks.spec import DeckSpec


class DeckModule(Protocol):
    """`deck`: the cards of a deck from the game's input table. Optional: `metadata`, `reasons`."""

    def cards(self, table: "pd.DataFrame", spec: "DeckSpec", /) -> "list[Card]": ...


# the deck's further fields and the build files they were read from (`reads`: the definition's `deck_reads`)
Metadata = Callable[[Path, tuple[str, ...]], tuple[dict, dict[str, str]]]
Reasons = Callable[["pd.DataFrame", "DeckSpec"], "pd.DataFrame"]  # why each candidate is a card or not

PORTS = (Port("deck", DeckModule, {"metadata": Metadata, "reasons": Reasons}),)


def deck(game: GameDefinition) -> DeckModule:
    return game.module("deck")


def metadata(module: DeckModule) -> Metadata | None:
    return member(module, "metadata")


def reasons(module: DeckModule) -> Reasons | None:
    return member(module, "reasons")
