"""What a game's `terminal` module is given to draw a table for a human: the language, the seats' names,
the deck's cards by id (their names and values), the card layout (the printed labels), where the terminal
draws pictures, a flag drawer, and the deck's data beside its cards (its recipe). Every word it shows is a
message of the catalogues (pipeline.i18n)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline.decks.values import card_name
from pipeline.i18n.catalogue import clauses, labelled, translate
from pipeline.i18n.language import Language
from pipeline.render.numbers import number


@dataclass(frozen=True)
class View:
    lang: Language  # made where its code entered (the command line, the studio)
    names: tuple[str, ...]  # the seats' names
    cards: dict  # card id -> the card's fields in the deck
    layout: Any  # the game's card layout (pipeline.render.layouts.Layout): labels, continents' names
    # a flag file of the pinned flag source drawn as a picture for this terminal (pipeline.play.pictures);
    # None where the terminal shows no pictures
    flag: Callable[[str], Any] | None = None
    deck: dict = field(default_factory=dict)  # the deck's data beside its cards (its `recipe`, for one)

    def say(self, message: str, **fields: Any) -> str:
        """`message` (its English text, the msgid) in the view's language, its `{fields}` filled in."""
        return translate(self.lang, message, **fields)

    def clauses(self, parts: list[str]) -> str:
        """Parts joined by semicolons as the language writes them (`catalogue.clauses`)."""
        return clauses(self.lang, parts)

    def labelled(self, label: str, value: Any) -> str:
        """ "label: value" in the view's language ("Rouge : N sous Koblenz")."""
        return labelled(self.lang, label, value)

    def number(self, value) -> str:
        """A card value as the printed cards write it (pipeline.render.numbers: the language's locale, 1.234,5
        in German, a typographic minus, −49,4); None is a dash."""
        return number(value, self.lang, "#,##0.###")

    def card(self, card_id: str) -> str:
        """A card's name in the view's language (its id when the deck has no name)."""
        return card_name(self.cards.get(card_id, {}), self.lang, card_id)
