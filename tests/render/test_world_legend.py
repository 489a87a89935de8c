"""The World Game map's legend is placed clear of the land (issue 45: in French and Polish "Océanie" ran into
Tierra del Fuego): read back from the A3 poster, no line of the legend (its labels' box, the gaps between
them included) lies on a country's shape. The labels and their boxes are read with PDFium (tests/pdftext.py),
about 50 times faster than pdfplumber on this page."""

import pdftext
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
    width, height = (v * PT for v in pdftext.page_size(data))
    scale = min((width - 2 * world.MARGIN_MM) / pw, (height - 2 * world.MARGIN_MM) / ph)
    x0, y0 = (width - pw * scale) / 2, (height - ph * scale) / 2
    rows: dict[float, tuple[float, float, float, float]] = {}  # a line of the legend: its labels' box, gaps included
    found = []
    for run in pdftext.runs(data):
        if run.text in labels and abs(run.size * PT / scale - world.LEGEND_PT * PT) < 0.05:
            found.append(run.text)
            row = rows.get(round(run.box[3]), run.box)
            rows[round(run.box[3])] = (*map(min, row[:2], run.box[:2]), *map(max, row[2:], run.box[2:]))
    for left, top, right, bottom in rows.values():
        words = shapely.box(
            (left * PT - x0) / scale,
            (height - bottom * PT - y0) / scale,
            (right * PT - x0) / scale,
            (height - top * PT - y0) / scale,
        )
        assert not words.intersects(land), (lang, (left, top, right, bottom))
    assert set(found) == set(labels)
