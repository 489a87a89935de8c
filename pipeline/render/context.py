"""What a card-drawing module needs: the layout, the language, the fonts and the pinned assets."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from pipeline.i18n.language import Language
from pipeline.render import fonts
from pipeline.render.layouts import Layout
from pipeline.render.text import Box

if TYPE_CHECKING:
    from pipeline.extract import SnapshotStore


@dataclass
class CardContext:
    layout: Layout  # its words are put into `lang` (Layout.localised)
    lang: Language  # made where its code entered (the command line, the studio), never from a code here
    bleed: float
    store: "SnapshotStore"  # resolves flags and map layers
    for_sale: bool = False  # draw the stand-ins of layers that may not be sold (pipeline.render.licences)
    sizes: dict = field(default_factory=dict)  # field -> its one size across the deck (pt) (the module's `steps`)
    cards: list = field(default_factory=list)  # the deck's cards, for a picture drawn from all of them (divisions)

    def __post_init__(self) -> None:
        self.layout = self.layout.localised(self.lang)

    @cached_property
    def regular(self) -> str:
        return fonts.register()[0]

    @cached_property
    def bold(self) -> str:
        return fonts.register()[1]

    @cached_property
    def words(self) -> dict:
        """The game's `[words]` in the card language."""
        return self.layout.words(self.lang)

    @cached_property
    def world(self):
        from pipeline.render.maps import world

        return world(self.store)

    @cached_property
    def flags(self):
        from pipeline.render.flags import flags

        return flags(self.store)

    def background(self, canvas, colour, bottom: float | None = None, top: float | None = None) -> None:
        """Fill the card and its bleed (the sheet clips the bleed to the sides facing the margin), or only
        the part from `bottom` to `top` (mm): a band painted over the background would leave a light seam
        in anti-aliased viewers where it meets the neighbouring card."""
        w, h = self.layout.card_mm
        b = self.bleed
        y0 = -b if bottom is None else bottom
        y1 = h + b if top is None else top
        canvas.setFillColor(colour)
        canvas.rect(-b, y0, w + 2 * b, y1 - y0, stroke=0, fill=1)

    def world_art(self, canvas, cards: list[dict], box: Box) -> None:
        """Key art for a kit's cover: the world in the cards' land grey, every country of the deck in its
        (first) continent's colour (its group's, in a deck of its own groups: `Layout.group`)."""
        layout = self.layout
        fills = {
            card["fields"]["iso3"]: self.layout.group(card["fields"]["continents"][0], self.lang)[1]
            for card in cards
            if card["fields"].get("iso3") and card["fields"].get("continents")
        }
        self.world.draw_fills(canvas, box, fills, layout.colour("land"), layout.colour("land_edge"))

    def framed(self, canvas, colours: list, top: float | None = None) -> Box:
        """The continent colour carrying the card: the card and its bleed in `colours` (side by side, for a card
        of two continents), and on it a white panel inset by the design's `frame_mm` up to `top` (mm; else as
        far from the top as from the sides). Returns the panel."""
        w, h = self.layout.card_mm
        b, inset = self.bleed, float(self.layout.design.data["frame_mm"])
        width = w / len(colours)
        for i, colour in enumerate(colours):
            canvas.setFillColor(colour)
            left = -b if i == 0 else i * width
            right = w + b if i == len(colours) - 1 else (i + 1) * width
            canvas.rect(left, -b, right - left, h + 2 * b, stroke=0, fill=1)
        panel = Box(inset, inset, w - 2 * inset, (h - inset if top is None else top) - inset)
        canvas.setFillColor(self.layout.colour("sea"))
        canvas.roundRect(panel.x, panel.y, panel.w, panel.h, inset, stroke=0, fill=1)
        return panel

    @staticmethod
    def rows_of(box: Box, count: int) -> list[Box]:
        """`box` cut into `count` rows from the top."""
        step = box.h / count
        return [Box(box.x, box.y + box.h - (i + 1) * step, box.w, step) for i in range(count)]

    def cells(self, row: Box) -> tuple[Box, Box, Box]:
        """A category row's pictogram, label and value boxes; the pictogram at most the layout's
        `row_pictogram_mm`, so that the taller rows of fewer categories keep their labels' width; the label ends and
        the value begins at the layout's `row_cells` (shares of the row's width)."""
        icon = min(row.h - 1.4, float(self.layout.data.get("row_pictogram_mm", row.h)))
        label_end, value_start = (float(share) for share in self.layout.data.get("row_cells", (0.56, 0.58)))
        return (
            Box(row.x, row.y + (row.h - icon) / 2, icon, icon),
            Box(row.x + icon + 1.2, row.y + 0.4, row.w * label_end - icon - 1.2, row.h - 0.8),
            Box(row.x + row.w * value_start, row.y + 0.4, row.w * (1 - value_start), row.h - 0.8),
        )

    def rows(self, canvas, box: Box, count: int) -> list[Box]:
        """`box` cut into `count` rows from the top, every other one (the first too) on the row stripe colour."""
        rows = self.rows_of(box, count)
        canvas.setFillColor(self.layout.colour("row_stripe"))
        for row in rows[::2]:
            canvas.rect(row.x - 0.8, row.y, row.w + 1.6, row.h, stroke=0, fill=1)
        return rows
