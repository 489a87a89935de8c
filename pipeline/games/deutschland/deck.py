"""Deutschland: Das Kartenspiel: the 96 places of the place selection and 24 guess cards, and the grid
their numbers were computed with."""

from pathlib import Path

import pandas as pd

from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import missing
from pipeline.errors import GeodeckError
from pipeline.games.grid.decks import guess_cards
from pipeline.geo.grid import read_report
from pipeline.hashing import file_sha256

GRID = "geo-grid"
CONTROL_POINTS = "sources/reviewed/grid_control_points.csv"


def place_card(row: dict, spec: DeckSpec) -> Card:
    """A place card. Provenance: the name and population are Destatis' (a name in another language its reviewed
    table's, or Destatis' flagged as a fallback); lat/lon their coordinate source; ns/we the grid (GRID, vintage
    naming its calibration CRS and control points) applied to those coordinates."""
    population = {
        "source": str(row["population_source"]),
        "vintage": None if missing(row["population_vintage"]) else str(row["population_vintage"]),
    }
    named = {"country": spec.options["country"], **{f"short_name__{k}": v for k, v in population.items()}}
    card = Card.from_row(f"{spec.id_prefix}-{row['ags']}", "place", {**row, **named}, spec)
    coords = {"source": str(row["coord_source"]), "vintage": None}
    grid = {
        "source": f"{GRID} / {row['coord_source']}",
        "vintage": f"affine fit in {row['grid_crs']} on {CONTROL_POINTS}",
    }
    card.provenance = {
        **card.provenance,  # the towns' and states' names in every language
        "name": population,
        "population": population,
        "population_vintage": population,
        **{name: coords for name in ("lat", "lon") if card.fields[name] is not None},
        **{name: grid for name in ("ns", "we") if card.fields[name] is not None},
    }
    return card


def cards(places: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    chosen = places[places["in_deck"].fillna(False).astype(bool)]
    if len(chosen) != spec.options["place_cards"]:
        raise GeodeckError(
            f"build/geo/places.parquet marks {len(chosen)} places in_deck, "
            f"{spec.options['place_cards']} needed; rebuild the towns and geo stages"
        )
    rows = sorted(chosen.to_dict("records"), key=lambda r: str(r["ags"]))
    return [place_card(r, spec) for r in rows] + guess_cards(spec)


def reasons(places: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each located town is a card or not (pipeline.decks.reasons): the geo step's `reason`."""
    if "reason" not in places:
        raise GeodeckError("build/geo/places.parquet has no `reason` column; rebuild it with `geodeck build`")
    card = spec.id_prefix + "-" + places["ags"].astype(str)
    return pd.DataFrame({"card": card, "label": places["short_name"], "reason": places["reason"]})


def metadata(build_root: Path, reads: tuple[str, ...]) -> tuple[dict, dict[str, str]]:
    """The deck's top-level `grid` (the geo stage's chosen grid, `Grid.to_dict`, plus its control points file),
    so the map prints from the deck alone; and the sha256 of the report it comes from (`reads`: the
    definition's `deck_reads`, the geo stage's grid report)."""
    (report,) = reads
    _, grid = read_report(build_root / report)
    return (
        {"grid": {**grid.to_dict(), "control_points": CONTROL_POINTS}},
        {f"build/{report}": file_sha256(build_root / report)},
    )
