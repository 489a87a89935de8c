"""A user's own table (CSV or XLSX) of items: one row per card, a name, a group (the trick game's majorities),
the recipe's numeric category columns, a source column (where each row's values come from), optionally a
picture. Read by its real type within caps (`sheets`), its header row found below title rows (or named:
`items.header`), its numbers read as the recipe's language writes them (`numbers`). Checked whole, one line
per problem (`recipe.RecipeError`) naming the row and column: a missing column, a missing, non-numeric,
ambiguous, non-finite or out-of-range value, a blank group, a name given twice (compared without case and outer
blanks), a column with one value, too few rows. Its provenance is the file's sha256 and each row's source."""

import difflib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline import readers, text
from pipeline.games.custom import numbers, pictures, sheets
from pipeline.games.custom.recipe import CARDS, WORDS, Recipe, RecipeError, games, reach, shown, table_field
from pipeline.hashing import file_sha256, sha256
from pipeline.jsonfile import Unreadable

FORMATS = (".csv", ".xlsx")
SHOWN = 5  # rows named in one problem line


@dataclass(frozen=True)
class Table:
    path: Path
    sha256: str
    rows: pd.DataFrame  # name, groups, source, picture and a float column per category (its `table_field`)
    pictures: dict[str, bytes]  # a picture's name (its `picture` cell) -> the picture as the cards print it
    picture_files: dict[str, str]  # a picture cell (its path relative to the table) -> its file's sha256


def read(recipe: Recipe, say: Callable[[str], None] | None = None) -> Table:
    """The recipe's table, checked (module docstring); how it was read (its encoding and separator, its sheet)
    is said in one line on stderr (or to `say`)."""
    path = recipe.items.table
    assert path is not None, "a recipe of countries has no table"
    if path.suffix.lower() not in FORMATS:
        raise RecipeError(str(recipe.path), [f"items.table {shown(path.name)}: a .csv or .xlsx file"])
    try:
        data = readers.read("user-table", path)
    except Unreadable as exc:
        raise RecipeError(str(recipe.path), [f"items.table {path}: {exc}; name an existing CSV or XLSX file"]) from exc
    try:
        sheet = sheets.read(data, recipe.items.sheet, recipe.items.columns["name"])
    except sheets.Refused as exc:
        raise RecipeError(str(path), [str(exc)]) from exc
    note = f"note: read {text.shown(path.name)} as {text.shown(sheet.read_as)}"
    (say or (lambda line: print(line, file=sys.stderr, flush=True)))(note)
    rows, drawn, files = _checked(sheet, recipe, path)
    return Table(path, sha256(data), rows, drawn, files)


def _header(rows: list[tuple[int, list]], recipe: Recipe, source: str) -> int:
    """The index in `rows` of the header: the row `items.header` names, else the first of the first rows
    that names the name column, else the first row."""
    wanted = recipe.items.header
    if wanted is not None:
        for index, (number, _cells) in enumerate(rows):
            if number == wanted:
                return index
        raise RecipeError(
            source,
            [
                f"items.header {wanted}: row {wanted} is empty or beyond the table; name the "
                "row that holds the column names"
            ],
        )
    name = recipe.items.columns["name"]
    for index, (_number, cells) in enumerate(rows[: sheets.HEADER_ROWS]):
        if any(isinstance(cell, str) and cell.strip() == name for cell in cells):
            return index
    return 0


def _checked(sheet: sheets.Sheet, recipe: Recipe, path: Path) -> tuple[pd.DataFrame, dict[str, bytes], dict[str, str]]:
    """The table's items, checked whole (module docstring): every problem one line, all raised together; their
    pictures by name (each item's `picture` that name) and each picture cell's file's sha256."""
    source = str(path)
    rows = sheet.rows
    if not rows:
        raise RecipeError(source, ["has no rows; write the header row and a row per item"])
    at = _header(rows, recipe, source)
    head_number, head = rows[at]
    columns = [str(cell).strip() if cell is not None else "" for cell in head]
    body = rows[at + 1 :]
    place = _places(sheet, recipe, source, columns, at, head_number)
    roles = recipe.items.columns
    picture = roles.get("picture")
    line = pd.Series([number for number, _row in body])
    names = pd.Series(_texts(body, place, roles["name"]))
    problems: list[str] = []
    _written(body, place, recipe, line, names, problems)
    values = _values(body, place, recipe, line, names, problems)
    _twice(line, names, problems)
    _too_few(len(body), recipe, problems)
    cells = _texts(body, place, picture) if picture in place else [""] * len(body)
    shown_as, drawn, files = _pictures(cells, path, line, names, problems)
    if problems:
        raise RecipeError(source, problems)
    frame = pd.DataFrame(
        {
            "name": names,
            "groups": _texts(body, place, roles["group"]),
            "source": _texts(body, place, roles["source"]),
            "picture": shown_as,
            **values,
        }
    )
    return frame.reset_index(drop=True), drawn, files


