"""A user's own table (CSV or XLSX) of items: one row per card, a name, a group (the trick game's majorities),
the recipe's numeric category columns, a source column (where each row's values come from), optionally a
picture. Read by its real type within caps (`sheets`), its header row found below title rows (or named:
`items.header`), its numbers read as the recipe's language writes them (`numbers`). Checked whole, one line
per problem (`recipe.RecipeError`) naming the row and column: a missing column, a missing, non-numeric,
ambiguous, non-finite or out-of-range value, a blank group, a name given twice (compared without case and outer
blanks), a column with one value, too few rows. The lines are in the recipe's language (the catalogues), or in
the one the caller names (the studio: its page's). Its provenance is the file's sha256 and each row's source."""

import difflib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline import readers, text
from pipeline.games.custom import numbers, pictures, sheets
from pipeline.games.custom.recipe import CARDS, WORDS, Recipe, RecipeError, games, reach, shown, table_field
from pipeline.hashing import file_sha256, sha256
from pipeline.i18n.catalogue import N_, N_plural, labelled, translate, translate_plural
from pipeline.jsonfile import Unreadable

FORMATS = (".csv", ".xlsx")
SHOWN = 5  # rows named in one problem line
READ = N_("read {file} as {how}")
NOT_A_TABLE = N_("items.table {file}: a .csv or .xlsx file")
UNREADABLE = N_("items.table {file}: {problem}; name an existing CSV or XLSX file")
NO_HEADER = N_("items.header {row}: row {row} is empty or beyond the table; name the row that holds the column names")
NO_ROWS = N_("has no rows; write the header row and a row per item")
MISSING = N_("column {column} ({key}) is missing in the header (row {row}); the table's columns are {columns}: {fix}")
NONE = N_("none")
SET_KEY = N_("set {key} = {value}")
NAME_ONE = N_("name one of them in {key}")
OR_HEADER_NOW = N_("or name the row of the column names in items.header (now {row})")
OR_HEADER = N_("or name the row of the column names (items.header)")
OR_SHEET = N_("or the sheet that holds the table (items.sheet: {sheets})")
TWICE_IN_HEADER = N_("column {column} is on columns {places} of the header (row {row}); name each column once")
EMPTY = N_("column {column} has no value in {rows}; fill them")
UNSAFE = N_("column {column} holds {character}, a control character or bidi override, in {rows}; remove it")
LONG = N_("column {column} has more than {most} characters in {rows}; shorten them")
ONE_VALUE = N_(
    "column {column} has one value ({value}) for every row; a category must tell the items apart: choose another column"
)
NAME_TWICE = N_("name {name} is on {rows}; each item once: remove or rename the other rows")
WRITTEN = N_("name {name} is on {rows} (written {spellings}); each item once: remove or rename the other rows")
MORE_TWICE = N_plural(
    "{n} more name is on more than one row; each item once", "{n} more names are on more than one row; each item once"
)
SET_CARDS = N_("set recipe.cards = {rows}")
SET_CARDS_AND = N_("set recipe.cards = {rows} and {fix}")
TOO_FEW = N_plural(
    "{n} row, but the recipe asks for {cards} item cards (recipe.cards); {fix}, or add rows",
    "{n} rows, but the recipe asks for {cards} item cards (recipe.cards); {fix}, or add rows",
)
ROWS = N_plural("row {rows}", "rows {rows}")
MORE_ROWS = N_("{rows} and {n} more")


@dataclass(frozen=True)
class Table:
    path: Path
    sha256: str
    rows: pd.DataFrame  # name, groups, source, picture and a float column per category (its `table_field`)
    pictures: dict[str, bytes]  # a picture's name (its `picture` cell) -> the picture as the cards print it
    picture_files: dict[str, str]  # a picture cell (its path relative to the table) -> its file's sha256


def read(recipe: Recipe, say: Callable[[str], None] | None = None, lang: str | None = None) -> Table:
    """The recipe's table, checked (module docstring), its problems in `lang` (default: the recipe's); how it
    was read (its encoding and separator, its sheet) is said in one line on stderr (or to `say`)."""
    path = recipe.items.table
    assert path is not None, "a recipe of countries has no table"
    lang = lang or recipe.lang
    if path.suffix.lower() not in FORMATS:
        raise RecipeError(str(recipe.path), [translate(lang, NOT_A_TABLE, file=shown(path.name))])
    try:
        data = readers.read("user-table", path)
    except Unreadable as exc:
        problem = translate(lang, UNREADABLE, file=str(path), problem=str(exc))
        raise RecipeError(str(recipe.path), [problem]) from exc
    try:
        sheet = sheets.read(data, recipe.items.sheet, recipe.items.columns["name"])
    except sheets.Refused as exc:
        raise RecipeError(str(path), [exc.why.said(lang)]) from exc
    read_as = text.shown(sheet.read_as.said(lang))
    note = f"note: {translate(lang, READ, file=text.shown(path.name), how=read_as)}"
    (say or (lambda line: print(line, file=sys.stderr, flush=True)))(note)
    rows, drawn, files = _checked(sheet, recipe, path, lang)
    return Table(path, sha256(data), rows, drawn, files)


