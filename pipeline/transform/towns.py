"""Transform: the Destatis towns joined to their coordinates from Wikipedia's town list and from GeoNames.

Matching is within the town's state (so "Frankfurt (Oder)" can never take Frankfurt am Main's point),
on normalized name keys (case, umlauts, "ß", accents, Destatis abbreviations such as "i.d.OPf.",
bilingual names such as "Cottbus/Chóśebuz", English exonyms such as "Munich"). When several entries of a
state share a key, Wikipedia's area (km², same definition as Destatis') picks the one whose area is
within AREA_TOLERANCE; GeoNames' candidates are split by distance to the Wikipedia point, or failing that
by population. Every Destatis town is kept: an unmatched source leaves NaN coordinates and a `*_match`
of "none" or "ambiguous", which `validate` reports.

Output `build/transform/towns.parquet`, one row per Destatis town in Destatis order: the Destatis columns
(see parsers.destatis) plus `wiki_name`, `wiki_lat`, `wiki_lon`, `wiki_match`, `geonames_id`,
`geonames_name`, `geonames_lat`, `geonames_lon`, `geonames_match` (match: "name", "alias", "base",
"area", "distance", "population", "none" or "ambiguous").
Also `build/transform/germany_boundaries.parquet` (see parsers.germany_boundaries).
"""

import functools
import math
import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pyproj import Geod

from pipeline import atomic
from pipeline.transform.parsers import destatis, geonames_germany, germany_boundaries, wikipedia_german_cities
from pipeline.transform.parsers.common import parse_complete

AREA_TOLERANCE = 0.10  # relative; Destatis and Wikipedia areas of the same town differ by boundary reforms only
GEONAMES_MAX_KM = 15.0  # a GeoNames candidate further than this from the Wikipedia point is another place
# German name -> the English name Wikipedia's list uses (exonyms only; spelling variants are normalized)
EXONYMS = {
    "München": "Munich",
    "Köln": "Cologne",
    "Nürnberg": "Nuremberg",
    "Hannover": "Hanover",
    "Braunschweig": "Brunswick",
    "Hameln": "Hamelin",
    "Konstanz": "Constance",
}
# Destatis abbreviations -> words, applied to normalized (lower-case, umlaut-expanded) names
_ABBREVIATIONS = [
    (r"\bi\. ?d\. ?opf\.", "in der oberpfalz"),
    (r"\ba\. ?d\. ?", "an der "),
    (r"\bi\. ?d\. ?", "in der "),
    (r"\bi\. ?", "im "),
    (r"\ba\. ?", "am "),
    (r"\bb\. ?", "bei "),
    (r"\bst\. ?", "sankt "),
    (r"\bv\. ?d\. ?", "vor der "),
    (r"\bo\. ?", "ob "),
    (r"\bopf\.?", "oberpfalz"),
]
_GEOD = Geod(ellps="WGS84")


_ABBREVIATION_PATTERNS = [(re.compile(pattern), words) for pattern, words in _ABBREVIATIONS]
_QUALIFIER = re.compile(r" (?:an der|am|im|in der|in|bei|ob|vor der|auf) ")


@functools.cache
def _fold(name: str) -> str:
    """A name's comparison key (computed once per distinct name: the sources repeat names)."""
    text = name.casefold().replace("ß", "ss").replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    if "." in text or "opf" in text:  # every abbreviation has a dot, but "opf"
        for pattern, words in _ABBREVIATION_PATTERNS:
            text = pattern.sub(words, text)
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


@functools.cache
def name_keys(name: str) -> tuple[str, str]:
    """(full key, base key): the full key keeps qualifiers like "(Saale)" or "an der Aisch"; the base drops them."""
    first = name.split("/")[0]
    base = _QUALIFIER.split(_fold(re.split(r"\s*[(,]", first)[0]))[0]
    return _fold(first), base


def _km(lat1, lon1, lat2, lon2) -> float:
    return _GEOD.inv(lon1, lat1, lon2, lat2)[2] / 1000


def _area_close(town_area: float, entry_area: float) -> bool:
    return abs(entry_area - town_area) <= AREA_TOLERANCE * town_area


@dataclass
class _WikiState:
    """One state's Wikipedia entries (row positions in list order) by full and by base name key."""

    full: dict[str, list[int]] = field(default_factory=dict)
    base: dict[str, list[int]] = field(default_factory=dict)
    squeezed: list[tuple[int, str]] = field(default_factory=list)  # (row, full key without spaces)


def _wiki_index(wiki: pd.DataFrame) -> dict[str, _WikiState]:
    index: dict[str, _WikiState] = {}
    for row, (name, state) in enumerate(zip(wiki["name"], wiki["state"])):
        full, base = name_keys(name)
        entries = index.setdefault(state, _WikiState())
        entries.full.setdefault(full, []).append(row)
        entries.base.setdefault(base, []).append(row)
        entries.squeezed.append((row, full.replace(" ", "")))
    return index


