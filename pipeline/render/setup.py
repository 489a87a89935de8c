"""The rules pages' setup picture: what lies on the table at the start, drawn with the deck's own cards (a
flowable set in the rules text after the paragraph that describes the setup).

Data in the game's card template: `[kit.rules] setup` is a list of rows, each a list of items
`[shape, side, count, kind]`: `stack` (count cards squared up, the top one showing), `fan` (count cards
held in a hand), `row` (count cards side by side), `strip` (a band in the game's colour with the template's
categories, pictogram and label, and count cards face `side` above and below it); `kind` picks the deck's
cards (its first `count` of that kind). The words under each item are `[kit.words] setup`, in order.
"""

import math

from reportlab.platypus import Flowable

from pipeline.errors import GeodeckError
from pipeline.markup import Markup
from pipeline.render import pictograms, text
from pipeline.render.context import CardContext
from pipeline.render.text import Box, paragraph

CARD_MM = 30.0  # a card's height in the picture
STRIP_CARD_MM = 24.0  # ... and beside the strip, whose cells (one per category) share the row
GAP_MM = 8.0
LABEL_MM = 11.0  # room under an item for its words (three lines)
FAN_DEG = 7.0  # between two cards of a hand
FAN_RADIUS = 1.1  # the hand's turning point below the cards' tops, in card heights
BAND_MM = 13.0  # the strip's band: each category's pictogram above its label
LABEL_PT = (7.5, 7.0)  # a category's label in the band, largest and smallest size (then down to the floor)


