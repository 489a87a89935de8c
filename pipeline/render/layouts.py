"""Card layouts as data: `templates/cards/common.toml` plus `templates/cards/<game>.toml`. A layout in a
language (`localised`) has every string under a `words` key translated by the catalogues (docs/languages.md)."""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, HexColor

from pipeline import readers
from pipeline.decks import categories
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n import catalogue, names, registry
from pipeline.i18n.language import Language
from pipeline.jsonfile import Missing, Unreadable
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import contrast
from pipeline.render.pictograms import PICTOGRAMS
from pipeline.render.text import Box

CARDS_DIR = TEMPLATES_DIR / "cards"


@dataclass(frozen=True)
class Design:
    """A game's design system (`[design]` in its card template): its colours, its type scale, its back
    (`[design.back]`) and its cover (`[design.cover]`); docs/printing.md."""

    game: str
    data: dict

    def colour(self, name: str) -> Color:
        try:
            return HexColor(self.data[name])
        except KeyError:
            raise GeodeckError(f"templates/cards/{self.game}.toml: missing design.{name}") from None

    def pt(self, name: str) -> float:
        """A size of the game's type scale (`type_pt`), in points."""
        try:
            return float(self.data["type_pt"][name])
        except KeyError:
            raise GeodeckError(f"templates/cards/{self.game}.toml: missing design.type_pt.{name}") from None


@dataclass(frozen=True)
class Layout:
    game: str
    data: dict
    common: dict
    path: Path  # the game's template: its stem is the context of its words
    lang: Language | None = None  # the language of its words (None: as written, the source language)
    own_lang: str | None = None  # the deck's own language before the template's `default_lang` (a region's)

    def localised(self, lang: Language) -> "Layout":
        """This layout with its words and the common words in `lang` (read once per template and language)."""
        if lang == self.lang:
            return self
        words = _localised(self.path, lang, _stamp(self.path))
        return Layout(self.game, words, common_in(lang), self.path, lang, self.own_lang)

    @property
    def card_mm(self) -> tuple[float, float]:
        w, h = self.data.get("card_mm", (63, 88))
        return float(w), float(h)

    @property
    def bleed_mm(self) -> float:
        return float(self.common["print"]["bleed_mm"])

    def language(self, lang: Language | None) -> Language:
        """`lang`, or the deck's own language when None (a region's country's, else the game's `default_lang`):
        the one place the game's own language, a code in its data, becomes a language (a registered one, else
        one error naming the registered languages)."""
        return lang or registry.language(self.own_lang or self.data.get("default_lang", registry.source()))

    def box(self, name: str) -> Box:
        return Box(*(float(v) for v in self._get("boxes", name)))

    def font(self, name: str) -> tuple[float, float]:
        high, low = self._get("fonts", f"{name}_pt")
        return float(high), float(low)

    def colour(self, name: str) -> Color:
        value = self.data.get("colours", {}).get(name) or self.common["colours"].get(name)
        if value is None:
            raise GeodeckError(f"templates/cards/{self.game}.toml: no colour {name!r}")
        return HexColor(value)

    @property
    def design(self) -> Design:
        if "design" not in self.data:
            raise GeodeckError(f"templates/cards/{self.game}.toml: missing [design], the game's design system")
        return Design(self.game, self.data["design"])

    def design_section(self, name: str) -> dict:
        """`[design.<name>]`: the game's back or cover."""
        return self._get("design", name)

    def words(self, lang: Language) -> dict:
        """The game's `[words]` in `lang`."""
        try:
            return self.localised(lang).data["words"]
        except KeyError:
            raise GeodeckError(f"templates/cards/{self.game}.toml: missing [words]") from None

    def continent(self, name: str, lang: Language) -> tuple[str, Color]:
        """A continent's printed name (CLDR's name of its `cldr` region code, or its reviewed `words.name`)
        and its palette colour."""
        try:
            entry = self.common["continents"][name]
        except KeyError:
            raise GeodeckError(f"unknown continent {name!r}; known: {', '.join(self.common['continents'])}") from None
        reviewed = self.localised(lang).common["continents"][name].get("words", {}).get("name")
        return reviewed or names.territory(entry["cldr"], lang) or name, HexColor(entry["colour"])

    def group(self, name: str, lang: Language) -> tuple[str, Color]:
        """A card's group as printed, with its colour: one of a deck's own `groups` (a recipe's regions: its name
        as the deck writes it, `group_colour`), else a continent (`continent`)."""
        groups = self.data.get("groups")
        if not groups:
            return self.continent(name, lang)
        if name not in groups:
            raise GeodeckError(f"group {name!r} is not one of the deck's groups ({', '.join(groups)})")
        return name, self.group_colour(groups.index(name))

    def group_colour(self, index: int) -> Color:
        """The palette colour of a deck's `index`th group (a custom deck's own groups instead of continents):
        the continents' colours, colour-blind safe, in their order."""
        palette = [entry["colour"] for entry in self.common["continents"].values()]
        return HexColor(palette[index % len(palette)])

    def ink_on(self, *backgrounds: Color) -> Color:
        """The text colour that reads on every one of `backgrounds` (contrast ≥ 4.5:1): the layout's white
        (`sea`) or its dark text colour, else black."""
        return contrast.best_ink(backgrounds, (self.colour("sea"), self.colour("text"), HexColor("#000000")))

    def _get(self, section: str, key: str):
        try:
            return self.data[section][key]
        except KeyError:
            raise GeodeckError(f"templates/cards/{self.game}.toml: missing {section}.{key}") from None


