"""A user's table file as rows of cells, read by its real type (its first bytes, not its name) within caps
checked before anything is parsed: CSV text (UTF-8 with or without BOM, UTF-16 as Excel's "Unicode text",
else Windows-1252; its separator, comma, semicolon or tab, guessed from its first lines) or an XLSX workbook
(its zip directory read first: an old .xls, an .ods, a cut-off file or one that unpacks to more than
`MAX_UNZIPPED` is refused before openpyxl opens it, read-only). A formula without a saved value, a row, a
column or a cell beyond the caps is one line naming the row and column and a fix that works.

Empty rows are dropped (their numbers are kept: a row is named as the spreadsheet numbers it). A refusal and
how the file was read are messages of the catalogues, said in the language asked for (`Said.said`)."""

import csv
import io
import math
import re
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from xml.etree.ElementTree import ParseError

from babel.numbers import format_decimal

from pipeline.i18n import registry
from pipeline.i18n.catalogue import N_, translate
from pipeline.jsonfile import MB

MAX_ROWS = 10_000  # rows of a table (a deck has at most 200 cards)
MAX_COLUMNS = 100  # columns of a table
MAX_CELLS = 200_000  # cells read from a table, empty ones included
MAX_CELL = 1_000  # characters in one cell
MAX_UNZIPPED = 64 * MB  # an XLSX's parts unpacked, summed from its zip directory
MAX_PARTS = 10_000  # files in an XLSX's zip
SNIFFED = 50  # the lines a CSV's separator is guessed from
HEADER_ROWS = 20  # the first non-empty rows a sheet's header is looked for in
SEPARATORS = {",": N_("commas"), ";": N_("semicolons"), "\t": N_("tabs")}
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an old Excel workbook (.xls), a Word file ...
ZIP = (b"PK\x03\x04", b"PK\x05\x06")
FORMULA = re.compile(rb"<(?:\w+:)?f[ >/]")  # a cell's formula in a sheet's XML

Cell = str | float | None


COUNTS = ("lines", "most", "cells", "characters", "parts", "size")  # fields written as the language groups numbers
OLD = N_(
    "is an old Excel workbook (.xls), a password-protected one or another Office file, not XLSX; save it as XLSX "
    "or CSV (File > Save As), without a password"
)
NO_SHEETS = N_(
    "is a text (CSV) file, which has no sheets; remove items.sheet or save it as XLSX or CSV (File > Save As)"
)
UTF16 = N_("is damaged UTF-16 text (byte {byte}); save it as XLSX or CSV (File > Save As)")
BINARY = N_("is no text table (binary data at byte {byte}); save it as XLSX or CSV (File > Save As)")
ENCODING = N_("is neither UTF-8 nor Windows-1252 text (byte {byte}); save it as CSV UTF-8")
LINES = N_("has {lines} lines, more than {most}; keep the rows a deck can use in a table of its own")
ROWS = N_("has more than {most} rows; keep the rows a deck can use in a table of its own")
CELLS = N_("has more than {most} cells; keep only the table's rows and columns")
NO_CSV = N_("is no readable CSV near row {row} ({problem}); save it as XLSX or CSV (File > Save As)")
COLUMNS = N_("row {row} has {columns} columns, more than {most}; remove the columns no card uses")
LONG = N_("row {row}, column {column} holds {characters} characters, more than {most}; shorten it")
CUT = N_("is not a complete XLSX file (a damaged or cut-off zip); save it as XLSX or CSV (File > Save As)")
ODS = N_("is an OpenDocument spreadsheet (.ods), not XLSX; save it as XLSX or CSV (File > Save As)")
NOT_XLSX = N_("is a zip file but no XLSX workbook; save it as XLSX or CSV (File > Save As)")
UNZIPPED = N_(
    "unpacks to {size} MB in {parts} parts, more than {most} MB; copy the table alone into a new workbook and save that"
)
TEXTS = N_("holds more than {most} texts; copy the table alone into a new workbook and save that")
FORMATS = N_("holds more than {most} cell formats; copy the table alone into a new workbook and save that")
OPENPYXL = N_("is not an XLSX workbook openpyxl can read ({problem}); save it as XLSX or CSV (File > Save As)")
NO_SHEET = N_("has no sheet {sheet}; its sheets are {sheets}: name one (items.sheet)")
FORMULA_ONLY = N_(
    "row {row}, column {column} holds a formula without a saved value; open the file in Excel (or LibreOffice) "
    "and save it once, then try again"
)
READ_CSV = N_("{encoding} text, columns separated by {separators}")
READ_XLSX = N_("the sheet {sheet} of {count} of an XLSX workbook")
PARTS = {  # an XLSX's parts openpyxl reads whole on opening it: the elements counted in each before, at most
    "xl/sharedStrings.xml": (re.compile(rb"<(?:\w+:)?si[ >/]"), MAX_CELLS, TEXTS),
    "xl/styles.xml": (re.compile(rb"<(?:\w+:)?xf[ >/]"), 64_000, FORMATS),  # Excel's own limit
}


