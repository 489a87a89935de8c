"""A user's own table (CSV or XLSX) of items: one row per card, a name, the recipe's numeric category columns,
a source column (where each row's values come from), optionally a group (the trick game's majorities) and a
picture. Checked whole, one line per problem (`recipe.RecipeError`): a missing column, a missing or
non-numeric value, a duplicate name, a column with one value, too few rows. Its provenance is the file's
sha256 and each row's source."""

import io
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline import readers
from pipeline.games.custom.recipe import CARDS, Recipe, RecipeError, games, reach
from pipeline.hashing import sha256
from pipeline.jsonfile import Unreadable

FORMATS = (".csv", ".xlsx")
SHOWN = 5  # rows named in one problem line


@dataclass(frozen=True)
class Table:
    path: Path
    sha256: str
    rows: pd.DataFrame  # name, group, source, picture and one float column per category field, in file order


def read(recipe: Recipe) -> Table:
    """The recipe's table, checked (module docstring)."""
    path = recipe.items.table
    assert path is not None, "a recipe of countries has no table"
    if path.suffix.lower() not in FORMATS:
        raise RecipeError(str(recipe.path), [f"items.table {path.name!r}: a .csv or .xlsx file"])
    try:
        data = readers.read("user-table", path)
    except Unreadable as exc:
        raise RecipeError(str(recipe.path), [f"items.table {path}: {exc}; name an existing CSV or XLSX file"]) from exc
    try:
        if path.suffix.lower() == ".csv":
            frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False, skipinitialspace=True)
        else:
            frame = pd.read_excel(io.BytesIO(data), dtype=str, keep_default_na=False)
    except (ValueError, KeyError, OSError, pd.errors.ParserError) as exc:
        raise RecipeError(
            str(path), [f"not a readable table ({str(exc).splitlines()[0][:100]}); save it as CSV"]
        ) from exc
    return Table(path, sha256(data), _checked(frame, recipe, str(path)))


def _checked(frame: pd.DataFrame, recipe: Recipe, source: str) -> pd.DataFrame:
    roles = recipe.items.columns
    fields = [c.field for c in recipe.categories]
    frame = frame.rename(columns=lambda c: str(c).strip())
    line = pd.Series(range(2, len(frame) + 2), index=frame.index)  # the row's line: the header is line 1
    wanted = [roles["name"], roles["source"], *fields]
    problems = [
        f"column {column!r} is missing; the table's columns are {', '.join(map(str, frame.columns))}"
        for column in wanted
        if column not in frame.columns
    ]
    if problems:
        raise RecipeError(source, problems)
    names = frame[roles["name"]].str.strip()
    for column in (roles["name"], roles["source"], *fields):
        empty = frame[column].str.strip() == ""
        if empty.any():
            problems.append(f"column {column!r} has no value in {_rows(line[empty], names[empty])}; fill them")
    values = {}
    for column in fields:
        number = pd.to_numeric(frame[column].str.strip().str.replace(" ", ""), errors="coerce")
        bad = number.isna() & (frame[column].str.strip() != "")
        if bad.any():
            first = frame.loc[bad, column].iloc[0]
            problems.append(
                f"column {column!r}: {first!r} and {int(bad.sum()) - 1} more in {_rows(line[bad], names[bad])} "
                "are no numbers; write plain numbers (1234.5, no unit)"
                if bad.sum() > 1
                else f"column {column!r}: {first!r} in {_rows(line[bad], names[bad])} is no number; write a plain "
                "number (1234.5, no unit)"
            )
        elif number.notna().all() and number.nunique() == 1:
            problems.append(
                f"column {column!r} has one value ({number.iat[0]:g}) for every row; a category must "
                "tell the items apart: choose another column"
            )
        values[column] = number
    duplicated = names.duplicated(keep=False) & (names != "")
    for name in dict.fromkeys(names[duplicated]):
        problems.append(f"name {name!r} is on {_rows(line[names == name], None)}; each item once")
    if len(frame) < recipe.cards:
        rows, jokers, low = len(frame), len(recipe.jokers), games()[recipe.game].get("cards", CARDS)[0]
        fix = f"set recipe.cards = {rows}" + (
            "" if rows + jokers >= low else f" and {reach(games()[recipe.game], rows, jokers, more_items=False)}"
        )
        problems.append(
            f"{rows} rows, but the recipe asks for {recipe.cards} item cards (recipe.cards); {fix}, or add rows"
        )
    if problems:
        raise RecipeError(source, problems)
    group = roles["group"]
    picture = roles.get("picture")
    return pd.DataFrame(
        {
            "name": names,
            "groups": frame[group].str.strip() if group in frame.columns else "",
            "source": frame[roles["source"]].str.strip(),
            "picture": frame[picture].str.strip() if picture and picture in frame.columns else "",
            **values,
        }
    ).reset_index(drop=True)


def _rows(lines: pd.Series, names: pd.Series | None) -> str:
    """`rows 3, 7 (Bremen, Hamburg)`: the first few lines of the file, with the items' names."""
    shown = [str(n) for n in lines.iloc[:SHOWN]]
    more = f" and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
    named = [str(n) for n in names.iloc[:SHOWN] if str(n)] if names is not None else []
    return f"row{'s' if len(lines) > 1 else ''} {', '.join(shown)}{more}" + (f" ({', '.join(named)})" if named else "")
