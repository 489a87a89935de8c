"""Divisions drawn from a deck's places (pipeline/geo/divisions.py) and the region fronts and map that draw
them: each division the union of its places' Voronoi cells inside the country, a front with its division's
outline and no mark where the place lies, the map with the division borders, the same bytes every time."""

import io
import random
import re

import pdfplumber
import pytest
import shapely
from fixtures.tiny.games.decks import print_deck
from shapely.geometry import MultiPolygon, box

from pipeline.games import registry
from pipeline.games.deutschland import accessories as deutschland_map
from pipeline.games.grid import accessories as grid_map
from pipeline.games.region import cards as region_cards
from pipeline.games.region import definition, geography
from pipeline.geo import divisions
from pipeline.geo.grid import Grid
from pipeline.i18n import registry as languages
from pipeline.render import accessories, fonts, layouts, printing
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.context import CardContext
from pipeline.render.maps import world
from pipeline.render.pages import new_canvas
from pipeline.render.printing import PrintOptions

MM = 72 / 25.4
# a country of two parts (an L-shaped mainland and an island) and nine places in three divisions
LAND = MultiPolygon([box(0, 44, 4, 48).union(box(4, 44, 6, 45.5)), box(8, 44, 9, 45)])
PLACES = [
    ("North", 1.0, 47.5),
    ("North", 3.0, 47.2),
    ("North", 2.0, 46.6),
    ("South", 1.0, 44.5),
    ("South", 3.5, 44.6),
    ("South", 5.5, 44.8),
    ("South", 2.2, 45.4),
    ("Island", 8.5, 44.5),
    ("Island", 8.2, 44.8),
]
LAEA = "+proj=laea +lat_0=46 +lon_0=4 +datum=WGS84 +units=m +no_defs"


def test_each_division_is_the_union_of_its_places_cells_inside_the_country():
    drawn = divisions.voronoi(PLACES, LAND, LAEA)
    assert sorted(drawn) == ["Island", "North", "South"]
    for name, lon, lat in PLACES:
        assert drawn[name].contains(shapely.Point(lon, lat)), name  # every place in its own division
    for name, geom in drawn.items():
        assert LAND.covers(geom), name  # inside the country
    assert shapely.union_all(list(drawn.values())).symmetric_difference(LAND).area < 1e-6  # all of it
    assert sum(g.area for g in drawn.values()) == pytest.approx(LAND.area, rel=1e-6)  # no overlap
    assert drawn["Island"].equals(LAND.geoms[1])  # the island's places are nearest to all of it


def test_a_northern_country_is_covered_once_though_its_cells_reach_past_the_pole():
    """Canada's map failed (TopologyException) or drew divisions overlapping: a cell reaching past the pole
    in the local projection came back to lon/lat crossing itself."""
    land = box(-140, 42, -55, 75)
    places = [("W", -123, 49), ("W", -114, 51), ("C", -97, 50), ("E", -79, 44), ("E", -73, 46), ("N", -135, 61)]
    drawn = divisions.voronoi(places, land, "+proj=laea +lat_0=60 +lon_0=-97 +datum=WGS84 +units=m +no_defs")
    assert all(geom.is_valid for geom in drawn.values())
    assert sum(g.area for g in drawn.values()) == pytest.approx(land.area, rel=1e-6)  # no overlap, no gap
    for name, lon, lat in places:
        assert drawn[name].contains(shapely.Point(lon, lat)), name


@pytest.mark.mirror
def test_a_cell_touching_itself_back_in_lon_lat_is_drawn(store):
    """Chile's deck found by `region build` (48 places) failed to print (TopologyException): the border of
    Santiago's and Los Andes' cells along the Andes came back to lon/lat touching itself."""
    land = geography.outline(store, "CHL", 300)
    places = [("Región Metropolitana de Santiago", -70.6483, -33.4569), ("Valparaíso", -70.5983, -32.8337)]
    drawn = divisions.voronoi(places, land, geography.local_laea(land))
    assert all(geom.is_valid for geom in drawn.values())
    assert sum(g.area for g in drawn.values()) == pytest.approx(land.area, rel=1e-6)  # no overlap, no gap