@dataclass(frozen=True)
class Said:
    """A message of the catalogues and its fields (`COUNTS` numbers, the others as written; a field that is
    itself a message, `words`, translated too)."""

    message: str
    fields: dict[str, Any]
    words: tuple[str, ...] = ()

    def said(self, lang: str) -> str:
        locale = registry.language(lang).locale
        fields = {
            key: format_decimal(value, locale=locale) if key in COUNTS else value for key, value in self.fields.items()
        }
        fields |= {key: translate(lang, fields[key]) for key in self.words}
        return translate(lang, self.message, **fields)


class Refused(Exception):
    """A table file geodeck does not read: one line saying why and the fix (without the file's name), in the
    source language; `why.said(lang)` in another."""

    def __init__(self, message: str, **fields: Any):
        self.why = Said(message, fields)
        super().__init__(self.why.said(registry.source()))


@dataclass(frozen=True)
class Sheet:
    rows: list[tuple[int, list[Cell]]]  # (the row's number, from 1; its cells): strings, numbers, None
    read_as: Said  # how the file was read, e.g. "UTF-8 text, columns separated by semicolons"
    sheets: tuple[str, ...] = ()  # an XLSX's sheets (the one read among them)


def read(data: bytes, sheet: str | None = None, wanted: str | None = None) -> Sheet:
    """The rows of a table file's bytes (module docstring); `sheet`: an XLSX's sheet by name, else the first
    sheet with a cell `wanted` (the name column's header) in its first rows, else its first sheet."""
    if data.startswith(OLE2):
        raise Refused(OLD)
    if data.startswith(ZIP):
        return _xlsx(data, sheet, wanted)
    if sheet is not None:
        raise Refused(NO_SHEETS)
    return _csv(data)


