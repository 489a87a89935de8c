"""What a card-drawing module needs: the layout, the language, the fonts and the pinned assets."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from pipeline.render import fonts, text
from pipeline.render.layouts import Layout
from pipeline.render.text import Box

if TYPE_CHECKING:
    from pipeline.extract import SnapshotStore


@dataclass
class CardContext:
    layout: Layout
    lang: str
    bleed: float
    store: "SnapshotStore"  # resolves flags and map layers
    for_sale: bool = False  # draw the stand-ins of layers that may not be sold (pipeline.render.licences)
    sizes: dict = field(default_factory=dict)  # field -> its two sizes across the deck (the module's `steps`)

    @cached_property
    def regular(self) -> str:
        return fonts.register()[0]

    @cached_property
    def bold(self) -> str:
        return fonts.register()[1]

    @cached_property
    def words(self) -> dict:
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

    def row_value(self, canvas, row: Box, value: str, span: tuple[float, float], font: str) -> None:
        """A row's value in bold, right-aligned in the part of the row that starts at `span[0]` of its width
        and is `span[1]` of it wide (a row of `rows`, its label on the left)."""
        box = Box(row.x + row.w * span[0], row.y + 0.4, row.w * span[1], row.h - 0.8)
        text.draw(canvas, value, self.bold, box, *self.layout.font(font), align="right")

    def rows(self, canvas, box: Box, count: int) -> list[Box]:
        """`box` cut into `count` rows from the top, every other one (the first too) on the row stripe colour."""
        step = box.h / count
        rows = [Box(box.x, box.y + box.h - (i + 1) * step, box.w, step) for i in range(count)]
        canvas.setFillColor(self.layout.colour("row_stripe"))
        for row in rows[::2]:
            canvas.rect(row.x - 0.8, row.y, row.w + 1.6, row.h, stroke=0, fill=1)
        return rows