class Setup(Flowable):
    """The setup picture, rows of items, each item's words under it."""

    def __init__(self, module, deck: dict, ctx: CardContext, rows: list, labels: list[Markup], style, side_of):
        super().__init__()
        items = [item for row in rows for item in row]
        if len(labels) != len(items):
            raise GeodeckError(f"templates/cards/{deck['game']}.toml: [kit.words] setup needs one label per setup item")
        self.deck, self.ctx, self.style, self.side_of = deck, ctx, style, side_of
        self.module = module  # the game's card module (GameDefinition.cards)
        it = iter(labels)
        self.rows = [[(item, next(it)) for item in row] for row in rows]

    def wrap(self, available_w, available_h):
        self.width = available_w
        self.bands = self._bands()
        self.height = sum(_height(row, self.bands) for row in self.rows) + GAP_MM / 2
        return self.width, self.height

    def draw(self) -> None:
        y = self.height
        for row in self.rows:
            y -= _height(row, self.bands)
            self._row(row, y)

    def _bands(self) -> int:
        """The fewest bands (rows of cells) the strip's categories are drawn in so that every label fits its cell:
        one, unless more categories than the width holds (a category block added to the deck spec)."""
        labels = [category["words"]["label"] for category in self.ctx.layout.data.get("categories") or []]
        for bands in range(1, len(labels)):
            cell = self.width / math.ceil(len(labels) / bands)
            try:
                for label in labels:
                    text.fit(label, self.ctx.regular, _label_box(0, 0, cell), *LABEL_PT, max_lines=2)
            except text.DoesNotFit:
                continue
            return bands
        return max(len(labels), 1)

    def _row(self, row: list, y: float) -> None:
        """The items left to right, the width left over shared out between them; each item's words under it
        across its share."""
        widths = [self._width(item) for item, _ in row]
        extra = (self.width - sum(widths)) / len(row)
        x = 0.0
        for (item, label), width in zip(row, widths):
            shape, side, count, kind = item
            cards = self._cards(kind, int(count))
            top = y + _height(row, self.bands) - GAP_MM / 2
            if shape == "strip":
                self._strip(cards, side, Box(x, y + LABEL_MM, width, top - y - LABEL_MM))
            else:
                self._cards_as(shape, cards, side, Box(x, y + LABEL_MM, width, CARD_MM))
            para = paragraph(label, self.style)
            _, h = para.wrap(width + extra - GAP_MM, LABEL_MM)
            para.drawOn(self.canv, x, y + LABEL_MM - 1.5 - h)
            x += width + extra

    def _cards(self, kind: str, count: int) -> list[dict]:
        found = [card for card in self.deck["cards"] if card["kind"] == kind][:count]
        if len(found) < count:
            raise GeodeckError(f"the rules' setup asks for {count} {kind} cards; the deck has {len(found)}")
        for card in found:
            self.module.check(card, self.ctx)
        return found

    def _width(self, item: list) -> float:
        shape, _, count, _ = item
        w = self.ctx.layout.card_mm[0] * CARD_MM / self.ctx.layout.card_mm[1]
        return {
            "stack": w + 0.8 * count,
            "row": count * w + (count - 1) * 2,
            "fan": w + 2 * FAN_RADIUS * CARD_MM * math.sin(math.radians(FAN_DEG * (count - 1) / 2)),
            "strip": self.width,  # the strip's row is its own
        }[shape]

    def _one(self, card: dict, side: str, box: Box) -> None:
        self.side_of(self.canv, self.module, side, card, self.ctx, box)

    def _cards_as(self, shape: str, cards: list, side: str, box: Box) -> None:
        w = box.h * self.ctx.layout.card_mm[0] / self.ctx.layout.card_mm[1]
        if shape == "stack":
            for i, card in enumerate(cards):
                self._one(card, side, Box(box.x + 0.8 * i, box.y + 0.8 * i, w, box.h))
        elif shape == "row":
            for i, card in enumerate(cards):
                self._one(card, side, Box(box.x + i * (w + 2), box.y, w, box.h))
        elif shape == "fan":
            canvas, n = self.canv, len(cards)
            radius = FAN_RADIUS * box.h  # the cards turn about a point this far below their top edges' middle
            drop = radius * (1 - math.cos(math.radians(FAN_DEG * (n - 1) / 2))) + w / 2 * math.sin(
                math.radians(FAN_DEG * (n - 1) / 2)
            )  # how far the outer cards' lower corners sink
            pivot = (box.x + box.w / 2, box.y + box.h + drop - radius)
            for i, card in enumerate(cards):
                canvas.saveState()
                canvas.translate(*pivot)
                canvas.rotate(FAN_DEG * ((n - 1) / 2 - i))
                self._one(card, side, Box(-w / 2, radius - box.h, w, box.h))
                canvas.restoreState()
        else:
            raise GeodeckError(f"[kit.rules] setup: unknown shape {shape!r}; expected stack, fan, row or strip")

    def _strip(self, cards: list, side: str, box: Box) -> None:
        """The band with each category's pictogram and label (in `bands` bands, one under the other, where one is
        too narrow for the labels), cards above and below alternate cells."""
        layout, canvas = self.ctx.layout, self.canv
        categories = layout.data.get("categories") or []
        if not categories:
            raise GeodeckError(f"[kit.rules] setup: a strip needs the template's categories ({layout.game})")
        h = STRIP_CARD_MM
        w = h * layout.card_mm[0] / layout.card_mm[1]
        per = math.ceil(len(categories) / self.bands)
        cell = box.w / per
        ink = layout.design.colour("ink")
        for b in range(self.bands):
            row = categories[b * per : (b + 1) * per]
            band = Box(box.x, box.y + h + 1.5 + (self.bands - 1 - b) * (BAND_MM + 1.5), cell * len(row), BAND_MM)
            canvas.setFillColor(layout.design.colour("colour"))
            canvas.roundRect(band.x, band.y, band.w, band.h, 1.2, stroke=0, fill=1)
            for i, category in enumerate(row):
                x = band.x + i * cell
                pictograms.draw(canvas, category["icon"], Box(x, band.y + band.h - 6.2, cell, 5), ink)
                label, box_ = category["words"]["label"], _label_box(x, band.y, cell)
                text.draw(canvas, label, self.ctx.regular, box_, *LABEL_PT, max_lines=2, align="center", colour=ink)
        top = box.y + h + 1.5 + self.bands * BAND_MM + (self.bands - 1) * 1.5  # the top band's top
        for i, card in enumerate(cards):  # every other cell (the odd ones once the even are taken): above, below
            x = box.x + (2 * i % per + 2 * i // per % 2) * cell + (cell - w) / 2
            above = i % 2 == 0
            self._one(card, side, Box(x, top + 1.5 if above else box.y, w, h))


def _label_box(x: float, band_y: float, cell: float) -> Box:
    """A category's label in its cell of a band whose bottom is `band_y`: under the pictogram."""
    return Box(x + 1, band_y + 0.6, cell - 2, BAND_MM - 7.4)


def _height(row: list, bands: int = 1) -> float:
    if any(item[0] == "strip" for item, _ in row):
        return 2 * STRIP_CARD_MM + bands * BAND_MM + (bands - 1) * 1.5 + 3 + LABEL_MM + GAP_MM / 2
    fan = any(item[0] == "fan" for item, _ in row)
    return CARD_MM * (1.2 if fan else 1.0) + LABEL_MM + GAP_MM / 2
