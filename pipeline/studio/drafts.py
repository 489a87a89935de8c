"""A session's draft deck: the make-a-deck form's values written as a recipe (recipe.toml, TOML by tomlkit) and
the uploaded table beside it (table.csv or table.xlsx, by the file's first bytes: the name the browser sends is
never used), then read by the CLI's own readers (recipe.load, table.read), whose one-line problems are put
beside the form field each names (its recipe key is the field's name)."""

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from pipeline import atomic, jsonfile, readers
from pipeline.decks.categories import DIRECTIONS
from pipeline.errors import GeodeckError
from pipeline.games.custom import sheets
from pipeline.hashing import file_sha256

RECIPE = "recipe.toml"
VALUES = "form.json"  # the form as the user left it
TABLES = ("table.csv", "table.xlsx")
CATEGORY_ROWS = 6  # category rows the form offers (a recipe compares 3 to 8 fields; more by uploading a recipe)
TEXT = ("recipe.name", "recipe.title", "recipe.game", "recipe.lang", "recipe.cards", "recipe.jokers")
ITEMS = ("items.columns.name", "items.columns.group", "items.columns.source", "items.include", "items.exclude")
CATEGORY = ("field", "direction", "words.label", "words.unit")
GENERAL = ""  # the key of problems no field names


def fields() -> list[str]:
    """Every field of the form, named by its recipe key."""
    rows = [f"categories[{n}].{key}" for n in range(1, CATEGORY_ROWS + 1) for key in CATEGORY]
    return [*TEXT, *ITEMS, "items.continents", "items.table", *rows]


@dataclass
class Checked:
    values: dict[str, str | list[str]]
    problems: dict[str, list[str]] = field(default_factory=dict)  # form field (GENERAL: none) -> lines
    table: str = ""  # the draft's table file name, "" without one
    ok: bool = False


def values(folder: Path) -> dict:
    """The form's values as last saved in the draft `folder` (none yet: the empty form)."""
    try:
        return jsonfile.load(folder / VALUES, 1 * jsonfile.MB)
    except jsonfile.Unreadable:
        return {}


def table(folder: Path) -> Path | None:
    return next((folder / name for name in TABLES if (folder / name).is_file()), None)


def save(folder: Path, form: dict[str, str | list[str]], upload: bytes | None) -> None:
    """Keep the form's values and, if given, the uploaded table (its type from its first bytes) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    known = {key: _lines(form[key]) for key in fields() if key in form}
    atomic.write_text(folder / VALUES, json.dumps(known, ensure_ascii=False, sort_keys=True) + "\n")
    if upload:
        name = TABLES[1] if upload.startswith(sheets.ZIP) else TABLES[0]
        for old in TABLES:
            (folder / old).unlink(missing_ok=True)
        atomic.write_bytes(folder / name, upload)


def digest(folder: Path) -> str:
    """What determines the draft's preview, as a key: the saved form's values and the table's name and bytes
    (never the folder: the same draft of two sessions has one key)."""
    found = table(folder)
    content = hashlib.sha256((folder / VALUES).read_bytes() if (folder / VALUES).is_file() else b"")
    if found is not None:
        content.update(found.name.encode() + b"\0" + _table_digest(found, _stamp(found)).encode())
    return content.hexdigest()


@functools.lru_cache(maxsize=64)
def _table_digest(path: Path, _stamp: tuple[int, int, int]) -> str:
    """A table's sha256, hashed again only when the file changed (a table may be 16 MB)."""
    return file_sha256(path)


def _stamp(path: Path) -> tuple[int, int, int]:
    """The file's inode, size and change time: another upload (written atomically: a new file) another stamp."""
    found = path.stat()
    return found.st_ino, found.st_size, found.st_mtime_ns


def recipe(form: dict, table_name: str) -> dict:
    """The recipe document of the form's values (an empty field left out, so the recipe reader names it)."""
    head = {key.split(".")[1]: form[key] for key in TEXT if _given(form, key)}
    if isinstance(head.get("cards"), str) and head["cards"].strip().isdigit():
        head["cards"] = int(head["cards"])
    if "jokers" in head:
        head["jokers"] = [_pair(line) for line in str(head["jokers"]).splitlines() if line.strip()]
    items: dict = {}
    if table_name:
        items["table"] = table_name
        items["columns"] = {key.split(".")[2]: form[key] for key in ITEMS[:3] if _given(form, key)}
    else:
        if continents := [c for c in form.get("items.continents") or [] if c]:
            items["continents"] = continents
        for key in ITEMS[3:]:
            if _given(form, key):
                items[key.split(".")[1]] = re.findall(r"[^\s,;]+", str(form[key]))
    document: dict = {"recipe": head, "items": items}
    rows = []
    for n in range(1, CATEGORY_ROWS + 1):
        given = {key: str(form[f"categories[{n}].{key}"]) for key in CATEGORY if _given(form, f"categories[{n}].{key}")}
        if "field" not in given:
            continue
        row: dict = {"field": given["field"], "direction": given.get("direction", DIRECTIONS[0])}
        words = {key.split(".")[1]: given[key] for key in ("words.label", "words.unit") if key in given}
        if words:
            row["words"] = words
        rows.append(row)
    if rows:
        document["categories"] = rows
    return document


