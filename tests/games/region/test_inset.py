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
