"""Deutschland: Das Kartenspiel: the 96 places of the place selection and 24 guess cards."""

import pandas as pd

from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import card_from_row, missing
from pipeline.errors import GeodeckError

ASCII = str.maketrans({"ü": "ue", "ö": "oe", "ä": "ae", "ß": "ss"})


def place_card(row: dict, spec: DeckSpec) -> dict:
    fields, _ = card_from_row(row, spec.fields, spec.kinds["place"])
    coords = {"source": str(row["coord_source"]), "vintage": None}
    population = {"source": str(row["population_source"]),
                  "vintage": None if missing(row["population_vintage"]) else str(row["population_vintage"])}
    prov = {"population": population, "population_vintage": population,
            **{name: coords for name in ("lat", "lon", "ns", "we") if fields[name] is not None}}
    return {"id": f"{spec.id_prefix}-{row['ags']}", "kind": "place", "fields": fields, "provenance": prov}


def guess_cards(spec: DeckSpec) -> list[dict]:
    """4 colours × 6 fronts; the W card carries M on its back."""
    backs = spec.options.get("backs", {})
    return [{"id": f"{spec.id_prefix}-{colour.translate(ASCII)}-{front}", "kind": "guess",
             "fields": {"colour": colour, "front": front, "back": backs.get(front)}, "provenance": {}}
            for colour in spec.options["colours"] for front in spec.options["fronts"]]


def cards(places: pd.DataFrame, spec: DeckSpec) -> list[dict]:
    chosen = places[places["in_deck"].fillna(False).astype(bool)]
    if len(chosen) != spec.options["place_cards"]:
        raise GeodeckError(f"build/geo/places.parquet marks {len(chosen)} places in_deck, "
                           f"{spec.options['place_cards']} needed; rebuild the towns and geo stages")
    rows = sorted(chosen.to_dict("records"), key=lambda r: str(r["ags"]))
    return [place_card(r, spec) for r in rows] + guess_cards(spec)