def check(folder: Path, table_too: bool = True, lang: str | None = None) -> Checked:
    """Write the draft's recipe from its saved form and read it (and, if `table_too` or the page's language `lang`
    is not the recipe's, its table) as `geodeck deck new` does, its problems and its table's in `lang` (default: the
    recipe's)."""
    from pipeline.games.custom import recipe as recipes
    from pipeline.games.custom import table as tables

    form = values(folder)
    found = table(folder)
    checked = Checked(form, table=found.name if found else "")
    atomic.write_text(folder / RECIPE, tomlkit.dumps(recipe(form, checked.table)))
    try:
        made = recipes.load(folder / RECIPE, lang=lang)
        if made.items.table is not None and (table_too or (lang is not None and lang != made.lang)):
            tables.read(made, say=lambda _line: None, lang=lang)
    except recipes.RecipeError as exc:
        for line in exc.problems:
            where, problem = placed(line, folder)
            checked.problems.setdefault(where, []).append(problem)
        return checked
    except GeodeckError as exc:
        checked.problems[GENERAL] = [str(exc)]
        return checked
    atomic.write_text(named(folder, made.name), (folder / RECIPE).read_text(encoding="utf-8"))
    checked.ok = True
    return checked


def named(folder: Path, name: str) -> Path:
    """The draft's recipe under the deck's name (`recipe.name`, checked by the recipe reader: lower-case letters,
    digits and '-'), as `geodeck deck export` names it: the deck records its recipe's file name, so the CLI
    makes the same deck from the exported recipe, byte for byte."""
    return folder / f"{name}.toml"


def placed(line: str, folder: Path) -> tuple[str, str]:
    """(form field, problem) of a recipe error's line `source: problem`: the field whose key the problem
    starts with (the longest), `items.table` for the table's own lines, else GENERAL."""
    source, _, problem = line.partition(": ")
    if source != str(folder / RECIPE):
        return ("items.table", problem) if source.startswith(str(folder)) else (GENERAL, line)
    keys = sorted((k for k in fields() if re.match(re.escape(k) + r"(?![\w.])", problem)), key=len, reverse=True)
    return (keys[0] if keys else GENERAL), problem


def change(folder: Path, made) -> None:
    """A refusal's fix (`made`: a pipeline.fixes.Change) made to the draft's form in `folder`: the recipe's
    categories[n] taken out (the rows below it move up), or a value added to a list (items.exclude)."""
    form = values(folder)
    if made.action == "remove" and (row := category_row(form, made.key)):
        for n in range(row, CATEGORY_ROWS + 1):
            for key in CATEGORY:
                below = form.get(f"categories[{n + 1}].{key}")
                if below is None:
                    form.pop(f"categories[{n}].{key}", None)
                else:
                    form[f"categories[{n}].{key}"] = below
    elif made.action == "add" and made.key in ITEMS:
        listed = re.findall(r"[^\s,;]+", str(form.get(made.key, "")))
        form[made.key] = " ".join(dict.fromkeys([*listed, made.value]))
    else:
        raise GeodeckError(f"the studio cannot make this change: {made.action} {made.key}")
    save(folder, form, None)


def category_row(form: dict, key: str) -> int | None:
    """The form's row of the recipe's `categories[n]` (the n-th row with a field: empty rows are not in the
    recipe), None where there is none."""
    found = re.fullmatch(r"categories\[(\d+)\]", key)
    filled = [n for n in range(1, CATEGORY_ROWS + 1) if _given(form, f"categories[{n}].field")]
    n = int(found.group(1)) if found else 0
    return filled[n - 1] if 0 < n <= len(filled) else None


def _lines(value: str | list[str]) -> str | list[str]:
    """A field's value with a browser's line ends (a form sends a textarea's as CR LF) as the newlines they are:
    a CR kept would come back into the form shown as the control character it is (`\x0d`)."""
    return value.replace("\r\n", "\n") if isinstance(value, str) else value


def _given(form: dict, key: str) -> bool:
    value = form.get(key)
    return isinstance(value, str) and bool(value.strip())


def _pair(line: str) -> list[str]:
    return [part.strip() for part in line.split("/")]


def upload_cap() -> int:
    """The most bytes a request may carry: the user-table reader's cap and room for the form."""
    return readers.KINDS["user-table"].max_bytes + 256 * 1024
