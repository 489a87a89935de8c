"""World-map numbers and the geo stage's country table (the numbering rule is in the games' docs).

`primary_continent` is a country's first continent in the order North America, South America, Europe,
Africa, Asia, Oceania, Antarctica, except for the transcontinental states in PRIMARY whose capital and
most of whose people lie on their second continent. `map_number` numbers the deck's countries (UN members
and the Vatican) 1, 2, 3 … continent by continent in that order, and within a continent west to east by
the longitude of the country's label point (Natural Earth's, where a map writes the name; validate's
`label_lat`/`label_lon`) on a map cut at 180°, ties north to south, then by ISO3.
"""

import pandas as pd

from pipeline import atomic, readers
from pipeline.errors import GeodeckError
from pipeline.transform.observations import CONTINENTS

PRIMARY = {"KAZ": "Asia", "AZE": "Asia", "GEO": "Asia", "ARM": "Asia"}
NUMBERED_EXTRA = {"VAT"}


def primary_continent(iso3: str, continents) -> str | None:
    listed = [c for c in str(continents).split(";") if c] if isinstance(continents, str) else []
    unknown = [c for c in listed if c not in CONTINENTS]
    if unknown:
        raise GeodeckError(f"{iso3}: unknown continent(s) {unknown}; the validate stage must use {CONTINENTS}")
    if not listed:
        return None
    override = PRIMARY.get(iso3)
    return override if override in listed else min(listed, key=CONTINENTS.index)


def numbered(countries: pd.DataFrame) -> pd.DataFrame:
    """The country table plus `primary_continent` and `map_number` (nullable Int64)."""
    out = countries.copy()
    out["primary_continent"] = [primary_continent(i, c) for i, c in zip(out["iso3"], out["continents"])]
    members = out["un_member"].fillna(False).astype(bool) | out["iso3"].isin(NUMBERED_EXTRA)
    deck = out[members]
    unplaced = deck.loc[deck["primary_continent"].isna() | deck["label_lon"].isna(), "iso3"].tolist()
    if unplaced:
        raise GeodeckError(
            f"no continent or label point for {', '.join(unplaced)} in the validated "
            "country table; fix the validate stage"
        )
    order = deck.assign(_c=deck["primary_continent"].map(CONTINENTS.index), _lat=-deck["label_lat"])
    order = order.sort_values(["_c", "label_lon", "_lat", "iso3"], kind="stable")
    out["map_number"] = pd.Series(range(1, len(order) + 1), index=order.index).reindex(out.index).astype("Int64")
    return out.sort_values("iso3").reset_index(drop=True)


def step(io) -> None:
    """The geo-countries step (pipeline.build.graph): build/validate/countries.parquet → build/geo/countries.parquet."""
    table = numbered(readers.table(io.path("validate/countries.parquet")))
    atomic.write_bytes(io.path("geo/countries.parquet"), table.to_parquet(index=False))
