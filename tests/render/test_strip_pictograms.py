"""Länder toppen's folded strips carry each category's pictogram, as the cards and the rules' drawing of the
strip do (issue 45): every field of every strip draws its category's icon (data: the deck spec's
`[[categories]] icon`), in the box `[accessories.strip] icon` gives it, within its field."""

import pytest

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.laender_toppen import accessories as strips
from pipeline.i18n import registry as languages
from pipeline.render import accessories, layouts

pytestmark = pytest.mark.mirror


def test_every_strip_field_draws_its_categorys_pictogram(store, monkeypatch):
    drawn: list = []
    draw = strips.pictograms.draw

    def counted(canvas, name, box, colour):
        drawn.append((name, box))
        draw(canvas, name, box, colour)

    monkeypatch.setattr(strips.pictograms, "draw", counted)
    game = games.get("laender-toppen")
    accessories.render(
        game, published.deck(game)[1], accessories.AccessoryOptions("a3", languages.language("de")), store
    )
    layout = layouts.load(game)
    icons = [category["icon"] for category in layout.data["categories"]]
    strip_count = int(layout.data["accessories"]["strips"])
    assert [name for name, _ in drawn] == icons * strip_count  # on A3 each strip is one piece
    size = float(layout.data["accessories"]["strip"]["icon"][2])
    assert all(box.w == box.h == size for _, box in drawn)
