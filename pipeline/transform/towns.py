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

import math
import re
import unicodedata
from pathlib import Path

import numpy as np
import pandas as pd
from pyproj import Geod

from pipeline import atomic
from pipeline.extract import SnapshotStore, load_sources
from pipeline.paths import build_dir
from pipeline.steps import run_step
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
CODE = [
    "transform.towns",
    "transform.german_states",
    "transform.parsers.destatis",
    "transform.parsers.geonames_germany",
    "transform.parsers.germany_boundaries",
    "transform.parsers.wikipedia_german_cities",
]


def _fold(name: str) -> str:
    text = name.casefold().replace("ß", "ss").replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    for pattern, words in _ABBREVIATIONS:
        text = re.sub(pattern, words, text)
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


def name_keys(name: str) -> tuple[str, str]:
    """(full key, base key): the full key keeps qualifiers like "(Saale)" or "an der Aisch"; the base drops them."""
    first = name.split("/")[0]
    base = re.split(r" (?:an der|am|im|in der|in|bei|ob|vor der|auf) ", _fold(re.split(r"\s*[(,]", first)[0]))[0]
    return _fold(first), base


def _km(lat1, lon1, lat2, lon2) -> float:
    return _GEOD.inv(lon1, lat1, lon2, lat2)[2] / 1000


def _pick_wiki(town: pd.Series, wiki: pd.DataFrame) -> tuple[int | None, str]:
    full, base = name_keys(town["name"])
    alias = _fold(EXONYMS.get(town["name"], ""))
    for how, column, key in (("name", "full", full), ("alias", "full", alias), ("base", "base", base)):
        hits = wiki.index[(wiki[column] == key) & (key != "")]
        if len(hits) == 1 and (how != "base" or _area_close(town, wiki.loc[hits[0]])):
            return hits[0], how
        close = [i for i in hits if _area_close(town, wiki.loc[i])]
        if len(close) == 1:
            return close[0], "area"
        if len(hits):
            return None, "ambiguous"
    # scraped names with glued translations or prefixes ("NiebüllNaibel", "Hanseatic City of Stade")
    contains = [
        i
        for i in wiki.index
        if base and base.replace(" ", "") in wiki.at[i, "full"].replace(" ", "") and _area_close(town, wiki.loc[i])
    ]
    if len(contains) == 1:
        return contains[0], "area"
    return None, "ambiguous" if contains else "none"


def _area_close(town: pd.Series, entry: pd.Series) -> bool:
    return abs(entry["area_km2"] - town["area_km2"]) <= AREA_TOLERANCE * town["area_km2"]


def _pick_geonames(
    town: pd.Series, geo: pd.DataFrame, index: dict[str, list[int]], wiki_point: tuple[float, float]
) -> tuple[int | None, str]:
    keys = {k for k in name_keys(town["name"]) if k} | {_fold(EXONYMS.get(town["name"], ""))} - {""}
    hits = sorted({i for k in keys for i in index.get(k, [])})
    if not hits:
        return None, "none"
    if not math.isnan(wiki_point[0]):
        near = sorted((_km(*wiki_point, geo.at[i, "lat"], geo.at[i, "lon"]), i) for i in hits)
        if near[0][0] <= GEONAMES_MAX_KM:
            return near[0][1], "distance" if len(hits) > 1 else "name"
        return None, "none"
    if len(hits) == 1:
        return hits[0], "name"
    by_population = sorted(hits, key=lambda i: abs(geo.at[i, "population"] - town["population"]))
    return by_population[0], "population"


def join(towns: pd.DataFrame, wiki: pd.DataFrame, geonames: pd.DataFrame) -> pd.DataFrame:
    """The Destatis towns with both sources' coordinates (pure; see the module docstring)."""
    wiki = wiki.assign(full=[name_keys(n)[0] for n in wiki["name"]], base=[name_keys(n)[1] for n in wiki["name"]])
    geo_index: dict[str, dict[str, list[int]]] = {}
    for i, name, alts, state in zip(geonames.index, geonames["name"], geonames["alternatenames"], geonames["state"]):
        for key in {k for n in [name, *alts] for k in name_keys(n) if k}:
            geo_index.setdefault(state, {}).setdefault(key, []).append(i)
    wiki_by_state = {s: g for s, g in wiki.groupby("state")}  # noqa: C416 (dict() of a GroupBy reads its .keys)
    rows = []
    for _, town in towns.iterrows():
        w, w_how = _pick_wiki(town, wiki_by_state.get(town["state"], wiki.iloc[:0]))
        point = (wiki.at[w, "lat"], wiki.at[w, "lon"]) if w is not None else (math.nan, math.nan)
        g, g_how = _pick_geonames(town, geonames, geo_index.get(town["state"], {}), point)
        rows.append(
            {
                "wiki_name": wiki.at[w, "name"] if w is not None else None,
                "wiki_lat": point[0],
                "wiki_lon": point[1],
                "wiki_match": w_how,
                "wiki_row": w,
                "geonames_id": geonames.at[g, "geonameid"] if g is not None else pd.NA,
                "geonames_name": geonames.at[g, "name"] if g is not None else None,
                "geonames_lat": geonames.at[g, "lat"] if g is not None else math.nan,
                "geonames_lon": geonames.at[g, "lon"] if g is not None else math.nan,
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


def outputs() -> dict[str, Path]:
    folder = build_dir() / "transform"
    return {"towns": folder / "towns.parquet", "boundaries": folder / "germany_boundaries.parquet"}


def write_parquet(frame: pd.DataFrame, path: Path) -> None:
    """`atomic.write_parquet` with the frame first, as `geo.places` calls it."""
    atomic.write_parquet(path, frame)


def run(store: SnapshotStore, force: bool = False) -> bool:
    """The `transform-towns` step: parse the three sources, join, write both tables; True if it ran."""
    sources = load_sources()
    files = {
        name: sources[name]
        for name in (
            destatis.SOURCE,
            wikipedia_german_cities.SOURCE,
            germany_boundaries.SOURCE,
            geonames_germany.SOURCE,
        )
    }
    inputs = {f"{s.name}/{f.path}": f.sha256 for s in files.values() for f in s.files}
    inputs[geonames_germany.SOURCE] = str(files[geonames_germany.SOURCE].version)

    def make() -> None:
        towns = parse_complete(destatis, destatis.read(store, files[destatis.SOURCE]))
        wiki = parse_complete(
            wikipedia_german_cities, wikipedia_german_cities.read(store, files[wikipedia_german_cities.SOURCE])
        )
        geo = parse_complete(geonames_germany, geonames_germany.read(files[geonames_germany.SOURCE]))
        boundaries = parse_complete(
            germany_boundaries, *germany_boundaries.read(store, files[germany_boundaries.SOURCE])
        )
        atomic.write_parquet(outputs()["towns"], join(towns, wiki, geo))
        atomic.write_parquet(outputs()["boundaries"], boundaries)

    return run_step("transform-towns", inputs, CODE, outputs().values(), make, force=force)