@pytest.mark.mirror
def test_a_division_touching_itself_on_the_page_is_drawn(store):
    """Norway's map (48 places, a deck `region build` tried) failed (TopologyException): Sogn og Fjordane,
    valid in lon/lat, touched itself once projected through the grid onto the page."""
    land = geography.outline(store, "NOR", 300)
    crs = geography.local_laea(land)
    grid = Grid.from_dict(
        {"crs": crs, "affine": [[0.0, -9.804217383e-05, 79.82724466], [7.430935241e-05, 0.0, 39.7878733]]}
    )
    towns = [("Voss", "Hordaland", 60.6287, 6.4147), ("Førde", "Sogn og Fjordane", 61.4522, 5.8572),
             ("Luster", "Sogn og Fjordane", 61.4432, 7.4599)]  # fmt: skip
    cards = [
        {"id": name, "kind": "place", "fields": {"name": name, "lat": lat, "lon": lon, "ns": ns, "we": we}}
        for (name, _, lat, lon), (ns, we) in zip(towns, grid.numbers([t[2] for t in towns], [t[3] for t in towns]))
    ]
    drawn = divisions.voronoi([(state, lon, lat) for _, state, lat, lon in towns], land, crs)
    words = {**accessories.words(layouts.load(definition("nor")), languages.language("en")), "map_title": "Norway"}
    canvas, _ = new_canvas()
    grid_map.draw_map(canvas, {"cards": cards}, drawn, grid, (210.0, 297.0), words, fonts.register())


def test_the_divisions_do_not_depend_on_the_order_of_the_places():
    shuffled = PLACES[:]
    random.Random(3).shuffle(shuffled)
    first, again = divisions.voronoi(PLACES, LAND, LAEA), divisions.voronoi(shuffled, LAND, LAEA)
    assert list(first) == list(again)
    assert all(shapely.to_wkb(first[k]) == shapely.to_wkb(again[k]) for k in first)


def test_one_place_draws_the_whole_country_and_a_shared_point_goes_to_the_first_division():
    assert divisions.voronoi([("Only", 2.0, 46.0)], LAND, LAEA)["Only"].equals(LAND)
    drawn = divisions.voronoi([("B", 2.0, 46.0), ("A", 2.0, 46.0), ("C", 8.5, 44.5)], LAND, LAEA)
    assert sorted(drawn) == ["A", "C"]


def test_the_places_come_from_the_deck_s_division_field_with_coordinates_only():
    cards = [
        {"kind": "place", "fields": {"state": "North", "lon": 1.0, "lat": 47.5}},
        {"kind": "place", "fields": {"state": "South", "lon": None, "lat": None}},
        {"kind": "guess", "fields": {"colour": "rot"}},
    ]
    assert divisions.places(cards) == (("North", 1.0, 47.5),)


# Three divisions of France, two places each: the region fronts and the map on the mirror's outline.
FRANCE = [
    ("Paris", "Île-de-France", 48.8534, 2.3488),
    ("Versailles", "Île-de-France", 48.8014, 2.1301),
    ("Rennes", "Bretagne", 48.1112, -1.6743),
    ("Brest", "Bretagne", 48.3903, -4.4863),
    ("Ajaccio", "Corse", 41.9268, 8.7369),
    ("Bastia", "Corse", 42.7028, 9.4503),
]


def _deck(store) -> dict:
    """A region-fra deck of FRANCE on the grid of France's mainland, as `region build` makes it."""
    land = geography.outline(store, "FRA", 300)
    crs, _shape = geography.projection(land, 1.5)
    grid = geography.fitted_grid(land, crs, 2)
    cards = []
    for i, (name, state, lat, lon) in enumerate(FRANCE):
        ns, we = (int(n) for n in grid.numbers(lat, lon)[0])
        fields = {"name": name, "state": state, "lat": lat, "lon": lon, "ns": ns, "we": we, "country": "FRA"}
        fields |= {f"{key}_{lang}": fields[key] for key in ("name", "state") for lang in languages.codes()}
        cards.append({"id": f"rg-{i}", "kind": "place", "fields": fields})
    region = {"iso3": "FRA", "lang": "de", "shape": _shape, "outline": shapely.geometry.mapping(land)}
    return {
        "game": "region-fra",
        "version": "test",
        "title": "Frankreich",
        "card_size_mm": [63, 88],
        "grid": grid.to_dict(),
        "region": region,
        "cards": cards,
    }


@pytest.fixture(scope="module")
def fronts(store):
    game = definition("fra")
    data = printing.render(game, _deck(store), PrintOptions(gutter=0), store)
    return game, data