def _pictures(
    cells: list[str], path: Path, line: pd.Series, names: pd.Series, problems: list[str]
) -> tuple[list[str], dict[str, bytes], dict[str, str]]:
    """Each row's picture name ("" without one), the pictures by name (pipeline/games/custom/pictures.py) and
    each cell's file's sha256; a file that is missing or no picture is a problem naming its row."""
    shown_as, drawn, files = [], {}, {}
    for n, cell in enumerate(cells):
        if not cell:
            shown_as.append("")
            continue
        wrong, data = pictures.problem(cell, path)
        if data is None:
            problems.append(f"{_rows(line.iloc[[n]], names.iloc[[n]])}: {wrong}")
            shown_as.append("")
            continue
        shown_as.append(key := pictures.name(data))
        drawn[key] = data
        files[cell] = file_sha256(path.parent / cell)
    return shown_as, drawn, dict(sorted(files.items()))


def toml_string(value: str) -> str:
    """`value` as a TOML string a fix line tells to write: "Region" (escaped as JSON escapes, which TOML reads)."""
    return json.dumps(value, ensure_ascii=False)


def _places(
    sheet: sheets.Sheet, recipe: Recipe, source: str, columns: list[str], at: int, head_number: int
) -> dict[str, int]:
    """Where each column the recipe names is in the header (`columns`, row `head_number`, the `at`th row read):
    refused when one is missing (the picture may be) or named twice."""
    roles = recipe.items.columns
    problems: list[str] = []
    place: dict[str, int] = {}
    picture = roles.get("picture")
    keys = {roles[role]: f"items.columns.{role}" for role in ("name", "group", "source")}
    keys |= {c.field: f"categories[{n}].field" for n, c in enumerate(recipe.categories, 1)}
    for column in dict.fromkeys([*keys, picture]):
        found = [n for n, name in enumerate(columns) if name == column]
        if column is None or (column == picture and not found):
            continue
        if not found:
            listed = ", ".join(c for c in columns if c)[:300] or "none"
            where = (
                f", or name the row of the column names in items.header (now {recipe.items.header})"
                if recipe.items.header
                else ("" if at else ", or name the row of the column names (items.header)")
            )
            if len(sheet.sheets) > 1 and not (at or recipe.items.header or recipe.items.sheet):
                where += f", or the sheet that holds the table (items.sheet: {', '.join(map(shown, sheet.sheets))})"[
                    :300
                ]
            close = difflib.get_close_matches(column, [c for c in columns if c], n=1, cutoff=0.6)
            fix = f"set {keys[column]} = {toml_string(close[0])}" if close else f"name one of them in {keys[column]}"
            problems.append(
                f"column {shown(column)} ({keys[column]}) is missing in the header (row {head_number}); the table's "
                f"columns are {listed}: {fix}{where}"
            )
        elif len(found) > 1:
            problems.append(
                f"column {shown(column)} is on columns {', '.join(str(n + 1) for n in found)} of the "
                f"header (row {head_number}); name each column once"
            )
        else:
            place[column] = found[0]
    if problems:
        raise RecipeError(source, problems)
    return place


def _cells(body: list[tuple[int, list]], place: dict[str, int], column: str) -> list:
    """The column's cells, a row's missing cells None."""
    n = place[column]
    return [row[n] if n < len(row) else None for _number, row in body]


def _texts(body: list[tuple[int, list]], place: dict[str, int], column: str) -> list[str]:
    """The column's cells as text: stripped, a number as it reads (3 for 3.0), an empty cell ""."""
    return ["" if c is None else (f"{c:g}" if isinstance(c, float) else c.strip()) for c in _cells(body, place, column)]


