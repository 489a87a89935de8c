"""The World Game: 194 country cards (193 UN members + the Vatican) with the map number: the geo stage's
order (west to east by continent), numbered 1-N over the deck's own countries (the world's 194, or a recipe's
region: its map's numbers)."""

import pandas as pd

from pipeline.decks import counting
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import provenance, sort_name
from pipeline.errors import GeodeckError


def members(countries: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """UN members plus the spec's `extra_members` (the Vatican)."""
    member = countries["un_member"].fillna(False).astype(bool)
    return countries[member | countries["iso3"].isin(spec.options.get("extra_members", []))]


def cards(countries: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    chosen = members(countries, spec)
    missing_number = chosen.loc[chosen["map_number"].isna(), "iso3"].tolist()
    if missing_number:
        raise GeodeckError(
            f"build/geo/countries.parquet: no map_number for {', '.join(missing_number)}; "
            "rebuild the geo stage (`geodeck build`)"
        )
    codes = set(chosen["iso3"])
    out = []
    ordered = sorted(chosen.to_dict("records"), key=lambda r: (int(r["map_number"]), sort_name(r["name_en"])))
    for number, row in enumerate(ordered, 1):  # 1-N in the map's order: a deck of a region numbers its own map
        counting.check_neighbours(row["iso3"], row["land_neighbours"], codes, spec)
        card = Card.from_row(f"{spec.id_prefix}-{row['iso3']}", "country", row, spec)
        card.fields["map_number"] = number
        card.fields["continents"] = counting.shown_continents(
            row["iso3"], card.fields["continents"] or [], row.get("primary_continent"), spec
        )
        # Derived values carry the provenance of what they are derived from.
        for name, column in (("land_neighbours", "land_neighbours"), ("map_number", "label_lon")):
            origin = provenance(row, column)
            if name not in card.provenance and card.fields[name] is not None and origin:
                card.provenance[name] = origin
        out.append(card)
    return out


def reasons(countries: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each country is a card or not (pipeline.decks.reasons): every UN member and the spec's extra members."""
    extra = set(spec.options.get("extra_members", []))
    member = countries["un_member"].fillna(False).astype(bool)
    reason = [
        "UN member state"
        if un
        else "extra member (templates/decks/world-game.toml)"
        if code in extra
        else "not a UN member"
        for code, un in zip(countries["iso3"], member)
    ]
    return pd.DataFrame(
        {
            "card": spec.id_prefix + "-" + countries["iso3"],
            "label": countries["name_en"].fillna(countries["iso3"]),
            "reason": reason,
        }
    )
