"""What the print engine reads of a game (pipeline/framework/contracts.py: ports): its card renderer
`cards` (printing.py, kit.py, rules.py, setup.py) and its `accessories` (accessories.py), and what both
draw from (licences.py)."""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pipeline.framework.contracts import Port, member
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language

if TYPE_CHECKING:  # annotations only
    from pipeline.render.context import CardContext
    from pipeline.render.layouts import Layout
    from pipeline.render.text import Box


class CardsModule(Protocol):
    """`cards`: the card renderer. Optional: `steps`, `art`, `title`, `printed`, `SOURCES`, `FOR_SALE`,
    `drawn_by`."""

    def check(self, card: dict, ctx: "CardContext", /) -> None: ...
    def front(self, canvas: Any, card: dict, ctx: "CardContext", /) -> None: ...
    def back(self, canvas: Any, card: dict, ctx: "CardContext", /) -> None: ...


class AccessoriesModule(Protocol):
    """`accessories`: the pages beside the cards. Optional: `rules_words`, `SOURCES`, `FOR_SALE`."""

    def draw(
        self, canvas: Any, deck: dict, ctx: "CardContext", words: dict, paper_name: str, paper: tuple[float, float], /
    ) -> None: ...


Steps = Callable[[list[dict], "CardContext"], dict[str, float]]  # each field's one size across the deck (pt)
Art = Callable[[Any, list[dict], "Box", "CardContext"], None]  # the kit cover's picture of the deck in a box
Title = Callable[[dict, Language], str]  # the deck's title in a language, where the card words' is not it
Printed = Callable[[dict, Language, "Layout | None"], dict[str, str]]  # a card's printed words: the rules' example
RulesWords = Callable[[dict, "Layout"], dict[str, str]]  # the deck's words for the kit rules' {placeholders}
Sources = Sequence[str]  # what a module draws from besides the deck (sources/<name>.toml), credited by the kit
ForSale = Mapping[str, str]  # a source that may not be sold -> its stand-in in a print for sale
DrawnBy = Callable[[dict], Sequence[str]]  # the sources a deck's cards draw from, where not all of SOURCES

PORTS = (
    Port(
        "cards",
        CardsModule,
        {
            "steps": Steps,
            "art": Art,
            "title": Title,
            "printed": Printed,
            "SOURCES": Sources,
            "FOR_SALE": ForSale,
            "drawn_by": DrawnBy,
        },
    ),
    Port("accessories", AccessoriesModule, {"rules_words": RulesWords, "SOURCES": Sources, "FOR_SALE": ForSale}),
)


def cards(game: GameDefinition) -> CardsModule:
    return game.module("cards")


def accessories(game: GameDefinition) -> AccessoriesModule:
    return game.module("accessories")


def steps(module: CardsModule) -> Steps | None:
    return member(module, "steps")


def art(module: CardsModule) -> Art | None:
    return member(module, "art")


def title(module: CardsModule) -> Title | None:
    return member(module, "title")


def printed(module: CardsModule) -> Printed | None:
    return member(module, "printed")


def rules_words(module: AccessoriesModule) -> RulesWords | None:
    return member(module, "rules_words")


def sources(module: CardsModule | AccessoriesModule) -> Sources:
    return member(module, "SOURCES") or ()


def for_sale(module: CardsModule | AccessoriesModule) -> ForSale:
    return member(module, "FOR_SALE") or {}


def drawn_by(module: CardsModule | AccessoriesModule) -> DrawnBy | None:
    return member(module, "drawn_by")