def _read(path: Path) -> dict:
    """A card layout; one that declares no `categories` takes its rows from its deck spec's `[[categories]]`
    (the `decks/` folder beside its `cards/`, the same name: pipeline/decks/categories.py), where they are
    declared once with the fields they compare."""
    try:
        document = readers.read("toml", path)
    except Missing:
        raise GeodeckError(f"no card layout {path}; every game needs one (docs/architecture.md)") from None
    except Unreadable as exc:
        raise readers.failure("toml", path, exc, "fix the layout") from exc
    spec = path.parent.parent / "decks" / path.name
    if "categories" in document or not spec.is_file():
        return document
    declared = categories.declared(readers.read_input("toml", spec).get("categories"), str(spec), tuple(PICTOGRAMS))
    return document | ({"categories": [categories.layout_row(c) for c in declared]} if declared else {})


@cache
def common(directory: Path = CARDS_DIR) -> dict:
    """`common.toml`: print conventions, the palette and the duplex calibration sheet."""
    return _read(directory / "common.toml")


def common_in(lang: Language) -> dict:
    """`common.toml` with its words in `lang`."""
    return _localised(CARDS_DIR / "common.toml", lang, _stamp(CARDS_DIR / "common.toml"))


def continent_name(name: str, lang: Language) -> str | None:
    """A continent's printed name in `lang` (its reviewed `words.name`, else CLDR's name of its `cldr` code);
    None for a continent common.toml lacks."""
    entry = common_in(lang)["continents"].get(name)
    if entry is None:
        return None
    return entry.get("words", {}).get("name") or names.territory(entry["cldr"], lang) or name


def _stamp(path: Path) -> tuple[int, ...]:
    """The layout's and its deck spec's modification times and sizes: a cache key that a template written
    anew (a custom deck's, by `geodeck deck new`) changes."""
    spec = path.parent.parent / "decks" / path.name
    return tuple(n for p in (path, spec) if p.is_file() for n in (p.stat().st_mtime_ns, p.stat().st_size))


@cache
def _localised(path: Path, language: Language, stamp: tuple[int, ...]) -> dict:
    """A template with its words in `language` (cached per catalogue and `_stamp`: a language registered anew,
    a template written anew reads anew);
    their context is the template's stem, or the template its `words_context` names (a custom deck's layout:
    its base game's, whose words it keeps)."""
    document = _read(path)
    return catalogue.localised(document, language, document.get("words_context", path.stem))


def version(deck: dict, lang: Language, draft: bool) -> str:
    """The deck's version as printed in `lang`: a draft's says so (`[kit.words] draft` of common.toml), so a
    draft print is never taken for a published version."""
    shown = deck.get("version") or ""
    if not draft:
        return shown
    return f"{shown} ({common_in(lang)['kit']['words']['draft']})".strip()


def load(game: GameDefinition, lang: Language | None = None) -> Layout:
    """The game's layout (the file its definition names) with the common print conventions; with `lang`, its
    words in that language (read anew when its template was written anew: `_stamp`)."""
    return _load(game, lang, _stamp(game.layout_path))


@cache
def _load(game: GameDefinition, lang: Language | None, stamp: tuple[int, ...]) -> Layout:
    layout = Layout(game.name, _read(game.layout_path), common(), game.layout_path, own_lang=game.own_language())
    return layout if lang is None else layout.localised(lang)