def _header(rows: list[tuple[int, list]], recipe: Recipe, source: str, lang: str) -> int:
    """The index in `rows` of the header: the row `items.header` names, else the first of the first rows
    that names the name column, else the first row."""
    wanted = recipe.items.header
    if wanted is not None:
        for index, (number, _cells) in enumerate(rows):
            if number == wanted:
                return index
        raise RecipeError(source, [translate(lang, NO_HEADER, row=wanted)])
    name = recipe.items.columns["name"]
    for index, (_number, cells) in enumerate(rows[: sheets.HEADER_ROWS]):
        if any(isinstance(cell, str) and cell.strip() == name for cell in cells):
            return index
    return 0


def _checked(
    sheet: sheets.Sheet, recipe: Recipe, path: Path, lang: str
) -> tuple[pd.DataFrame, dict[str, bytes], dict[str, str]]:
    """The table's items, checked whole (module docstring): every problem one line in `lang`, all raised together;
    their pictures by name (each item's `picture` that name) and each picture file's sha256 by its path."""
    source = str(path)
    rows = sheet.rows
    if not rows:
        raise RecipeError(source, [translate(lang, NO_ROWS)])
    at = _header(rows, recipe, source, lang)
    head_number, head = rows[at]
    columns = [str(cell).strip() if cell is not None else "" for cell in head]
    body = rows[at + 1 :]
    place = _places(sheet, recipe, source, columns, at, head_number, lang)
    roles = recipe.items.columns
    picture = roles.get("picture")
    line = pd.Series([number for number, _row in body])
    names = pd.Series(_texts(body, place, roles["name"]))
    problems = Problems(lang, line, names)
    _written(body, place, recipe, problems)
    values = _values(body, place, recipe, problems)
    _twice(names, problems)
    _too_few(len(body), recipe, problems)
    cells = _texts(body, place, picture) if picture in place else [""] * len(body)
    shown_as, drawn, files = _pictures(cells, path, problems)
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


class Problems(list[str]):
    """A table's problem lines in `lang`, its rows' numbers in the file (`line`) and their items' `names`."""

    def __init__(self, lang: str, line: pd.Series, names: pd.Series):
        super().__init__()
        self.lang, self.line, self.names = lang, line, names

    def add(self, message: str, **fields: Any) -> None:
        self.append(translate(self.lang, message, **fields))

    def rows(self, which: pd.Series | list[int], named: bool = True) -> str:
        """`rows 3, 7 (Bremen, Hamburg)`: the first few of the rows `which` (a mask or positions), with the items'
        names."""
        lines = self.line[which] if isinstance(which, pd.Series) else self.line.iloc[which]
        names = self.names[which] if isinstance(which, pd.Series) else self.names.iloc[which]
        numbers = ", ".join(str(n) for n in lines.iloc[:SHOWN])
        if len(lines) > SHOWN:
            numbers = translate(self.lang, MORE_ROWS, rows=numbers, n=len(lines) - SHOWN)
        said = translate_plural(self.lang, *ROWS, len(lines), rows=numbers)
        shown_names = [shown(str(n))[1:-1] for n in names.iloc[:SHOWN] if str(n)] if named else []
        return f"{said} ({', '.join(shown_names)})" if shown_names else said


def _pictures(cells: list[str], path: Path, problems: Problems) -> tuple[list[str], dict[str, bytes], dict[str, str]]:
    """Each row's picture name ("" without one), the pictures by name (pipeline/games/custom/pictures.py) and
    each picture file's sha256 by its path relative to the table (`/`-separated); a file that is missing,
    outside the table's folder or no picture is a problem naming its row."""
    shown_as, drawn, files = [], {}, {}
    for n, cell in enumerate(cells):
        if not cell:
            shown_as.append("")
            continue
        wrong, data = pictures.problem(cell, path, problems.lang)
        inside = pictures.relative(cell)
        if data is None or inside is None:
            problems.append(labelled(problems.lang, problems.rows([n]), wrong))
            shown_as.append("")
            continue
        shown_as.append(key := pictures.name(data))
        drawn[key] = data
        files[inside] = file_sha256(path.parent / inside)
    return shown_as, drawn, dict(sorted(files.items()))


