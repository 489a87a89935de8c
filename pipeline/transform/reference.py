"""The country universe: the 193 UN member states plus Vatican, Palestine, Kosovo, Taiwan and Antarctica.

Every reviewed choice is listed in docs/countries.md. In short:
- UN membership: mledoze `unMember` as `parsers.mledoze` corrects it (the Vatican is a permanent observer,
  not a member); that correction is reported with source "reviewed".
- name_en: mledoze's common English name ("Germany", "Ivory Coast", "Türkiye", "Czechia"), overridden by
  sources/reviewed/names_en.csv (iso3,name_en,reason) where English references use another (Republic of the Congo).
- name_de: pycountry's German ISO 3166 translation of the common (else the ISO) name, overridden by
  sources/reviewed/names_de.csv (iso3,name_de,reason) where it is a long official form or missing.
- iso2: pycountry; Kosovo XK.
- capitals: sources/reviewed/capitals.csv (iso3, capitals, capital_lat, capital_lon, reason, citation) for
  the countries with several capitals or a Factbook list that does not start with the official capital
  (Myanmar, Bolivia, Sri Lanka...): all official capitals, the card capital first, with its coordinates.
- continents: mledoze region, with the Americas split by subregion (Central America and the Caribbean
  are North America); the transcontinental countries of sources/reviewed/continents.csv (iso3,
  continents, reason) get both continents: land on both sides of a usual continental boundary (Ural and
  Ural River, Greater Caucasus watershed, Bosporus and Dardanelles, Suez Canal, New Guinea); islands on
  another continent's shelf do not count (Canaries, Socotra, Madeira, Hawaii).
"""

import csv
import gettext
from functools import cache
from importlib import metadata
from io import StringIO

import pandas as pd
import pycountry

from pipeline import readers
from pipeline.errors import GeodeckError, ParseError
from pipeline.extract import names
from pipeline.paths import SOURCES_DIR
from pipeline.transform import observations
from pipeline.transform.observations import CONTINENTS
from pipeline.transform.parsers.iso3 import KOSOVO, KOSOVO_ISO2

NAMES_DE_FILE = SOURCES_DIR / "reviewed" / "names_de.csv"
NAMES_EN_FILE = SOURCES_DIR / "reviewed" / "names_en.csv"
CAPITALS_FILE = SOURCES_DIR / "reviewed" / "capitals.csv"
REVIEWED = "reviewed"
REVIEWED_VINTAGE = "2026-11"

NON_MEMBERS = ["VAT", "PSE", "XKX", "TWN", "ATA"]
UN_MEMBERS = 193
CONTINENTS_FILE = SOURCES_DIR / "reviewed" / "continents.csv"
REGIONS = {"Europe": "Europe", "Africa": "Africa", "Asia": "Asia", "Oceania": "Oceania", "Antarctic": "Antarctica"}

UNIVERSE_COLUMNS = ["iso3", "iso2", "name_en", "name_de", "continents", "un_member"]


def continents_of(region: str, subregion: str) -> tuple[str, ...]:
    if region == "Americas":
        return ("South America",) if subregion == "South America" else ("North America",)
    if region not in REGIONS:
        raise ParseError(names.MLEDOZE, "region", f"unknown region {region!r}")
    return (REGIONS[region],)


@cache
def _german():
    return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["de"])


def pycountry_name_de(iso3: str) -> str | None:
    """German name from pycountry's iso-codes translations: common name if it has one, else the ISO name."""
    country = pycountry.countries.get(alpha_3=iso3)
    if country is None:
        return None
    return _german().gettext(getattr(country, "common_name", None) or country.name)


def read_names(path=NAMES_DE_FILE, column: str = "name_de") -> dict[str, tuple[str, str]]:
    """A reviewed names table (iso3, `column`, reason): iso3 -> (name, reason)."""
    with StringIO(readers.read_input("csv", path), newline="") as fh:
        return {row["iso3"]: (row[column], row["reason"]) for row in csv.DictReader(fh)}


def read_continents(path=CONTINENTS_FILE) -> dict[str, tuple[str, str]]:
    """The reviewed transcontinental countries: iso3 -> (';'-joined continents in CONTINENTS order, reason)."""
    with StringIO(readers.read_input("csv", path), newline="") as fh:
        rows = list(csv.DictReader(fh))
    bad = [r["iso3"] for r in rows if set(r["continents"].split(";")) - set(CONTINENTS) or not r["reason"].strip()]
    if bad:
        raise GeodeckError(f"{path}: rows {', '.join(bad)} need known continents and a reason; fix them")
    return {r["iso3"]: (";".join(sorted(r["continents"].split(";"), key=CONTINENTS.index)), r["reason"]) for r in rows}


