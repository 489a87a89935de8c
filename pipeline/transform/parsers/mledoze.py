"""mledoze/countries countries.json: ISO codes, English and German names, capitals, borders, area, UN membership.

Kosovo carries the placeholder cca3 "UNK" (also in its neighbours' borders); it is keyed as XKX here.
"""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform.observations import frame
from pipeline.transform.parsers.common import Complete, load_json
from pipeline.transform.parsers.iso3 import KOSOVO

SOURCE = "mledoze-countries"
COMPLETE = Complete(rows=225, countries=225)  # pinned file: 250 rows and countries
PATH = "countries.json"
PLACEHOLDER = {"UNK": KOSOVO}
# The file flags the Holy See as a UN member; it is a permanent observer state, not a member.
NOT_UN_MEMBERS = {"VAT"}

COLUMNS = {
    "cca2": "ISO2 as in the file",
    "cca3": "ISO3 as in the file",
    "iso3": "ISO3 (Kosovo XKX)",
    "name_en": "name.common",
    "name_de": "translations.deu.common",
    "capital": "';'-joined, in file order",
    "capital_lat": "degrees, capitalInfo.latlng if present",
    "capital_lon": "degrees",
    "region": "",
    "subregion": "",
    "land_neighbours": "ISO3, ';'-joined, sorted",
    "area_km2": "km², <NA> where the file has -1",
    "lat": "degrees, country centre",
    "lon": "degrees",
    "un_member": "bool, corrected for NOT_UN_MEMBERS",
    "un_member_note": "",
}


def read(store, source) -> bytes:
    return store.read_source(source, PATH)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per entry of the file, sorted by ISO3; columns as in COLUMNS."""
    entries = load_json(raw, SOURCE, PATH)
    if not isinstance(entries, list):
        raise ParseError(SOURCE, PATH, "top level is not a list of countries")
    df = pd.DataFrame([_entry(i, e) for i, e in enumerate(entries)], columns=list(COLUMNS))
    df = df.astype({"capital_lat": float, "capital_lon": float, "lat": float, "lon": float})
    return df.sort_values("iso3", kind="stable").reset_index(drop=True)


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """iso2, names, capital (and its coordinates when present), area, land neighbours, UN membership."""
    rows = []
    for r in parsed.to_dict("records"):
        notes = {
            "un_member": r["un_member_note"],
            "capital": "several capitals in file order" if ";" in str(r["capital"]) else "",
        }
        for field in (
            "iso2",
            "name_en",
            "name_de",
            "capital",
            "capital_lat",
            "capital_lon",
            "area_km2",
            "land_neighbours",
            "un_member",
        ):
            value = r["cca2"] if field == "iso2" else r[field]
            if pd.notna(value):
                rows.append(
                    {
                        "iso3": r["iso3"],
                        "field": field,
                        "value": value,
                        "source": SOURCE,
                        "vintage": "",
                        "note": notes.get(field, ""),
                    }
                )
    return frame(rows)


def _entry(i: int, e: dict) -> dict:
    def get(*keys):
        node = e
        for depth, key in enumerate(keys, 1):
            if not isinstance(node, dict) or key not in node:
                raise ParseError(SOURCE, ".".join(keys[:depth]), f"missing in entry {i} ({e.get('cca3', '?')})")
            node = node[key]
        return node

    iso3 = PLACEHOLDER.get(get("cca3"), get("cca3"))
    capital_latlng: list[float | None] = [float(x) for x in (e.get("capitalInfo") or {}).get("latlng") or []]
    capital_latlng = capital_latlng or [None, None]
    area = float(get("area"))
    lat, lon = ([*get("latlng"), None, None])[:2]
    un_member = bool(get("unMember")) and iso3 not in NOT_UN_MEMBERS
    return {
        "cca2": get("cca2"),
        "cca3": get("cca3"),
        "iso3": iso3,
        "name_en": get("name", "common"),
        "name_de": get("translations", "deu", "common"),
        "capital": ";".join(get("capital")) or None,
        "capital_lat": capital_latlng[0],
        "capital_lon": capital_latlng[1],
        "region": get("region"),
        "subregion": get("subregion"),
        "land_neighbours": ";".join(sorted(PLACEHOLDER.get(b, b) for b in get("borders"))),
        "area_km2": area if area >= 0 else None,  # -1 marks an unknown area (Svalbard and Jan Mayen)
        "lat": lat,
        "lon": lon,
        "un_member": un_member,
        "un_member_note": "corrected: flagged as a UN member in the file" if un_member != bool(get("unMember")) else "",
    }