@pytest.mark.mirror
def test_a_region_front_shows_its_division_s_outline_and_no_mark_where_the_place_lies(fronts, store):
    game, data = fronts
    layout = layouts.load(game)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    fill = tuple(int(layout.data["colours"]["state_fill"][i : i + 2], 16) / 255 for i in (1, 3, 5))
    picture = layout.data["boxes"]["state_picture"]
    ctx = CardContext(layout, languages.language("de"), 0.0, store, cards=_deck(store)["cards"])
    shapes = region_cards.division_shapes(ctx, "FRA", ctx.cards)
    left, top = (210 - 3 * 63) / 2 * MM, (297 - 3 * 88) / 2 * MM
    for slot, (name, state, _lat, _lon) in enumerate(FRANCE):
        x0 = left + (slot % 3) * 63 * MM + picture[0] * MM
        bottom = top + (slot // 3 + 1) * 88 * MM - picture[1] * MM
        inside = [
            s
            for s in page.curves + page.rects + page.lines
            if x0 - 1 <= s["x0"] and s["x1"] <= x0 + picture[2] * MM + 1
            if bottom - picture[3] * MM - 1 <= s["top"] and s["bottom"] <= bottom + 1
        ]
        assert inside and all(s["fill"] and s["non_stroking_color"] == pytest.approx(fill, abs=0.01) for s in inside)
        w = max(s["x1"] for s in inside) - min(s["x0"] for s in inside)
        h = max(s["bottom"] for s in inside) - min(s["top"] for s in inside)
        bx0, by0, bx1, by1 = shapes[state].bounds
        assert w / h == pytest.approx((bx1 - bx0) / (by1 - by0), rel=0.03), name  # its own division's outline
        assert max(w / (picture[2] * MM), h / (picture[3] * MM)) == pytest.approx(1, abs=0.02), name
    assert printing.render(game, _deck(store), PrintOptions(gutter=0), store) == data  # the same bytes again


@pytest.mark.mirror
def test_the_region_map_draws_the_borders_of_the_deck_s_divisions(store, monkeypatch):
    deck = _deck(store)
    drawn: dict = {}
    monkeypatch.setattr(grid_map, "draw_map", lambda c, deck, states, *rest: drawn.update(states))
    accessories.render(definition("fra"), deck, AccessoryOptions(), store)
    assert sorted(drawn) == ["Bretagne", "Corse", "Île-de-France"]  # each division drawn, not the one outline
    land = shapely.geometry.shape(deck["region"]["outline"])
    assert shapely.union_all(list(drawn.values())).symmetric_difference(land).area < 1e-6 * land.area


@pytest.mark.mirror
def test_a_reviewed_card_s_division_is_drawn_from_the_whole_deck(fronts, store):
    """A review draws only the changed cards (`only`); their division is still the whole deck's, not one
    drawn from the few cards shown (Rennes alone would draw Bretagne as all of France)."""
    game, data = fronts
    alone = printing.render(game, _deck(store), PrintOptions(layout="one-up", only=("rg-2",)), store)
    forms = set(re.findall(rb"FormXob\.division_\w+", alone))
    assert len(forms) == 1 and forms <= set(re.findall(rb"FormXob\.division_\w+", data))
    assert len(pdfplumber.open(io.BytesIO(alone)).pages) == 2  # Rennes' front and back


@pytest.mark.mirror
def test_the_deutschland_map_for_sale_draws_the_states_its_places_draw(store, monkeypatch):
    """For sale, the Deutschlandkarte has state borders again: the states drawn from the deck's places in
    Natural Earth's Germany, not the one outline of Germany."""
    deck = print_deck("deutschland")
    drawn: dict = {}
    monkeypatch.setattr(deutschland_map, "draw_map", lambda c, deck, states, *rest: drawn.update(states))
    accessories.render(registry.get("deutschland"), deck, AccessoryOptions(for_sale=True), store)
    located = {c["fields"]["state"] for c in deck["cards"] if c["kind"] == "place" and c["fields"]["lat"]}
    assert set(drawn) == located and len(located) == 6
    germany = shapely.geometry.shape(world(store).detail["DEU"]["geometry"])
    assert shapely.union_all(list(drawn.values())).symmetric_difference(germany).area < 1e-6 * germany.area
