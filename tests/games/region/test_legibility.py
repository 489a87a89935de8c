"""A region map's legibility (pipeline/games/region/legibility.py, issue 31 item 6): measured with
reportlab's font metrics on the map as printed; the committed France deck's map is legible, a deck whose
places crowd one corner is not, and a long country's narrow axis prints every 2nd, 5th or 10th number so
that no two touch (Chile's 90 west-east numbers on 40 mm smeared together)."""

import copy

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.grid import accessories as grid_map
from pipeline.games.grid.decks import deck_grid
from pipeline.games.region import legibility
from pipeline.render import fonts

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
