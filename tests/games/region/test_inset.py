"""Spain's Canary Islands in an inset beside Andalucía (issue 41, docs/regions.md): the grid moves every point
of the inset's box by its offset before numbering it, so Las Palmas and Santa Cruz de Tenerife are cards,
their numbers read off the inset; a grid without an inset is written and read as before."""

import numpy as np
import pytest

from pipeline.games.region import build as region_build
from pipeline.games.region import geography
from pipeline.geo.grid import Grid, Inset

INSET = Inset(west=-18.3, south=27.55, east=-13.3, north=29.35, dlon=17.46, dlat=7.75)
MATRIX = ((0.0, 1e-4), (-1e-4, 0.0), (75.0, 45.0))


def test_a_point_in_the_inset_s_box_is_numbered_where_the_inset_puts_it():
    grid = Grid("+proj=laea +lat_0=40 +lon_0=-3.5 +datum=WGS84 +units=m +no_defs", MATRIX, INSET)
    plain = Grid(grid.crs, MATRIX)
    las_palmas, madrid = (28.1, -15.41), (40.42, -3.70)
    assert np.allclose(grid.values(*las_palmas), plain.values(28.1 + 7.75, -15.41 + 17.46))
    assert np.allclose(grid.values(*madrid), plain.values(*madrid))  # outside the box: where it lies
    assert Grid.from_dict(grid.to_dict()) == grid
    assert plain.to_dict() == {"crs": plain.crs, "affine": [[0.0, -1e-4, 75.0], [1e-4, 0.0, 45.0]]}  # as before
    with pytest.raises(ValueError, match="inset"):
        Grid.from_dict({**grid.to_dict(), "inset": {"west": 1}})


@pytest.mark.mirror
def test_spain_keeps_the_canaries_in_an_inset_beside_its_mainland(store):
    assert region_build.inset("ESP") == INSET  # the settings' inset
    spain = region_build.Country(store, "ESP")
    grid, _ = spain.grid(None)
    assert grid.inset == INSET
    table, _ = spain.candidates(None)
    islands = table.loc[table["state"] == "Canarias"].set_index("name")
    assert {"Las Palmas de Gran Canaria", "Santa Cruz de Tenerife"} <= set(islands.index)
    assert ((islands["ns"] > 110) & (islands["we"] > 50)).all()  # south-east of the map, off no edge
    drawn = geography.moved(spain.outline, INSET)
    assert drawn.bounds[0] > -9.5 and drawn.bounds[1] > 35  # the islands moved beside the mainland


def test_the_map_frames_the_inset_s_islands_where_the_inset_puts_them():
    import shapely

    from pipeline.games.grid import accessories as grid_map
    from pipeline.render.text import Box

    grid = Grid("+proj=laea +lat_0=40 +lon_0=-3.5 +datum=WGS84 +units=m +no_defs", MATRIX, INSET)
    frame = grid_map.fit_frame(grid, Box(10, 10, 180, 250))
    island = shapely.box(-16.0, 28.0, -15.0, 28.5)  # where it lies
    mainland = shapely.box(-5.0, 39.0, -3.0, 41.0)
    box = (-500.0, -500.0, 500.0, 500.0)  # the whole page: nothing to clip
    drawn = grid_map.inset_frame({"Canarias": island, "Madrid": mainland}, grid, frame, box)
    on_page = frame.geometry(island, grid)  # the island moved by the inset, on the page
    assert drawn.contains(on_page) and not drawn.intersects(frame.geometry(mainland, grid))
    x0, y0, x1, y1 = on_page.bounds
    assert np.allclose(drawn.bounds, (x0 - 3, y0 - 3, x1 + 3, y1 + 3))  # INSET_PAD_MM around its land


def test_the_kit_says_that_an_inset_s_islands_lie_farther_away_than_drawn():
    from types import SimpleNamespace

    from pipeline.games.region import definition
    from pipeline.i18n import registry
    from pipeline.render import kit, layouts

    game_kit = kit._words(layouts.load(definition("ESP")), registry.language("de"))[2]  # the German kit's own words

    def terms(grid: dict) -> list[str]:
        deck = {"grid": grid}
        kc = SimpleNamespace(game=None, deck=deck, kit={}, game_kit=game_kit, options=SimpleNamespace(for_sale=False))
        return [str(p) for p in kit._terms(kc, {}, [])]  # type: ignore[arg-type]  # the fields _terms reads

    assert any("Nebenkarte:" in p for p in terms({"crs": "x", "affine": [], "inset": {"west": -18.3}}))
    assert not any("Nebenkarte" in p for p in terms({"crs": "x", "affine": []}))
