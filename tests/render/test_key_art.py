"""Each game has its own key art on its kit's cover and tuck box (issue 45: The World Game and Länder toppen
drew the same world map): the World Game's is a wall of its deck's flags, Länder toppen's the deck's
countries on the world; drawn side by side, they differ, and the flag wall holds a flag per country."""

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import layouts, ports, raster
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, end_page, new_canvas
from pipeline.render.text import Box

pytestmark = pytest.mark.mirror
BOX = Box(0, 0, 170, 70)


def _art(game: str, store, monkeypatch=None, drawn: list | None = None) -> Image.Image:
    definition = games.get(game)
    deck = published.deck(definition)[1]
    ctx = CardContext(layouts.load(definition), languages.language("en"), 0.0, store)
    if drawn is not None:  # count the flags the art draws (the flags object is shared: patched for this test)
        draw = ctx.flags.draw

        def counted(canvas, path, box, card_id, outline=None):
            drawn.append(card_id)
            return draw(canvas, path, box, card_id, outline)

        monkeypatch.setattr(ctx.flags, "draw", counted)
    canvas, buffer = new_canvas()
    begin_page(canvas, (BOX.w, BOX.h))
    art = ports.art(ports.cards(definition))
    assert art is not None
    art(canvas, deck["cards"], BOX, ctx)
    end_page(canvas)
    canvas.save()
    return Image.open(io.BytesIO(raster.png(buffer.getvalue(), 0, 40))).convert("RGB")


def test_the_two_world_games_have_their_own_key_art(store, monkeypatch):
    drawn: list = []
    world, laender = _art("world-game", store, monkeypatch, drawn), _art("laender-toppen", store)
    difference = ImageStat.Stat(ImageChops.difference(world, laender).convert("L")).mean[0]
    assert difference > 20  # of 255: a different picture, not a recolouring
    countries = [card for card in published.deck(games.get("world-game"))[1]["cards"] if card["fields"].get("flag")]
    assert sorted(drawn) == sorted(card["id"] for card in countries)
