"""The World Game map's legend is placed clear of the land (issue 45: in French and Polish "Océanie" ran into
Tierra del Fuego): read back from the A3 poster, no word of the legend lies on a country's shape."""

import io

import pdfplumber
import pytest
import shapely

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.world_game import accessories as world
from pipeline.i18n import registry as languages
from pipeline.render import accessories, layouts
from pipeline.render.context import CardContext
from pipeline.render.maps import to_box
from pipeline.render.text import Box

pytestmark = pytest.mark.mirror
PT = 25.4 / 72


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_legend_lies_off_the_land(store, lang):
    game = games.get("world-game")
    deck = published.deck(game)[1]
    data, _ = accessories.render(game, deck, accessories.AccessoryOptions("a3", languages.language(lang)), store)
    layout = layouts.load(game)
    poster = world.Poster(deck, CardContext(layout, languages.language(lang), 0.0, store))
    main = Box(*poster.cfg["main_map"])
    frame = poster.main.frame(main)
    land = shapely.union_all([to_box(geom, frame) for _, geom in poster.land])
    pw, ph = (float(v) for v in poster.cfg["poster_mm"])
    labels = [
        layout.continent(name, languages.language(lang))[0]
        for name in layout.common["continents"]
        if name != "Antarctica"
    ]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        width, height = page.width * PT, page.height * PT
        scale = min((width - 2 * world.MARGIN_MM) / pw, (height - 2 * world.MARGIN_MM) / ph)
        x0, y0 = (width - pw * scale) / 2, (height - ph * scale) / 2
        found = []
        for line in page.extract_text_lines():
            for label in labels:
                if label in line["text"] and abs(line["chars"][0]["size"] * PT / scale - world.LEGEND_PT * PT) < 0.05:
                    found.append(label)
                    words = shapely.box(
                        (line["x0"] * PT - x0) / scale,
                        (height - line["bottom"] * PT - y0) / scale,
                        (line["x1"] * PT - x0) / scale,
                        (height - line["top"] * PT - y0) / scale,
                    )
                    assert not words.intersects(land), (lang, line["text"])
    assert set(found) == set(labels)
