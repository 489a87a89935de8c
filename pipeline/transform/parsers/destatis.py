"""Destatis Gemeindeverzeichnis `05-staedte.xlsx`: every German town with Stadtrecht, its official key and population.

`parse` returns one row per town, in the file's order:
`ags` (8-digit Amtlicher Gemeindeschlüssel: Land, RB, Kreis, Gemeinde), `official_name` (as printed,
e.g. "München, Landeshauptstadt"), `name` (the part before the first ", ", e.g. "München"), `state`
(German state name), `postcode`, `area_km2`, `population` (int, persons), `population_vintage`
(ISO date of the Gebietsstand, e.g. "2023-12-31").
"""

import io
import re

import openpyxl
import pandas as pd
from openpyxl.utils.exceptions import InvalidFileException

from pipeline.errors import ParseError
from pipeline.extract import SnapshotStore, Source, names
from pipeline.transform.german_states import BY_DESTATIS
from pipeline.transform.parsers.common import Complete

SOURCE = names.DESTATIS
COMPLETE = Complete(rows=1850)  # pinned file: 2,059 towns
MALFORMED = (InvalidFileException,)  # what openpyxl raises on a file that is no workbook (common.parse_complete)
FILE = "05-staedte.xlsx"
SHEET = "Städte"
COLUMNS = ["ags", "official_name", "name", "state", "postcode", "area_km2", "population", "population_vintage"]
# 0-based columns of the data rows: Lfd. Nr., Land, RB, Kreis, Verb, Gem, Stadt, PLZ, Fläche, Bevölkerung
_HEADER = {1: "Schlüsselnummer", 6: "Stadt", 8: "Fläche", 9: "Bevölkerung"}


def read(store: SnapshotStore, source: Source) -> bytes:
    return store.read_source(source, FILE)


def _vintage(rows: list[tuple]) -> str:
    for row in rows[:5]:
        match = re.fullmatch(r"Gebietsstand: (\d\d)\.(\d\d)\.(\d{4})", str(row[0] or "").strip())
        if match:
            day, month, year = match.groups()
            return f"{year}-{month}-{day}"
    raise ParseError(SOURCE, "Gebietsstand", "no 'Gebietsstand: DD.MM.YYYY' line above the table")


def _check_header(rows: list[tuple]) -> None:
    header = next((r for r in rows[:10] if r[1] == "Schlüsselnummer"), None)
    if header is None:
        raise ParseError(SOURCE, "Schlüsselnummer", "header row not found in the first 10 rows")
    for col, label in _HEADER.items():
        if not str(header[col] or "").startswith(label):
            raise ParseError(SOURCE, label, f"expected column {col + 1} to start with {label!r}, got {header[col]!r}")


def _town(row: tuple, vintage: str) -> dict:
    number, land, rb, kreis, _verb, gem, official, postcode, area, population = row[:10]
    key = f"{land}{rb}{kreis}{gem}"
    if not re.fullmatch(r"\d{8}", key):
        raise ParseError(SOURCE, "Schlüsselnummer", f"row {number}: {key!r} is not an 8-digit key")
    if land not in BY_DESTATIS:
        raise ParseError(SOURCE, "Land", f"row {number}: unknown Land key {land!r}")
    if not isinstance(official, str) or not official.strip():
        raise ParseError(SOURCE, "Stadt", f"row {number}: empty town name")
    if not isinstance(population, int) or population <= 0:
        raise ParseError(SOURCE, "Bevölkerung", f"row {number} ({official}): {population!r} is not a population")
    return {
        "ags": key,
        "official_name": official.strip(),
        "name": official.split(", ")[0].strip(),
        "state": BY_DESTATIS[land],
        "postcode": str(postcode or ""),
        "area_km2": _area(area, number, official),
        "population": population,
        "population_vintage": vintage,
    }


def _area(area, number, official) -> float:
    if not isinstance(area, (int, float)) or area <= 0:
        raise ParseError(SOURCE, "Fläche", f"row {number} ({official}): {area!r} is not an area in km²")
    return float(area)


def parse(raw: bytes) -> pd.DataFrame:
    """The towns of the `Städte` sheet: the rows numbered 1, 2, ... N by `Lfd. Nr.` (notes and blank rows
    are not towns). A row with a Land key but no number, or a gap in the numbering, is a ParseError."""
    book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    if SHEET not in book.sheetnames:
        raise ParseError(SOURCE, SHEET, f"sheet missing; sheets are {book.sheetnames}")
    rows = [tuple(r) + (None,) * 10 for r in book[SHEET].iter_rows(values_only=True)]
    vintage = _vintage(rows)
    _check_header(rows)
    data_start = next(i for i, r in enumerate(rows) if r[1] == "Schlüsselnummer") + 3
    numbered = []
    for row in rows[data_start:]:
        if isinstance(row[0], int):
            numbered.append(row)
        elif row[1] is not None:
            raise ParseError(SOURCE, "Lfd. Nr.", f"row with Land key {row[1]!r} ({row[6]}) has no number {row[0]!r}")
    if [r[0] for r in numbered] != list(range(1, len(numbered) + 1)):
        raise ParseError(SOURCE, "Lfd. Nr.", f"town rows are not numbered 1..{len(numbered)} without gaps")
    if not numbered:
        raise ParseError(SOURCE, "Lfd. Nr.", "no numbered town rows")
    return pd.DataFrame([_town(r, vintage) for r in numbered], columns=COLUMNS)
