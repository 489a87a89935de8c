"""The region decks' reviewed tables (sources/reviewed/region_*.csv, docs/regions.md), each row with its citation:

- region_divisions.csv: a country's current first-level divisions by GeoNames `admin1code`: the ISO 3166-2
  code (names from `pycountry`, the local `name` where pycountry's is wrong) and the division's capitals;
- region_places.csv: what GeoNames gets wrong about a place, by its GeoNames name: `out` (no municipality:
  an agglomeration, a district), `into` (merged into the place `value`, which takes its inhabitants), `name`
  (the local name `value`), `division` (the GeoNames admin1 code `value` of its division, where GeoNames' is wrong),
  `population` (the cited figure `value`, an editor's word: the gate's district check and the second source's
  flag no longer judge it);
- region_names.csv: a place's or division's name in a language, by its local name.

A name in a language is the table's, else in the country's own language the local name, else (a division)
pycountry's ISO 3166-2 translation where it is more than the local name in other case and no list's form
("Madrid, Communauté de", "Madryt (wspólnota)"), else the local name.
"""

import csv
import gettext
import hashlib
import io
import json
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pycountry

from pipeline import paths, readers
from pipeline.errors import GeodeckError

REVIEWED = paths.ROOT / "sources" / "reviewed"
DIVISIONS, PLACES, NAMES = (REVIEWED / f"region_{n}.csv" for n in ("divisions", "places", "names"))
ACTIONS = ("out", "into", "name", "division", "population")


def shown(path: Path) -> str:
    """A reviewed table's path as the messages name it (from the checkout's root)."""
    return path.relative_to(paths.ROOT).as_posix()


@cache
def rows(path: Path) -> tuple[dict[str, str], ...]:
    return tuple(csv.DictReader(io.StringIO(readers.read_input("csv", path), newline="")))


def fingerprint(path: Path, iso3: str) -> str:
    """The version of a reviewed table for one country: the sha256 (12 digits) of its rows, so a row added for
    another country leaves this country's decks as they are."""
    text = "\n".join(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows(path) if r["iso3"] == iso3)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def divisions(iso3: str) -> dict[str, dict[str, str]]:
    """The country's reviewed divisions by GeoNames admin1 code (empty: the country has no reviewed table)."""
    return {r["admin1"]: r for r in rows(DIVISIONS) if r["iso3"] == iso3}


def division_name(row: dict[str, str]) -> str:
    """A division's local name: the reviewed one, else pycountry's ISO 3166-2 name."""
    subdivision = pycountry.subdivisions.get(code=row["code"])
    if subdivision is None:
        raise GeodeckError(f"{shown(DIVISIONS)}: {row['code']!r} is no ISO 3166-2 code in pycountry; fix the row")
    return row["name"] or subdivision.name


def listed(iso3: str, kind: str, local: str, lang: str) -> bool:
    """Whether region_names.csv names this place or division in `lang` (the name's provenance)."""
    return (iso3, kind, local, lang) in _names()


@cache
def _names() -> dict[tuple[str, str, str, str], str]:
    return {(r["iso3"], r["kind"], r["local"], r["lang"]): r["name"] for r in rows(NAMES)}


@cache
def translated(iso3: str, kind: str, local: str, lang: str, code: str = "") -> str:
    """The name of a place or division (`kind`) in `lang` (module docstring); `code` a division's ISO 3166-2 code."""
    if name := _names().get((iso3, kind, local, lang)):
        return name
    if lang == _own_language(iso3):  # the local name is the country's own (Emilia-Romagna, not pycountry's
        return local  # Italian "Emilia Romagna")
    if kind == "division" and code and (subdivision := pycountry.subdivisions.get(code=code)):
        name = _subdivisions(lang).gettext(subdivision.name)
        glossed = ", " in name or "(" in name  # "Madrid, Communauté de", "Madryt (wspólnota)": a list's form
        if not glossed and name.casefold() not in (subdivision.name.casefold(), local.casefold()):
            return name  # not the local name in other letters' case (pycountry's Polish "mazowieckie")
    return local


@cache
def _own_language(iso3: str) -> str | None:
    from pipeline.games.region import own_language

    return own_language(f"region-{iso3.lower()}")


@cache
def _subdivisions(lang: str) -> gettext.NullTranslations:
    return gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[lang], fallback=True)


def corrected(table: pd.DataFrame, iso3: str, towns: pd.DataFrame) -> pd.DataFrame:
    """`table` (name, division, population, ...) with the country's region_places.csv rows applied: `out`
    places dropped, `into` places dropped and their inhabitants (from `table`, else from `towns`, GeoNames'
    towns of 5,000+) added to the place they merged into, then `name` and `division` set; `reviewed` lists the
    actions that changed each place (its values' provenance)."""
    fixes = [r for r in rows(PLACES) if r["iso3"] == iso3]
    if bad := [r["geonames_name"] for r in fixes if r["action"] not in ACTIONS]:
        raise GeodeckError(f"{shown(PLACES)}: unknown action for {', '.join(bad)}; use one of {', '.join(ACTIONS)}")
    table = table.assign(reviewed="")
    names = table["name"].to_numpy()
    gone = np.zeros(len(table), dtype=bool)
    for r in fixes:
        at = np.flatnonzero(names == r["geonames_name"])
        if r["action"] == "out":
            gone[at] = True
        elif r["action"] == "into":
            target = np.flatnonzero(names == r["value"])[:1]  # absent below the floor: the part goes all the same
            merged = table["population"].to_numpy()[at].sum() if len(at) else _population(towns, r["geonames_name"])
            table.iloc[target, table.columns.get_loc("population")] += int(merged)
            table.iloc[target, table.columns.get_loc("reviewed")] += "into;"
            gone[at] = True
    for r in fixes:
        at = np.flatnonzero(names == r["geonames_name"])
        if r["action"] in ("name", "division", "population") and len(at):
            value = _figure(r) if r["action"] == "population" else r["value"]
            table.iloc[at, table.columns.get_loc(r["action"])] = value
            table.iloc[at, table.columns.get_loc("reviewed")] += r["action"] + ";"
    return table.loc[~gone].reset_index(drop=True)


def _figure(row: dict[str, str]) -> int:
    if not row["value"].isdigit():
        raise GeodeckError(
            f"{shown(PLACES)}: the population of {row['geonames_name']} ({row['iso3']}) is {row['value']!r}; write the "
            "cited figure in digits (66573)"
        )
    return int(row["value"])


def population_citation(iso3: str, name: str) -> str:
    """The citation of the `population` row of the place printed as `name` ("" when GeoNames' figure stands)."""
    renamed = {r["geonames_name"]: r["value"] for r in rows(PLACES) if r["iso3"] == iso3 and r["action"] == "name"}
    return next(
        (
            r["citation"]
            for r in rows(PLACES)
            if r["iso3"] == iso3
            and r["action"] == "population"
            and renamed.get(r["geonames_name"], r["geonames_name"]) == name
        ),
        "",
    )


def _population(towns: pd.DataFrame, name: str) -> int:
    hits = towns.loc[towns["name"] == name, "population"]
    return int(hits.max()) if len(hits) else 0
