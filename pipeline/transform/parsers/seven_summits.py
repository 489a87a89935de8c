"""7summitsproject.com country high points (~2015, 169 countries): peak name and metres per country name.

The JSON carries UTF-8 text that was once decoded as Windows-1252 ("GroÃŸglockner"); `parse` repairs it.
Country names ("Ivory Coast", "Swaziland", "St. Lucia") resolve through country_converter's name patterns
(`parsers.iso3.name_to_iso3`); all 169 resolve, and agree with the file's own ISO2 `code` where it has one,
except Serbia's outdated "CS". The code is kept but not used.
"""

import re

import pandas as pd

from pipeline.errors import ParseError
from pipeline.transform import observations
from pipeline.transform.parsers.common import Complete, load_json
from pipeline.transform.parsers.iso3 import name_to_iso3

SOURCE = "highest-points-7summits"
COMPLETE = Complete(rows=150, countries=150)  # pinned file: 169 countries
FILE = "highest_points_169.json"
VINTAGE = "~2015"


def read(store, source) -> bytes:
    return store.read_source(source, FILE)


def repair_mojibake(text: str) -> str:
    """Undo one round of UTF-8 read as Windows-1252 ("Ã¼" -> "ü"); text without that damage is unchanged."""
    try:
        return text.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def parse(raw: bytes) -> pd.DataFrame:
    """One row per list entry, in file order.

    Columns: `name` (str, country as listed), `iso3` (str), `code` (str, the file's ISO2, "" if absent),
    `peak` (str, repaired), `elevation_m` (float, metres).
    """
    entries = load_json(raw, SOURCE, FILE)
    if not isinstance(entries, list):
        raise ParseError(SOURCE, FILE, "expected a list of countries")
    rows = []
    for i, entry in enumerate(entries):
        missing = {"name", "mountName", "elevation"} - set(entry) if isinstance(entry, dict) else {"object"}
        if missing:
            raise ParseError(SOURCE, ", ".join(sorted(missing)), f"missing in entry {i}")
        elevation = str(entry["elevation"]).replace(",", "")
        if not re.fullmatch(r"-?\d+", elevation):
            raise ParseError(SOURCE, "elevation", f"{entry['elevation']!r} is not metres ({entry['name']})")
        iso3 = name_to_iso3(entry["name"])
        if iso3 is None:
            raise ParseError(SOURCE, "name", f"no single ISO3 country for {entry['name']!r}")
        rows.append(
            {
                "name": entry["name"],
                "iso3": iso3,
                "code": entry.get("code") or "",
                "peak": repair_mojibake(entry["mountName"]).strip(),
                "elevation_m": float(elevation),
            }
        )
    return pd.DataFrame(rows, columns=["name", "iso3", "code", "peak", "elevation_m"])


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """`highest_point_name` and `highest_point_m` per listed country, vintage "~2015"."""
    rows = []
    for r in parsed.itertuples():
        base = {"iso3": r.iso3, "source": SOURCE, "vintage": VINTAGE, "note": ""}
        rows += [
            {**base, "field": "highest_point_name", "value": r.peak},
            {**base, "field": "highest_point_m", "value": r.elevation_m},
        ]
    return observations.frame(rows)
