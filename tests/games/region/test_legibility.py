"""A region map's legibility (pipeline/games/region/legibility.py, issue 31 item 6): measured with
reportlab's font metrics on the map as printed; the committed France deck's map is legible, a deck whose
places crowd one corner is not, and a long country's narrow axis prints every 2nd, 5th or 10th number so
that no two touch (Chile's 90 west-east numbers on 40 mm smeared together); a long country's names go beside
its narrow map, on no grid number, and the measure judges that layout."""

import copy

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.grid import accessories as grid_map
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import legibility
from pipeline.geo.grid import Grid
from pipeline.i18n import registry as languages
from pipeline.render import fonts, labels, layouts
from pipeline.render.accessories import PAPERS_MM, words

FRA = games.get("region-fra")


def test_the_committed_france_map_is_legible(decks):
    assert legibility.problems(FRA, published.deck(FRA)[1]) == []


def test_places_crowded_together_make_the_map_illegible(decks):
    deck = copy.deepcopy(published.deck(FRA)[1])
    places = [c for c in deck["cards"] if c["kind"] == "place"][:24]
    deck["cards"], grid = places, deck_grid(deck)
    for i, card in enumerate(places):
        f = card["fields"]
        f["lat"], f["lon"] = round(48.6 + (i % 6) * 0.05, 4), round(2.0 + (i // 6) * 0.06, 4)  # all about Paris
        f["ns"], f["we"] = (int(n) for n in grid.numbers(f["lat"], f["lon"])[0])
    found = legibility.problems(FRA, deck)
    assert found and found[0].startswith("place names: ") and "overlaps" in found[0], found


def _model(ux: float, uy: float) -> grid_map.MapModel:
    return grid_map.MapModel(grid_map.GridFrame(40.0, 260.0, ux, uy), [], [], [], 2.0)


def test_a_narrow_axis_prints_every_5th_number_and_none_touch():
    fonts_ = fonts.register()
    size = 7 * 25.4 / 72
    chile = _model(0.45, 1.6)  # 90 west-east numbers on 40 mm, 150 north-south on 240 mm
    every = grid_map._numbers(chile, size, fonts_, (1, 1))
    assert grid_map.touching([n for n in every if n.axis == "we"])  # every number printed: they smear together
    printed = grid_map.axis_numbers(chile, size, fonts_)
    assert grid_map.touching(printed) == []
    we = sorted({int(n.text) for n in printed if n.axis == "we"})
    assert we[:3] == [0, 5, 10] and we[-1] == 90
    assert sorted({int(n.text) for n in printed if n.axis == "ns"}) == list(range(151))  # room for all of them
    wide = grid_map.axis_numbers(_model(2.0, 1.6), size, fonts_)  # Deutschland's A4 map: every number
    assert len({n.text for n in wide if n.axis == "we"}) == 91 and grid_map.touching(wide) == []


def _long_country(names: list[str]) -> tuple[dict, Grid]:
    """A synthetic long country (1,500 km north-south, 300 km west-east, as Chile's map) whose places
    crowd one stretch of its strip, as central Chile's do."""
    grid = Grid("EPSG:3857", ((0.0, 0.0003), (-0.0001, 0.0), (150.0, 0.0)))  # a 10 km row, a 3.3 km column
    cards = [
        {"kind": "place", "id": f"p{i}", "fields": {"name": name, "ns": 50 + (i * 7) % 9, "we": 40 + (i * 5) % 11}}
        for i, name in enumerate(names)
    ]
    return {"cards": cards}, grid


def test_a_long_country_s_names_go_beside_its_narrow_map_and_the_measure_judges_that_layout():
    w = {**words(layouts.load(FRA), languages.language("en")), "map_title": "Long"}
    names = [f"{town} {i}" for i, town in enumerate(["Valparaíso", "Rancagua", "Talca", "Concepción"] * 4)]
    deck, grid = _long_country(names)
    page = PAPERS_MM["a4"]
    model = grid_map.map_model(deck, grid, page, w, fonts.register())
    x0, _, x1, _ = model.box
    assert x1 - x0 < 60 and model.area is not None and model.area[0] < x0 and model.area[2] > x1  # inside: collisions
    assert any(p.box[2] < x0 or p.box[0] > x1 for p in model.labels)  # names set beside the map, on leaders
    dots = [(x, y, grid_map.DOT_MM) for x, y in model.dots]
    assert set(labels.problems(model.labels, model.label_box, dots).values()) == {0}
    assert legibility.on_numbers(model) == 0 and grid_map.touching(list(model.numbers)) == []
    few = grid_map.map_model({"cards": deck["cards"][:3]}, grid, page, w, fonts.register())
    assert few.area is None and all(x0 <= p.box[0] and p.box[2] <= x1 for p in few.labels)  # names that fit stay in
