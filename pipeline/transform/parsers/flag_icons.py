"""flag-icons 7.5.0: `country.json` indexes the 4x3 SVG flags by lower-case ISO2 code (`xk` Kosovo)."""

import pandas as pd

from pipeline.errors import ParseError
from pipeline.extract import Source
from pipeline.transform import observations
from pipeline.transform.parsers.common import Complete, load_json
from pipeline.transform.parsers.iso3 import iso2_to_iso3

SOURCE = "flag-icons"
COMPLETE = Complete(rows=245, countries=225)  # pinned file: 271 entries, 250 countries
INDEX = "country.json"
FLAG_PREFIX = "flags/"


def read(store, source) -> bytes:
    return store.read_source(source, INDEX)


def parse(raw: bytes) -> pd.DataFrame:
    """One row per index entry, in file order.

    Columns: `code` (str, flag code, e.g. "de", "gb-eng"), `name` (str, English name in the index),
    `iso` (bool, the index marks the code as ISO 3166), `iso3` (str, from the code read as ISO2, `xk` Kosovo;
    missing for non-country flags such as gb-eng or eu),
    `flag` (str, the 4x3 file inside the source, e.g. "4x3/de.svg").
    """
    entries = load_json(raw, SOURCE, INDEX)
    if not isinstance(entries, list):
        raise ParseError(SOURCE, INDEX, "expected a list of flag entries")
    rows = []
    for i, entry in enumerate(entries):
        missing = {"code", "name", "iso", "flag_4x3"} - set(entry) if isinstance(entry, dict) else {"object"}
        if missing:
            raise ParseError(SOURCE, ", ".join(sorted(missing)), f"missing in entry {i}")
        if not entry["flag_4x3"].startswith(FLAG_PREFIX + "4x3/"):
            raise ParseError(SOURCE, "flag_4x3", f"unexpected path {entry['flag_4x3']!r} in entry {i}")
        rows.append(
            {
                "code": entry["code"],
                "name": entry["name"],
                "iso": bool(entry["iso"]),
                "iso3": iso2_to_iso3(entry["code"]),
                "flag": entry["flag_4x3"].removeprefix(FLAG_PREFIX),
            }
        )
    return pd.DataFrame(rows, columns=["code", "name", "iso", "iso3", "flag"])


def to_observations(parsed: pd.DataFrame, source: Source) -> pd.DataFrame:
    """`flag` per country: the file path inside the source, vintage = the source's version.

    `source` is the flag-icons definition; a country flag that it does not pin is a ParseError (render
    could not fetch it).
    """
    flags = parsed[parsed["iso3"].notna()]
    unpinned = sorted(set(flags["flag"]) - {f.path for f in source.files})
    if unpinned:
        raise ParseError(SOURCE, "flag_4x3", f"not pinned in sources/{SOURCE}.toml: {', '.join(unpinned[:5])}")
    return observations.frame(
        [
            {"iso3": r.iso3, "field": "flag", "value": r.flag, "source": SOURCE, "vintage": source.vintage, "note": ""}
            for r in flags.itertuples()
        ]
    )
