"""A synthetic country of candidate towns, seeded, for testing and benchmarking place selection at the
scale of GeoNames' towns of a large country (thousands): the columns `pipeline.geo.selection` reads.

Towns lie in a box of `size` = (height, width) degrees, clustered around a few centres; populations
follow a Pareto law above `min_population` (every town is a candidate); the box is cut into `divisions`
vertical strips (the states or regions); `ns`/`we` are whole grid numbers, 0-150 from north to south and
0-90 from west to east, as on the Deutschland map.
"""

import numpy as np
import pandas as pd


def country(
    towns: int, seed: int, divisions: int = 16, min_population: int = 20_000, centre=(51.0, 10.0), size=(8.0, 9.0)
) -> pd.DataFrame:
    """`towns` rows: name, division, lat, lon, population, ns, we."""
    rng = np.random.default_rng(seed)
    height, width = size
    south, west = centre[0] - height / 2, centre[1] - width / 2
    hubs = rng.uniform((south, west), (south + height, west + width), size=(max(towns // 100, divisions), 2))
    near = hubs[rng.integers(len(hubs), size=towns)] + rng.normal(0, 0.6, size=(towns, 2))
    lat = np.clip(near[:, 0], south, south + height)
    lon = np.clip(near[:, 1], west, west + width)
    population = np.round(min_population * (1 + rng.pareto(1.2, size=towns))).astype(np.int64)
    strip = np.minimum(((lon - west) / width * divisions).astype(int), divisions - 1)
    return pd.DataFrame(
        {
            "name": [f"Town {i}" for i in range(towns)],
            "division": [f"Division {d + 1}" for d in strip],
            "lat": lat,
            "lon": lon,
            "population": population,
            "ns": np.rint((south + height - lat) / height * 150).astype(int),
            "we": np.rint((lon - west) / width * 90).astype(int),
        }
    )