def toml_string(value: str) -> str:
    """`value` as a TOML string a fix line tells to write: "Region" (escaped as JSON escapes, which TOML reads)."""
    return json.dumps(value, ensure_ascii=False)


def _places(
    sheet: sheets.Sheet, recipe: Recipe, source: str, columns: list[str], at: int, head_number: int, lang: str
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
            listed = ", ".join(c for c in columns if c)[:300] or translate(lang, NONE)
            close = difflib.get_close_matches(column, [c for c in columns if c], n=1, cutoff=0.6)
            key = keys[column]
            fixes = [
                translate(lang, SET_KEY, key=key, value=toml_string(close[0]))
                if close
                else translate(lang, NAME_ONE, key=key)
            ]
            if recipe.items.header:
                fixes.append(translate(lang, OR_HEADER_NOW, row=recipe.items.header))
            elif not at:
                fixes.append(translate(lang, OR_HEADER))
            if len(sheet.sheets) > 1 and not (at or recipe.items.header or recipe.items.sheet):
                fixes.append(translate(lang, OR_SHEET, sheets=", ".join(map(shown, sheet.sheets))[:300]))
            problems.append(
                translate(
                    lang,
                    MISSING,
                    column=shown(column),
                    key=key,
                    row=head_number,
                    columns=listed,
                    fix=", ".join(fixes),
                )
            )
        elif len(found) > 1:
            places = ", ".join(str(n + 1) for n in found)
            problems.append(translate(lang, TWICE_IN_HEADER, column=shown(column), places=places, row=head_number))
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


def _written(body: list[tuple[int, list]], place: dict[str, int], recipe: Recipe, problems: Problems) -> None:
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
            problems.add(EMPTY, column=shown(column), rows=problems.rows(empty))
    for column in dict.fromkeys(
        [roles["name"], roles["group"], roles["source"], *([picture] if picture in place else [])]
    ):
        longest = sheets.MAX_CELL if column == roles["source"] else WORDS
        written = pd.Series(_texts(body, place, column))
        unsafe = written.map(text.unsafe)
        if unsafe.notna().any():
            found = unsafe.dropna().iat[0]
            problems.add(UNSAFE, column=shown(column), character=found, rows=problems.rows(unsafe.notna()))
        if (long := written.str.len() > longest).any():
            problems.add(LONG, column=shown(column), most=longest, rows=problems.rows(long, named=False))


def _values(
    body: list[tuple[int, list]], place: dict[str, int], recipe: Recipe, problems: Problems
) -> dict[str, pd.Series]:
    """Each category's numbers (by its `table_field`) as the recipe's language writes them; their problems,
    and a column with one value for every row, appended to `problems`."""
    named = [problems.rows([n]) for n in range(len(problems.line))]
    locale = recipe.language.locale
    values = {}
    for category in recipe.categories:
        column = category.field
        read = numbers.read(_cells(body, place, column), named, locale, category.scale, column, problems.lang)
        problems += read.problems
        number = pd.Series(read.values, dtype="float64")
        if not read.problems and number.notna().all() and number.nunique() == 1 and len(number) > 1:
            problems.add(ONE_VALUE, column=shown(column), value=f"{number.iat[0]:g}")
        values[table_field(column)] = number
    return values


def _twice(names: pd.Series, problems: Problems) -> None:
    """A name on more than one row (without case), appended to `problems`."""
    folded = names.str.casefold()
    twice = list(dict.fromkeys(folded[folded.duplicated(keep=False) & (folded != "")]))
    for key in twice[:SHOWN]:
        same = folded == key
        spellings = list(dict.fromkeys(names[same]))
        rows = problems.rows(same, named=False)
        if len(spellings) > 1:
            listed = ", ".join(map(shown, spellings[:SHOWN]))
            problems.add(WRITTEN, name=shown(spellings[0]), rows=rows, spellings=listed)
        else:
            problems.add(NAME_TWICE, name=shown(spellings[0]), rows=rows)
    if len(twice) > SHOWN:
        problems.append(translate_plural(problems.lang, *MORE_TWICE, len(twice) - SHOWN))


def _too_few(have: int, recipe: Recipe, problems: Problems) -> None:
    """Fewer rows than the recipe's item cards, appended to `problems`."""
    if have < recipe.cards:
        jokers, low = len(recipe.jokers), games()[recipe.game].get("cards", CARDS)[0]
        if have + jokers >= low:
            fix = translate(problems.lang, SET_CARDS, rows=have)
        else:
            more = reach(games()[recipe.game], have, jokers, more_items=False, lang=problems.lang)
            fix = translate(problems.lang, SET_CARDS_AND, rows=have, fix=more)
        problems.append(translate_plural(problems.lang, *TOO_FEW, have, cards=recipe.cards, fix=fix))