def _written(
    body: list[tuple[int, list]],
    place: dict[str, int],
    recipe: Recipe,
    line: pd.Series,
    names: pd.Series,
    problems: list[str],
) -> None:
    """The problems of the written columns, appended to `problems`: a row without a name, group (blanks and
    `;` only), source or category value; a control character or bidi override; a text too long."""
    roles = recipe.items.columns
    picture = roles.get("picture")
    fields = [c.field for c in recipe.categories]
    for column in dict.fromkeys([roles["name"], roles["group"], roles["source"], *fields]):
        texts = _texts(body, place, column)
        blank = [not t.replace(";", "").strip() for t in texts] if column == roles["group"] else None
        empty = pd.Series(blank or [t == "" for t in texts])
        if empty.any():
            problems.append(f"column {shown(column)} has no value in {_rows(line[empty], names[empty])}; fill them")
    for column in dict.fromkeys(
        [roles["name"], roles["group"], roles["source"], *([picture] if picture in place else [])]
    ):
        longest = sheets.MAX_CELL if column == roles["source"] else WORDS
        written = pd.Series(_texts(body, place, column))
        unsafe = written.map(text.unsafe)
        if unsafe.notna().any():
            problems.append(
                f"column {shown(column)} holds {unsafe.dropna().iat[0]}, a control character or bidi override, in "
                f"{_rows(line[unsafe.notna()], names[unsafe.notna()])}; remove it"
            )
        if (long := written.str.len() > longest).any():
            problems.append(
                f"column {shown(column)} has more than {longest} characters in {_rows(line[long], None)}; shorten them"
            )


def _values(
    body: list[tuple[int, list]],
    place: dict[str, int],
    recipe: Recipe,
    line: pd.Series,
    names: pd.Series,
    problems: list[str],
) -> dict[str, pd.Series]:
    """Each category's numbers (by its `table_field`) as the recipe's language writes them; their problems,
    and a column with one value for every row, appended to `problems`."""
    named = [f"row {number}" + (f" ({shown(name)[1:-1]})" if name else "") for number, name in zip(line, names)]
    locale = recipe.language.locale
    values = {}
    for category in recipe.categories:
        column = category.field
        read = numbers.read(_cells(body, place, column), named, locale, category.scale, column)
        problems += read.problems
        number = pd.Series(read.values, dtype="float64")
        if not read.problems and number.notna().all() and number.nunique() == 1 and len(number) > 1:
            problems.append(
                f"column {shown(column)} has one value ({number.iat[0]:g}) for every row; a category must "
                "tell the items apart: choose another column"
            )
        values[table_field(column)] = number
    return values


def _twice(line: pd.Series, names: pd.Series, problems: list[str]) -> None:
    """A name on more than one row (without case), appended to `problems`."""
    folded = names.str.casefold()
    twice = list(dict.fromkeys(folded[folded.duplicated(keep=False) & (folded != "")]))
    for key in twice[:SHOWN]:
        same = folded == key
        spellings = list(dict.fromkeys(names[same]))
        spelt = f" (written {', '.join(map(shown, spellings[:SHOWN]))})" if len(spellings) > 1 else ""
        problems.append(
            f"name {shown(spellings[0])} is on {_rows(line[same], None)}{spelt}; each item once: remove or rename "
            "the other rows"
        )
    if len(twice) > SHOWN:
        problems.append(f"{len(twice) - SHOWN} more names are on more than one row; each item once")


def _too_few(have: int, recipe: Recipe, problems: list[str]) -> None:
    """Fewer rows than the recipe's item cards, appended to `problems`."""
    if have < recipe.cards:
        jokers, low = len(recipe.jokers), games()[recipe.game].get("cards", CARDS)[0]
        fix = f"set recipe.cards = {have}" + (
            "" if have + jokers >= low else f" and {reach(games()[recipe.game], have, jokers, more_items=False)}"
        )
        problems.append(
            f"{have} rows, but the recipe asks for {recipe.cards} item cards (recipe.cards); {fix}, or add rows"
        )


def _rows(lines: pd.Series, names: pd.Series | None) -> str:
    """`rows 3, 7 (Bremen, Hamburg)`: the first few rows of the file, with the items' names."""
    shown_lines = [str(n) for n in lines.iloc[:SHOWN]]
    more = f" and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
    named = [shown(str(n))[1:-1] for n in names.iloc[:SHOWN] if str(n)] if names is not None else []
    return f"row{'s' if len(lines) > 1 else ''} {', '.join(shown_lines)}{more}" + (
        f" ({', '.join(named)})" if named else ""
    )
