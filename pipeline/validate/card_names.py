"""Card names derived from the chosen values: the capitals' spelling, the German capital and the printed peak name.

- `capital`: the chosen capital(s), each name spelt as another source spells the same country's capital
  with diacritics or an ʻokina where the chosen source has plain letters ("Yaounde" -> "Yaoundé" from
  mledoze, "Reykjavik" -> "Reykjavík" from Natural Earth, "Nuku'alofa" -> "Nuku‘alofa" from GeoNames):
  the other name must be the same letters once its diacritics are removed and its ʻokina (ʻ, or ‘ as
  GeoNames writes it) is an apostrophe, so the city never changes, nor does any other letter or
  punctuation ("St. George's", "Port Vila" and the typographic apostrophe in "Saint John’s" are not
  taken). The other sources are tried in SPELLING_ORDER; the source column names both ("factbook +
  natural-earth"); every respelling is reported.
- `capital_en`: the card capital (the first listed capital) as spelt above.
- `capitals_de`: every capital in German from sources/reviewed/capitals_de.csv (iso3, capital_en,
  capital_de, citation; one row per capital German names differently); a capital without a row keeps its
  English name (as spelt above), the rule being that German uses the same name. A row whose capital_en is
  not one of the country's capitals as spelt above is a user error (the table must be reviewed again).
  `capital_de` is the first of them, the card capital.
- `highest_point_name`: the chosen name (the Factbook's, locators such as " on Mont Cameroun" already
  removed by its parser), renamed
  1. by sources/reviewed/peak_names.csv (iso3, source_name, name, reason, citation) where a row names the
     chosen name: a descriptive point ("1.3 km NE of Old Bight") gets the island it stands on ("Banaba");
     a point on the mainland the source leaves unnamed reads as the source says, "unnamed elevation" (each
     language's words in its peak_names_<lang>.csv), never a village's or border post's name nearby
     (Kotopounga, Al-Salmi: issue 43) nor "near …"; ASCII spellings get their diacritics; "Mount McKinley"
     reads "Denali";
  2. otherwise to the 7summits spelling when 7summits gives the same peak (heights within the highest-point
     tolerance) the same name up to diacritics ("Grossglockner" -> "Großglockner"). Its other names are
     not taken: they are often abbreviated ("Mt Obama"), misspelt ("Mount Blanc") or no names at all
     ("Kuwait High Point").
  A name that still looks descriptive is a user error naming the table.
- `highest_point_name_de`: the German name from sources/reviewed/peak_names_de.csv (iso3, name, name_de,
  citation) where German has its own (Kilimandscharo, Olymp, Kamerunberg), else the same name.
"""

import csv
import re
import unicodedata
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.extract import names
from pipeline.fields import Tolerance, fields
from pipeline.paths import SOURCES_DIR

