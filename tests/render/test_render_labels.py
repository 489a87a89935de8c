"""Map labelling measured on the drawing model: the placement method on small cases, the Deutschlandkarte of
the published deck on every paper (no overlaps, inside the frame, no crossing leaders, dots within 0.5 grid
units of their card numbers) and the World Game poster (every number once, no overlaps or crossings, no
label on the A4 seam)."""

import pdftext
import pytest

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.grid import accessories as germany_map
from pipeline.games.grid.decks import deck_grid
from pipeline.geo.grid import whole_numbers
from pipeline.i18n import registry as languages
from pipeline.render import accessories, fonts, labels, layouts
from pipeline.render.accessories import PAPERS_MM, AccessoryOptions, words


def test_crossing_and_through_detect_what_they_should():
    import numpy as np

    assert labels.crossing((0, 0, 2, 2), np.array([[0, 2, 2, 0], [3, 3, 4, 4], [2, 2, 3, 0]])).tolist() == [
        True,
        False,
        False,
    ]
    assert labels.through((0, 0, 5, 0), np.array([[1, -1, 2, 1], [1, 1, 2, 2]])).tolist() == [True, False]


def test_a_crowded_cluster_is_placed_without_overlaps_or_crossings():
    """Eight points 1.5 mm apart on a line, labels 8 mm wide: beside them where there is room, leaders elsewhere."""
    items = [labels.Item(i, 50 + 1.5 * i, 50, 8, 2) for i in range(8)]
    points = [(it.x, it.y, 0.4) for it in items]
    placed = labels.place(items, (0, 0, 120, 100), points, gap=0.8)
    assert labels.problems(placed, (0, 0, 120, 100), points) == dict.fromkeys(
        ("overlaps", "outside", "crossings", "through_labels", "on_points"), 0
    )
    assert any(p.leader for p in placed) and not all(p.leader for p in placed)


def test_a_label_placed_later_is_not_set_across_an_earlier_leader():
    """A leader runs through no label, whichever was placed first: random crowded clusters (before the fix,
    60 of 400 set a later label across an earlier leader)."""
    import numpy as np

    for seed in range(40):
        rng = np.random.default_rng(seed)
        xy = rng.uniform(40, 60, (14, 2))
        items = [labels.Item(i, float(x), float(y), float(rng.uniform(6, 14)), 2.0) for i, (x, y) in enumerate(xy)]
        points = [(it.x, it.y, 0.4) for it in items]
        placed = labels.place(items, (0, 0, 100, 100), points, gap=0.8)
        assert labels.problems(placed, (0, 0, 100, 100), points)["through_labels"] == 0, seed


@pytest.mark.mirror
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_deutschlandkarte_labels_are_whole_apart_and_every_dot_at_its_numbers(store, paper):
    deck = published.deck(games.get("deutschland"), None)[1]
    grid = deck_grid(deck)
    layout = layouts.load(games.get("deutschland"))
    page = PAPERS_MM[paper]
    model = germany_map.map_model(deck, grid, page, words(layout, languages.language("de")), fonts.register())
    points = [(x, y, germany_map.DOT_MM) for x, y in model.dots]
    assert labels.problems(model.labels, model.box, points) == dict.fromkeys(
        ("overlaps", "outside", "crossings", "through_labels", "on_points"), 0
    )
    frame = model.frame
    for (name, ns, we), (x, y) in zip(model.places, model.dots):
        card = whole_numbers([ns, we])
        dot_we = (x - frame.x0) / frame.ux
        dot_ns = (frame.top - y) / frame.uy
        assert abs(dot_ns - card[0]) <= 0.5 and abs(dot_we - card[1]) <= 0.5, name
    dots = sorted(model.dots)
    assert all(
        ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 >= 2 * germany_map.DOT_MM
        for i, (ax, ay) in enumerate(dots)
        for bx, by in dots[i + 1 :]
    )  # no two dots overlap (Mannheim and Ludwigshafen)
    assert sorted(str(p.key) for p in model.labels) == sorted(name for name, _, _ in model.places)
    spacing = float(layout.data["accessories"]["label_gap_mm"])  # Oberhausen and Gelsenkirchen read as two names
    boxes = [p.box for p in model.labels]
    assert (
        min(
            max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) for i, a in enumerate(boxes) for b in boxes[i + 1 :]
        )
        >= spacing - 1e-9
    )


@pytest.mark.mirror
def test_deutschlandkarte_prints_full_names_and_grows_its_labels_with_the_paper(store):
    deck = published.deck(games.get("deutschland"), None)[1]
    sizes = {}
    for paper in ("a4", "a3"):
        data, _ = accessories.render(games.get(deck["game"]), deck, AccessoryOptions(paper=paper), store)
        drawn = {run.text: run.size for run in pdftext.runs(data)}  # a label's halo is a second, stroked copy
        assert "Frankfurt (Oder)" in drawn
        sizes[paper] = drawn["Kiel"]
    assert sizes["a4"] >= 6 - 0.01 and sizes["a3"] > sizes["a4"] * 1.3


@pytest.mark.mirror
@pytest.mark.parametrize("lang", ["en", "de"])
def test_world_game_poster_numbers_every_country_once_without_overlaps_crossings_or_seam(store, lang):
    from pipeline.games.world_game.accessories import SEAM_MM, draw_poster
    from pipeline.render.context import CardContext
    from pipeline.render.pages import new_canvas

    deck = published.deck(games.get("world-game"), None)[1]
    layout = layouts.load(games.get("world-game"))
    canvas, _ = new_canvas()
    poster = draw_poster(
        canvas, deck, CardContext(layout, languages.language(lang), 0.0, store), words(layout, languages.language(lang))
    )
    seam_x = layout.data["accessories"]["poster_mm"][0] / 2
    numbers = []
    for panel in poster.panels:
        inside = [
            labels.Placed(n, box, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), False) for n, box in panel.inside
        ]
        every = panel.placed + inside
        assert labels.problems(every, panel.bounds, panel.dots) == dict.fromkeys(
            ("overlaps", "outside", "crossings", "through_labels", "on_points"), 0
        )
        assert all(p.box[2] <= seam_x - SEAM_MM or p.box[0] >= seam_x + SEAM_MM for p in every)  # whole on one page
        numbers += [int(str(p.key)) for p in every]
    assert sorted(numbers) == sorted(int(c["fields"]["map_number"]) for c in deck["cards"])