def _pick_wiki(name: str, area: float, entries: _WikiState, areas: np.ndarray) -> tuple[int | None, str]:
    full, base = name_keys(name)
    alias = _fold(EXONYMS.get(name, ""))
    for how, keys, key in (("name", entries.full, full), ("alias", entries.full, alias), ("base", entries.base, base)):
        hits = keys.get(key, []) if key else []
        if len(hits) == 1 and (how != "base" or _area_close(area, areas[hits[0]])):
            return hits[0], how
        close = [i for i in hits if _area_close(area, areas[i])]
        if len(close) == 1:
            return close[0], "area"
        if hits:
            return None, "ambiguous"
    # scraped names with glued translations or prefixes ("NiebüllNaibel", "Hanseatic City of Stade")
    squeezed = base.replace(" ", "")
    contains = [i for i, key in entries.squeezed if base and squeezed in key and _area_close(area, areas[i])]
    if len(contains) == 1:
        return contains[0], "area"
    return None, "ambiguous" if contains else "none"


def _pick_geonames(
    name: str, population: int, geo: dict[str, np.ndarray], index: dict[str, list[int]], wiki_point: tuple[float, float]
) -> tuple[int | None, str]:
    keys = {k for k in name_keys(name) if k} | {_fold(EXONYMS.get(name, ""))} - {""}
    hits = sorted({i for k in keys for i in index.get(k, [])})
    if not hits:
        return None, "none"
    if not math.isnan(wiki_point[0]):
        near = sorted((_km(*wiki_point, geo["lat"][i], geo["lon"][i]), i) for i in hits)
        if near[0][0] <= GEONAMES_MAX_KM:
            return near[0][1], "distance" if len(hits) > 1 else "name"
        return None, "none"
    if len(hits) == 1:
        return hits[0], "name"
    by_population = sorted(hits, key=lambda i: abs(geo["population"][i] - population))
    return by_population[0], "population"


def join(towns: pd.DataFrame, wiki: pd.DataFrame, geonames: pd.DataFrame) -> pd.DataFrame:
    """The Destatis towns with both sources' coordinates (pure; see the module docstring). Each source's
    names are folded once into dictionaries by state and key; a town looks its keys up there."""
    wiki_by_state = _wiki_index(wiki)
    geo_index: dict[str, dict[str, list[int]]] = {}
    for row, (name, alts, state) in enumerate(zip(geonames["name"], geonames["alternatenames"], geonames["state"])):
        for key in {k for n in [name, *alts] for k in name_keys(n) if k}:
            geo_index.setdefault(state, {}).setdefault(key, []).append(row)
    wiki_columns = {c: wiki[c].tolist() for c in ("name", "lat", "lon")}
    areas = wiki["area_km2"].to_numpy(float)
    geo = {c: geonames[c].to_numpy() for c in ("geonameid", "name", "lat", "lon", "population")}
    rows = []
    columns = (towns[c] for c in ("name", "state", "area_km2", "population"))
    for name, state, area, population in zip(*columns):
        w, w_how = _pick_wiki(name, area, wiki_by_state.get(state, _WikiState()), areas)
        point = (wiki_columns["lat"][w], wiki_columns["lon"][w]) if w is not None else (math.nan, math.nan)
        g, g_how = _pick_geonames(name, population, geo, geo_index.get(state, {}), point)
        rows.append(
            {
                "wiki_name": wiki_columns["name"][w] if w is not None else None,
                "wiki_lat": point[0],
                "wiki_lon": point[1],
                "wiki_match": w_how,
                "wiki_row": w,
                "geonames_id": geo["geonameid"][g] if g is not None else pd.NA,
                "geonames_name": geo["name"][g] if g is not None else None,
                "geonames_lat": geo["lat"][g] if g is not None else math.nan,
                "geonames_lon": geo["lon"][g] if g is not None else math.nan,
                "geonames_match": g_how,
            }
        )
    joined = pd.concat([towns.reset_index(drop=True), pd.DataFrame(rows)], axis=1)
    joined = _one_to_one(joined, "wiki_row", "wiki")
    joined["geonames_id"] = joined["geonames_id"].astype("Int64")
    return _one_to_one(joined, "geonames_id", "geonames").drop(columns="wiki_row")


def _one_to_one(joined: pd.DataFrame, key: str, prefix: str) -> pd.DataFrame:
    """A source entry claimed by several towns stays with none of them: mark them all ambiguous."""
    claimed = joined[key].notna() & joined[key].duplicated(keep=False)
    joined.loc[claimed, [f"{prefix}_lat", f"{prefix}_lon"]] = np.nan
    joined.loc[claimed, f"{prefix}_match"] = "ambiguous"
    joined.loc[claimed, f"{prefix}_name"] = None
    if prefix == "geonames":
        joined.loc[claimed, "geonames_id"] = pd.NA
    return joined


def step(io) -> None:
    """The transform-towns step (pipeline.build.graph): parse the three sources, join, write both tables."""
    towns = parse_complete(destatis, destatis.read(io.store, io.source(destatis.SOURCE)))
    wiki = parse_complete(
        wikipedia_german_cities, wikipedia_german_cities.read(io.store, io.source(wikipedia_german_cities.SOURCE))
    )
    geo = parse_complete(geonames_germany, geonames_germany.read(io.source(geonames_germany.SOURCE)))
    boundaries = parse_complete(
        germany_boundaries, *germany_boundaries.read(io.store, io.source(germany_boundaries.SOURCE))
    )
    atomic.write_parquet(io.path("transform/towns.parquet"), join(towns, wiki, geo))
    atomic.write_parquet(io.path("transform/germany_boundaries.parquet"), boundaries)
