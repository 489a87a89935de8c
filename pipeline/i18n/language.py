"""A language as the stages take it: made once where its code enters (the command line, the build graph, the
studio: `registry.language(code)`) and passed down, so no stage turns a code into a language again."""

from dataclasses import dataclass
from pathlib import Path

from babel import Locale


@dataclass(frozen=True)
class Language:
    """A registered language: its code (`--lang`, its catalogue's folder), its CLDR locale (numbers, lists,
    country and city names, through Babel) and its catalogue (None: the source language, the messages)."""

    code: str
    locale: Locale
    catalogue: Path | None

    def __str__(self) -> str:
        """Its code, as Babel's `Locale` prints its identifier: a file name's part, a JSON value, a message's."""
        return self.code

    @property
    def name(self) -> str:
        """The language's own name, e.g. "français"."""
        return self.locale.get_display_name(self.locale) or self.code

    def field(self, stem: str) -> str:
        """The name of a card field translated into this language (`name` -> `name_fr`: docs/languages.md)."""
        return f"{stem}_{self.code}"