def read_capitals(path=CAPITALS_FILE) -> list[dict]:
    """The reviewed capitals as observation rows (capital, capital_lat, capital_lon; source "reviewed")."""
    rows = []
    with StringIO(readers.read_input("csv", path), newline="") as fh:
        for row in csv.DictReader(fh):
            base = {
                "iso3": row["iso3"],
                "source": REVIEWED,
                "vintage": REVIEWED_VINTAGE,
                "note": f"{row['reason']}; source: {row['citation']}",
            }
            rows += [
                {**base, "field": "capital", "value": row["capitals"]},
                {**base, "field": "capital_lat", "value": float(row["capital_lat"])},
                {**base, "field": "capital_lon", "value": float(row["capital_lon"])},
            ]
    return rows


def select_universe(countries: pd.DataFrame) -> pd.DataFrame:
    """The rows of the parsed mledoze table (`parsers.mledoze.parse`) that form the universe; a ParseError
    unless they are exactly the 193 UN members plus NON_MEMBERS."""
    chosen = countries[countries["un_member"] | countries["iso3"].isin(NON_MEMBERS)]
    members = int(chosen["un_member"].sum())
    if members != UN_MEMBERS or len(chosen) != UN_MEMBERS + len(NON_MEMBERS) or chosen["iso3"].duplicated().any():
        raise ParseError(
            names.MLEDOZE,
            "unMember",
            f"{members} UN members and {len(chosen)} countries, "
            f"expected {UN_MEMBERS} and {UN_MEMBERS + len(NON_MEMBERS)}",
        )
    return chosen.reset_index(drop=True)


def reference_rows(
    chosen: pd.DataFrame,
    names_de: dict[str, tuple[str, str]],
    mledoze_vintage: str,
    names_en: dict[str, tuple[str, str]] | None = None,
) -> list[dict]:
    """Observation rows (name_en, name_de, iso2, un_member, continents) for the chosen rows of the parsed
    mledoze table; `names_de`/`names_en`: the reviewed names (iso3 -> (name, reason)) that replace the
    sources' names."""
    names_en = names_en or {}
    pyc_vintage = f"pycountry {metadata.version('pycountry')}"
    transcontinental = read_continents()
    rows = []
    for c in chosen.itertuples():
        mled = {"iso3": c.iso3, "source": names.MLEDOZE, "vintage": mledoze_vintage, "note": ""}
        pyc = {"iso3": c.iso3, "source": names.PYCOUNTRY, "vintage": pyc_vintage, "note": ""}
        rev = {"iso3": c.iso3, "source": REVIEWED, "vintage": REVIEWED_VINTAGE}
        if c.iso3 in names_en:
            rows.append({**rev, "field": "name_en", "value": names_en[c.iso3][0], "note": names_en[c.iso3][1]})
        else:
            rows.append({**mled, "field": "name_en", "value": c.name_en})
        if c.iso3 in names_de:
            rows.append({**rev, "field": "name_de", "value": names_de[c.iso3][0], "note": names_de[c.iso3][1]})
        else:
            rows.append({**pyc, "field": "name_de", "value": pycountry_name_de(c.iso3)})
        if c.un_member_note:
            rows.append({**rev, "field": "un_member", "value": bool(c.un_member), "note": c.un_member_note})
        else:
            rows.append({**mled, "field": "un_member", "value": bool(c.un_member)})
        if c.iso3 == KOSOVO:
            rows.append({**rev, "field": "iso2", "value": KOSOVO_ISO2, "note": "user-assigned code, as the EU uses"})
        else:
            rows.append({**pyc, "field": "iso2", "value": pycountry.countries.lookup(c.iso3).alpha_2})
        if c.iso3 in transcontinental:
            value, reason = transcontinental[c.iso3]
            rows.append({**rev, "field": "continents", "value": value, "note": reason})
        else:
            rows.append({**mled, "field": "continents", "value": ";".join(continents_of(c.region, c.subregion))})
    missing = [r["iso3"] for r in rows if r["value"] is None]
    if missing:
        raise ParseError(
            names.PYCOUNTRY, "name_de", f"no German name for {', '.join(missing)}; add it to {NAMES_DE_FILE.name}"
        )
    return rows


def reference_observations(countries: pd.DataFrame, mledoze_vintage: str) -> pd.DataFrame:
    """The universe's reference fields as observations, each with its source ("mledoze-countries",
    "pycountry" or "reviewed"), plus the reviewed capitals. `countries`: the parsed mledoze table
    (`parsers.mledoze.parse`), `mledoze_vintage`: its source's edition."""
    names_en = read_names(NAMES_EN_FILE, "name_en")
    rows = reference_rows(select_universe(countries), read_names(), mledoze_vintage, names_en)
    return observations.frame(rows + read_capitals())


def universe(reference: pd.DataFrame) -> pd.DataFrame:
    """One row per country of the reference observations (198), sorted by iso3: iso3, iso2, name_en,
    name_de (str), continents (str, ';'-joined in observations.CONTINENTS order), un_member (bool)."""
    fields = reference[reference["field"].isin(UNIVERSE_COLUMNS)]
    wide = fields.pivot(index="iso3", columns="field", values="value").reset_index()
    wide = wide.astype({"iso2": "str", "name_en": "str", "name_de": "str", "continents": "str", "un_member": bool})
    return wide[UNIVERSE_COLUMNS].sort_values("iso3").reset_index(drop=True)
