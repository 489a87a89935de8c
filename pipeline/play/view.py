"""What a game's `terminal` module is given to draw a table for a human: the language, the seats' names,
the deck's cards by id (their names and values), the card layout (the printed labels) and, where the terminal
draws pictures, a flag drawer."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal


@dataclass(frozen=True)
class View:
    lang: str  # "de" or "en"
    names: tuple[str, ...]  # the seats' names
    cards: dict  # card id -> the card's fields in the deck
    layout: Any  # the game's card layout (pipeline.render.layouts.Layout): labels, continents' names
    # a flag file of the pinned flag source drawn as a picture for this terminal (pipeline.play.pictures);
    # None where the terminal shows no pictures
    flag: Callable[[str], Any] | None = None

    def say(self, de: str, en: str) -> str:
        """The German or the English text, by the view's language."""
        return de if self.lang == "de" else en

    def number(self, value) -> str:
        """A card value as the printed cards write it (1.234,5 in German); None is a dash."""
        return "–" if value is None else format_decimal(value, locale="de_DE" if self.lang == "de" else "en_GB")

    def card(self, card_id: str) -> str:
        """A card's name in the view's language (its id when the deck has no name)."""
        fields = self.cards.get(card_id, {})
        return fields.get(f"name_{self.lang}") or fields.get("name") or card_id
