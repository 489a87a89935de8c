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

from pipeline.errors import ParseError
from pipeline.extract import Source, SnapshotStore
from pipeline.transform.german_states import BY_DESTATIS

SOURCE = "destatis-staedte"
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
        "ags": key, "official_name": official.strip(), "name": official.split(", ")[0].strip(),
        "state": BY_DESTATIS[land], "postcode": str(postcode or ""), "area_km2": float(area),
        "population": population, "population_vintage": vintage,
    }


def parse(raw: bytes) -> pd.DataFrame:
    """The towns of the `Städte` sheet (rows numbered by `Lfd. Nr.`; notes and blank rows are not towns)."""
    book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    if SHEET not in book.sheetnames:
        raise ParseError(SOURCE, SHEET, f"sheet missing; sheets are {book.sheetnames}")
    rows = [tuple(r) + (None,) * 10 for r in book[SHEET].iter_rows(values_only=True)]
    vintage = _vintage(rows)
    _check_header(rows)
    data_start = next(i for i, r in enumerate(rows) if r[1] == "Schlüsselnummer") + 3
    towns = [_town(r, vintage) for r in rows[data_start:] if isinstance(r[0], int)]
    if not towns:
        raise ParseError(SOURCE, "Lfd. Nr.", "no numbered town rows")
    return pd.DataFrame(towns, columns=COLUMNS)