def _decoded(data: bytes) -> tuple[str, str]:
    """The text of a CSV file and its encoding's name."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise Refused(UTF16, byte=exc.start) from exc
    if (nul := data.find(b"\x00", 0, 65536)) >= 0:
        raise Refused(BINARY, byte=nul)
    if data.startswith(b"\xef\xbb\xbf"):
        encoding, name = "utf-8-sig", "UTF-8"
    else:
        encoding, name = "utf-8", "UTF-8"
    try:
        return data.decode(encoding), name
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError as exc:
        raise Refused(ENCODING, byte=exc.start) from exc


def _csv(data: bytes) -> Sheet:
    text, encoding = _decoded(data)
    lines = text.count("\n") + 1
    if lines > MAX_ROWS:
        raise Refused(LINES, lines=lines, most=MAX_ROWS)
    separator = _separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    rows: list[tuple[int, list[Cell]]] = []
    cells = 0
    try:
        for number, row in enumerate(reader, 1):
            _capped(number, row)
            cells += len(row)
            if cells > MAX_CELLS:
                raise Refused(CELLS, most=MAX_CELLS)
            if any(cell.strip() for cell in row):
                rows.append((number, list(row)))
    except csv.Error as exc:
        raise Refused(NO_CSV, row=reader.line_num, problem=str(exc)[:80]) from exc
    return Sheet(rows, Said(READ_CSV, {"encoding": encoding, "separators": SEPARATORS[separator]}, ("separators",)))


def _separator(text: str) -> str:
    """The separator that splits the most of the first lines into the same number (at least 2) of columns,
    the most columns on a tie, else a comma."""
    sample = [line for line in text[: 64 * 1024].splitlines()[: SNIFFED * 2] if line.strip()][:SNIFFED]
    best, chosen = (0, 0), ","
    for separator in SEPARATORS:
        try:
            widths = [len(row) for row in csv.reader(sample, delimiter=separator)]
        except csv.Error:
            continue
        wide = [w for w in widths if w >= 2]
        if not wide:
            continue
        mode = max(set(wide), key=lambda w: (wide.count(w), w))
        score = (wide.count(mode), mode)
        if score > best:
            best, chosen = score, separator
    return chosen


def _capped(number: int, row: list) -> None:
    if number > MAX_ROWS:
        raise Refused(ROWS, most=MAX_ROWS)
    if len(row) > MAX_COLUMNS and any(_filled(cell) for cell in row[MAX_COLUMNS:]):
        raise Refused(COLUMNS, row=number, columns=len(row), most=MAX_COLUMNS)
    for column, cell in enumerate(row, 1):
        if isinstance(cell, str) and len(cell) > MAX_CELL:
            raise Refused(LONG, row=number, column=column, characters=len(cell), most=MAX_CELL)


def _filled(cell: Cell) -> bool:
    return cell is not None and (not isinstance(cell, str) or bool(cell.strip()))


def _xlsx(data: bytes, sheet: str | None, wanted: str | None) -> Sheet:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError) as exc:
        raise Refused(CUT) from exc
    names = {part.filename for part in parts}
    if "mimetype" in names and "opendocument" in archive.read("mimetype")[:200].decode("ascii", "replace"):
        raise Refused(ODS)
    if "xl/workbook.xml" not in names:
        raise Refused(NOT_XLSX)
    unzipped = sum(part.file_size for part in parts)
    if len(parts) > MAX_PARTS or unzipped > MAX_UNZIPPED:
        raise Refused(UNZIPPED, size=round(unzipped / MB), parts=len(parts), most=MAX_UNZIPPED // MB)
    for part, (element, most, refusal) in PARTS.items():  # what openpyxl reads whole when it opens a workbook
        if part in names and len(re.findall(element, archive.read(part))) > most:
            raise Refused(refusal, most=most)
    from openpyxl import load_workbook  # loaded only for an XLSX table

    books = []  # opened read-only: each holds its zip open until closed
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl's notes on styles and extensions it does not read
            books.append(values := load_workbook(io.BytesIO(data), read_only=True, data_only=True))
            chosen = _sheet_name(values, sheet, wanted)
            sheet_parts = [part for part in names if part.startswith("xl/worksheets/") and part.endswith(".xml")]
            written = None  # the formulas, read again only when a sheet has one (openpyxl reads ~50,000 cells a second)
            if any(FORMULA.search(archive.read(part)) for part in sheet_parts):
                books.append(formulas := load_workbook(io.BytesIO(data), read_only=True, data_only=False))
                written = formulas[chosen]
            rows = _rows(values[chosen], written)
    except Refused:
        raise
    except (KeyError, ValueError, TypeError, IndexError, AttributeError, OSError, EOFError, ParseError) as exc:
        raise Refused(OPENPYXL, problem=type(exc).__name__) from exc
    except zipfile.BadZipFile as exc:
        raise Refused(CUT) from exc
    finally:
        for book in books:
            book.close()
    shown = chosen if len(chosen) <= 40 else chosen[:37] + "…"
    names_read = tuple(values.sheetnames)
    return Sheet(rows, Said(READ_XLSX, {"sheet": repr(shown), "count": len(names_read)}), names_read)


def _sheet_name(book, sheet: str | None, wanted: str | None) -> str:
    names = list(book.sheetnames)
    if sheet is not None:
        if sheet not in names:
            raise Refused(NO_SHEET, sheet=repr(sheet), sheets=", ".join(names)[:200])
        return sheet
    for name in names:
        seen = 0
        for row in book[name].iter_rows(max_row=MAX_ROWS, max_col=MAX_COLUMNS, values_only=True):
            if any(_filled(cell) for cell in row):
                if any(isinstance(cell, str) and cell.strip() == wanted for cell in row):
                    return name
                seen += 1
                if seen >= HEADER_ROWS:
                    break
    return names[0]


def _rows(values, formulas) -> list[tuple[int, list[Cell]]]:
    """The sheet's non-empty rows, within the caps; a formula without a saved value (in `formulas`, the sheet
    read for its formulas; None: it has none) refused."""
    rows: list[tuple[int, list[Cell]]] = []
    cells = 0
    limits = {"max_row": MAX_ROWS + 1, "max_col": MAX_COLUMNS + 1}
    for number, (row, written) in enumerate(
        zip(values.iter_rows(values_only=True, **limits), _written(formulas, limits), strict=False), 1
    ):
        found = [_cell(value) for value in row]
        while found and found[-1] is None:  # read-only rows are as wide as asked: counted to their last value
            found.pop()
        _capped(number, found)
        cells += len(found)
        if cells > MAX_CELLS:
            raise Refused(CELLS, most=MAX_CELLS)
        for column, (value, cell) in enumerate(zip(found, written, strict=False), 1):
            if value is None and getattr(cell, "data_type", None) == "f":
                raise Refused(FORMULA_ONLY, row=number, column=column)
        if any(_filled(cell) for cell in found):
            rows.append((number, found))
    return rows


def _written(formulas, limits: dict) -> Iterator[tuple]:
    """The rows of the sheet read for its formulas, or endless empty rows when it has none."""
    if formulas is None:
        yield from iter(tuple, None)
    else:
        yield from formulas.iter_rows(**limits)


def _cell(value: object) -> Cell:
    """An XLSX cell's value: text, a number (a float), or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond a float's range
            return str(value)
        return number if math.isfinite(number) else str(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)
