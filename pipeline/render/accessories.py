"""The accessories each game needs besides its cards, as one PDF per game (deterministic, written atomically).

What a game's accessories are (maps, strips, scoring sheets) is its slice's `accessories.draw`; this
module opens the document, gives it the layout's words and the paper, and writes it.
"""

from dataclasses import dataclass
from pathlib import Path

from pipeline import atomic, paths
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.catalogue import labelled
from pipeline.i18n.language import Language
from pipeline.render import geometry, layouts, licences, ports, titles
from pipeline.render.context import CardContext
from pipeline.render.pages import Canvas, describe, new_canvas
from pipeline.render.printing import PrintResult, file_name

PAPERS_MM = {**geometry.PAPERS_MM, "a3": (297.0, 420.0)}  # the cards' papers, and A3 for the maps


@dataclass(frozen=True)
class AccessoryOptions:
    paper: str = "a4"
    lang: Language | None = None  # None: the game's own language
    for_sale: bool = False  # layers that may not be sold replaced (or refused): pipeline.render.licences
    draft: bool = False  # the deck is a draft: its version is printed as one (layouts.version)

    def validate(self) -> "AccessoryOptions":
        if self.paper not in PAPERS_MM:
            raise GeodeckError(f"--paper {self.paper!r} is not one of: {', '.join(PAPERS_MM)} (accessories)")
        return self


def words(layout: layouts.Layout, lang: Language) -> dict:
    """The accessory words of a game's template in `lang` (`[accessories.words]`), with its shared accessory
    settings."""
    section = layout.localised(lang).data.get("accessories")
    if not section or "words" not in section:
        raise GeodeckError(f"templates/cards/{layout.game}.toml: missing [accessories.words]")
    shared = {k: v for k, v in section.items() if not isinstance(v, dict)}
    return {**shared, **section["words"], "lang": lang}


def draw_accessories(canvas, game: GameDefinition, deck: dict, options: AccessoryOptions, store) -> None:
    """The game's accessories onto `canvas`, from new pages."""
    options.validate()
    layout = layouts.load(game)
    lang = layout.language(options.lang)
    if options.for_sale:
        licences.for_sale(game)
    ctx = CardContext(layout, lang, 0.0, store, options.for_sale)
    ports.accessories(game).draw(canvas, deck, ctx, words(layout, lang), options.paper, PAPERS_MM[options.paper])


def render(
    definition: GameDefinition, deck: dict, options: AccessoryOptions, store, kind: type = Canvas
) -> tuple[bytes, int]:
    """(PDF bytes, pages) of the accessories for a deck of the game, drawn on a canvas of class `kind` (a
    press's, for a print shop)."""
    options.validate()
    game = deck["game"]
    layout = layouts.load(definition)
    w = words(layout, layout.language(options.lang))
    version = layouts.version(deck, w["lang"], options.draft)
    canvas, buffer = new_canvas(kind)
    describe(
        canvas,
        labelled(w["lang"], f"{titles.title(definition, deck, w['lang'])} {version}", w["document"]),
        f"{game} {version} accessories, {options.paper}",
    )
    draw_accessories(canvas, definition, deck, options, store)
    pages = canvas.getPageNumber() - 1
    canvas.save()
    return buffer.getvalue(), pages


def default_output(game: GameDefinition, deck: dict, options: AccessoryOptions, print_dir: Path | None = None) -> Path:
    lang = layouts.load(game).language(options.lang)
    sale = ["for-sale"] if options.for_sale else []
    return (print_dir or paths.PRINT_DIR) / file_name(
        deck, "accessories", options.paper, lang, *sale, draft=options.draft
    )


def print_accessories(
    game: GameDefinition, deck: dict, options: AccessoryOptions, store, out: Path | None = None
) -> PrintResult:
    """Render the game's accessories and write the PDF atomically (a failure leaves any earlier PDF alone)."""
    data, pages = render(game, deck, options, store)
    path = out or default_output(game, deck, options)
    atomic.write_bytes(path, data)
    return PrintResult(path, pages, 0, len(data))