REVIEWED_DIR = SOURCES_DIR / "reviewed"
CAPITALS_DE = REVIEWED_DIR / "capitals_de.csv"
PEAK_NAMES = REVIEWED_DIR / "peak_names.csv"
PEAK_NAMES_DE = REVIEWED_DIR / "peak_names_de.csv"
REVIEWED, REVIEWED_VINTAGE = "reviewed", "2026-11"
SEVEN_SUMMITS = names.HIGHEST_POINTS
# Where other spellings of the capitals come from, in the order they are tried.
SPELLING_ORDER = fields()["capital"].precedence + fields()["capital_spelling"].precedence
HEIGHT_TOLERANCE = fields()["highest_point_m"].tolerance or Tolerance("absolute")
OKINA = str.maketrans({"ʻ": "'", "‘": "'"})
DESCRIPTIVE = re.compile(r"^unnamed\b|\d\s*km\b|\btee\b|,|\brange\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reviewed:
    capitals_de: dict[tuple[str, str], dict] = field(default_factory=dict)  # (iso3, capital_en) -> row
    peaks: dict[str, dict] = field(default_factory=dict)  # iso3 -> row of peak_names.csv
    peaks_de: dict[str, dict] = field(default_factory=dict)  # iso3 -> row of peak_names_de.csv


def _rows(path: Path, columns: list[str], universe: list[str], key: str = "") -> dict:
    """The rows by iso3 (or by (iso3, row[key]) when `key` is given), each key once, every cell filled."""
    with StringIO(readers.read_input("csv", path), newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != columns:
            raise GeodeckError(f"{path}: the header must be {','.join(columns)}")
        rows: dict = {}
        for line, row in enumerate(reader, start=2):
            at = (row["iso3"], row[key]) if key else row["iso3"]
            if row["iso3"] not in universe or at in rows:
                raise GeodeckError(f"{path}:{line}: {row['iso3']!r} is not a card country or is listed twice")
            if not all(row[c].strip() for c in columns if c != "reason"):
                raise GeodeckError(f"{path}:{line}: every column needs a value (citation included)")
            rows[at] = row
    return rows


def load(
    universe: list[str], capitals_de: Path = CAPITALS_DE, peaks: Path = PEAK_NAMES, peaks_de: Path = PEAK_NAMES_DE
) -> Reviewed:
    return Reviewed(
        _rows(capitals_de, ["iso3", "capital_en", "capital_de", "citation"], universe, key="capital_en"),
        _rows(peaks, ["iso3", "source_name", "name", "reason", "citation"], universe),
        _rows(peaks_de, ["iso3", "name", "name_de", "citation"], universe),
    )


def fold(text: str) -> str:
    """Letters without diacritics, case or apostrophe style: 'Großglockner' -> 'grossglockner'."""
    text = str(text).replace("ß", "ss").replace("ø", "o").replace("Ø", "O").replace("’", "'")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def plain(name: str) -> str:
    """A name without diacritics, its ʻokina an apostrophe: 'Reykjavík' -> 'Reykjavik', 'Nuku‘alofa' -> "Nuku'alofa"."""
    text = unicodedata.normalize("NFKD", name.translate(OKINA))
    return unicodedata.normalize("NFC", "".join(c for c in text if not unicodedata.combining(c)))


def capital_spelling(iso3: str, capital, provenance: tuple[str, str], candidates: dict, renamed: list) -> tuple:
    """(value, source, vintage) of the card capitals, each spelt as the first source in SPELLING_ORDER that
    writes the same name with diacritics or an ʻokina (see module docstring)."""
    source, vintage = provenance
    if capital is None:
        return None, source, vintage
    others = [c for f in ("capital", "capital_spelling") for c in candidates.get((iso3, f), []) if c.source != source]
    others.sort(key=lambda c: SPELLING_ORDER.index(c.source) if c.source in SPELLING_ORDER else len(SPELLING_ORDER))
    names, spellers = [], []
    for name in str(capital).split(";"):
        richer = [
            (c.source, other)
            for c in others
            for other in str(c.value).split(";")
            if other != name and plain(other) == name
        ]
        if richer:
            speller, spelt = richer[0]
            agree = ", ".join(s for s, other in richer if other == spelt)
            differ = "; ".join(f"{s} writes {other}" for s, other in richer if other != spelt)
            renamed.append(
                {
                    "iso3": iso3,
                    "field": "capital",
                    "before": name,
                    "after": spelt,
                    "source": speller,
                    "why": f"the same capital spelt with diacritics or ʻokina in {agree}"
                    + (f" ({differ})" if differ else ""),
                }
            )
            spellers.append(speller)
            name = spelt
        names.append(name)
    return ";".join(names), " + ".join(dict.fromkeys([source, *spellers])), vintage


def capitals_de(iso3: str, capital, provenance: tuple[str, str], reviewed: Reviewed) -> tuple:
    """(value, source, vintage, conflict, citation) of every capital in German, ';'-joined."""
    if capital is None:
        return None, "", "", "", ""
    names = str(capital).split(";")
    rows = {en: row for (code, en), row in reviewed.capitals_de.items() if code == iso3}
    stray = sorted(set(rows) - set(names))
    if stray:
        raise GeodeckError(f"{CAPITALS_DE}: {iso3} capital_en {stray[0]!r} is not one of {names}; review the row")
    if not rows:
        return capital, *provenance, "", ""
    german = ";".join(rows[n]["capital_de"] if n in rows else n for n in names)
    return (
        german,
        REVIEWED,
        REVIEWED_VINTAGE,
        "",
        "; ".join(dict.fromkeys(r.get("citation", "") for r in rows.values())),
    )


def peak_name_de(iso3: str, name, provenance: tuple[str, str], reviewed: Reviewed) -> tuple:
    """(value, source, vintage, conflict, citation) of the highest point's German name."""
    row = reviewed.peaks_de.get(iso3)
    if row is None or name is None:
        return name, *provenance, "", ""
    if row["name"] != name:
        raise GeodeckError(
            f"{PEAK_NAMES_DE}: {iso3} name {row['name']!r} is not the card name {name!r}; review the row"
        )
    return row["name_de"], REVIEWED, REVIEWED_VINTAGE, "", row.get("citation", "")


def peak_name(
    iso3: str, name, height, provenance: tuple[str, str], candidates: dict, reviewed: Reviewed, renamed: list
) -> tuple:
    """(value, source, vintage, citation) of the printed highest-point name (see module docstring)."""
    if name is None:
        return None, "", "", ""
    row = reviewed.peaks.get(iso3)
    if row is not None:
        if row["source_name"] != name:
            raise GeodeckError(
                f"{PEAK_NAMES}: {iso3} source_name {row['source_name']!r} is not the chosen name "
                f"{name!r}; review the row"
            )
        renamed.append(
            {
                "iso3": iso3,
                "field": "highest_point_name",
                "before": name,
                "after": row["name"],
                "source": REVIEWED,
                "why": f"{row['reason']} ({row['citation']})",
            }
        )
        return row["name"], REVIEWED, REVIEWED_VINTAGE, f"{row['reason']}; source: {row['citation']}"
    other = {c.source: c for c in candidates.get((iso3, "highest_point_name"), [])}.get(SEVEN_SUMMITS)
    other_m = {c.source: c for c in candidates.get((iso3, "highest_point_m"), [])}.get(SEVEN_SUMMITS)
    if (
        other is not None
        and other_m is not None
        and height is not None
        and other.value != name
        and not str(other.value).replace("’", "'").isascii()
        and fold(other.value) == fold(name)
        and HEIGHT_TOLERANCE.agree(height, other_m.value)
    ):
        renamed.append(
            {
                "iso3": iso3,
                "field": "highest_point_name",
                "before": name,
                "after": other.value,
                "source": SEVEN_SUMMITS,
                "why": f"same peak ({other_m.value:g} m), spelling with diacritics",
            }
        )
        return other.value, other.source, other.vintage, ""
    if DESCRIPTIVE.search(str(name)):
        raise GeodeckError(f"{iso3} highest point {name!r} is a description, not a name; add a row to {PEAK_NAMES}")
    return name, *provenance, ""


def _first(names):
    return None if names is None else str(names).split(";")[0]


def derive(
    iso3: str, values: dict, provenance: dict, candidates: dict, reviewed: Reviewed, renamed: list
) -> dict[str, tuple]:
    """The derived card-name columns of one country: field -> (value, source, vintage, conflict[, citation]).
    The capital has no cross-source tolerance, so it has no conflict to keep."""
    conflict = ""
    capital = capital_spelling(iso3, values["capital"], provenance["capital"], candidates, renamed)
    name, source, vintage, citation = peak_name(
        iso3,
        values["highest_point_name"],
        values["highest_point_m"],
        provenance["highest_point_name"],
        candidates,
        reviewed,
        renamed,
    )
    german = capitals_de(iso3, capital[0], capital[1:], reviewed)
    return {
        "capital": (*capital, conflict),
        "capital_en": (_first(capital[0]), *capital[1:], conflict),
        "capital_de": (_first(german[0]), *german[1:]),
        "capitals_de": german,
        "highest_point_name": (name, source, vintage, conflict, citation),
        "highest_point_name_de": peak_name_de(iso3, name, (source, vintage), reviewed),
    }
