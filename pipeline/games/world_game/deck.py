"""The World Game: 194 country cards (193 UN members + the Vatican) with the map number."""

import pandas as pd

from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import card_from_row, provenance, sort_name
from pipeline.errors import GeodeckError


def members(countries: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """UN members plus the spec's `extra_members` (the Vatican)."""
    member = countries["un_member"].fillna(False).astype(bool)
    return countries[member | countries["iso3"].isin(spec.options.get("extra_members", []))]


def cards(countries: pd.DataFrame, spec: DeckSpec) -> list[dict]:
    chosen = members(countries, spec)
    missing_number = chosen.loc[chosen["map_number"].isna(), "iso3"].tolist()
    if missing_number:
        raise GeodeckError(
            f"build/geo/countries.parquet: no map_number for {', '.join(missing_number)}; "
            "rebuild the geo stage (`geodeck build`)"
        )
    out = []
    for row in sorted(chosen.to_dict("records"), key=lambda r: (int(r["map_number"]), sort_name(r["name_en"]))):
        fields, prov = card_from_row(row, spec.fields, spec.kinds["country"])
        # Derived values carry the provenance of what they are derived from.
        for name, origin in (("land_neighbours", "land_neighbours"), ("map_number", "label_lon")):
            if name not in prov and fields[name] is not None and provenance(row, origin):
                prov[name] = provenance(row, origin)
        out.append({"id": f"{spec.id_prefix}-{row['iso3']}", "kind": "country", "fields": fields, "provenance": prov})
    return out
