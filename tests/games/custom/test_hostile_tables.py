"""Tables as people have them (issue 42) and as an attacker writes them (issue 49): Excel's CSV (Windows-1252,
semicolons, decimal commas, CRLF) and an XLSX with a title row and its data on the second sheet are read; a
file of another type, a cut-off or oversized one, a formula without a saved value, a value that is not a
finite number in range, a blank group, a name written twice and a column named like one of geodeck's own
fields are each one line naming the row or column and the fix, never a traceback or a silent wrong value."""

import io
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from fixtures.recipes import states as states_recipe
from openpyxl import Workbook
from PIL import Image

from pipeline.decks import files
from pipeline.games.custom import build, items, pictures, recipe, sheets, table
from pipeline.i18n.catalogue import translate

STATES = Path(__file__).parents[2] / "fixtures" / "recipes" / "german-states.csv"
EXCEL = STATES.with_name("german-states-excel.csv")  # the same table as German Excel saves "CSV"


def states() -> pd.DataFrame:
    return pd.read_csv(STATES, dtype=str)


def made(folder: Path, name: str, lang: str = "de", extra: str = "", first: str = "Fläche (km²)") -> recipe.Recipe:
    path = folder / "recipe.toml"
    first_category = (first, *states_recipe.THREE[0][1:])
    text = states_recipe.recipe(name, "t7", lang, extra, (first_category, *states_recipe.THREE[1:]))
    path.write_text(text, encoding="utf-8")
    return recipe.load(path)


def refused(folder: Path, name: str, **options) -> list[str]:
    """The problem lines of reading the table `name` (each one line), without the file's name, in English (the
    German recipe's numbers are still read as German writes them; its German lines: test_recipes.py)."""
    with pytest.raises(recipe.RecipeError) as caught:
        table.read(made(folder, name, **options), say=lambda _line: None, lang="en")
    lines = caught.value.problems
    assert all("\n" not in line and len(line) < 600 for line in lines), lines
    return [line.split(": ", 1)[1] for line in lines]


def test_a_csv_as_german_excel_writes_it_is_read(tmp_path):
    """The fixture as German Excel saves "CSV": Windows-1252, semicolons, thousands dots, decimal commas, CRLF,
    a title row and an empty row above the header: the same values as the plain one's."""
    said: list[str] = []
    rows = table.read(made(tmp_path, str(EXCEL)), say=said.append, lang="en").rows
    assert said == ["note: read german-states-excel.csv as Windows-1252 text, columns separated by semicolons"]
    table.read(made(tmp_path, str(EXCEL)), say=said.append)  # the German recipe's note: German, as the catalogue
    how = translate("de", sheets.READ_CSV, encoding="Windows-1252", separators=translate("de", "semicolons"))
    assert said[1] == f"note: {translate('de', table.READ, file='german-states-excel.csv', how=how)}" != said[0]
    plain = table.read(made(tmp_path, str(STATES)), say=lambda _line: None).rows
    pd.testing.assert_frame_equal(rows, plain)
    assert rows.loc[rows["name"] == "Bayern", "fläche_km2"].item() == 70542  # written 70.542
    assert EXCEL.read_bytes().count(b"\r\n") == 19 and "Thüringen".encode("cp1252") in EXCEL.read_bytes()


def test_an_empty_row_inside_the_table_is_skipped(tmp_path):
    lines = EXCEL.read_bytes().split(b"\r\n")
    (tmp_path / "states.csv").write_bytes(b"\r\n".join([*lines[:8], b";;;;;;;;", *lines[8:]]))
    rows = table.read(made(tmp_path, "states.csv"), say=lambda _line: None).rows
    assert rows["name"].tolist() == states()["Land"].tolist()
    text = (tmp_path / "states.csv").read_bytes().replace(b"Bremen;Nord;419;", b"Bremen;Nord;viel;")
    (tmp_path / "states.csv").write_bytes(text.replace(b"Hamburg;Nord;755;", b"Hamburg;Nord;;"))
    assert refused(tmp_path, "states.csv") == [  # rows as the spreadsheet numbers them
        "column 'Fläche (km²)' has no value in row 10 (Hamburg); fill them",
        "column 'Fläche (km²)': 'viel' in row 8 (Bremen) is no number; write a number without its unit, plainly "
        "(1234.5) or as German does (1.234,5)",
    ]


def test_a_utf8_csv_with_a_bom_and_tabs_is_read(tmp_path):
    (tmp_path / "tabs.csv").write_bytes(b"\xef\xbb\xbf" + states().to_csv(sep="\t", index=False).encode())
    said: list[str] = []
    rows = table.read(made(tmp_path, "tabs.csv", lang="en"), say=said.append).rows
    assert said == ["note: read tabs.csv as UTF-8 text, columns separated by tabs"] and len(rows) == 16
    (tmp_path / "unicode.csv").write_bytes(states().to_csv(sep="\t", index=False).encode("utf-16"))  # Excel's
    said.clear()  # "Unicode text"
    assert table.read(made(tmp_path, "unicode.csv", lang="en"), say=said.append).rows.equals(rows)
    assert said == ["note: read unicode.csv as UTF-16 text, columns separated by tabs"]


def number(cell: str) -> float | str:
    """A cell as a spreadsheet saves it: a number where it is one."""
    try:
        return float(cell)
    except ValueError:
        return cell


def workbook(frame: pd.DataFrame, title: str | None = None, formula: bool = False) -> bytes:
    """An XLSX of a cover sheet and the table on the second sheet, a title row above its header."""
    book = Workbook()
    book.active.title = "Deckblatt"
    book.active.append(["Eine Tabelle für Klasse 7b"])
    sheet = book.create_sheet("Daten")
    if title:
        sheet.append([title])
        sheet.append([])
    sheet.append(list(frame.columns))
    for row in frame.itertuples(index=False):
        sheet.append([number(v) for v in row])
    if formula:
        sheet["C5"] = "=1+1"  # openpyxl saves no value for it, as a program that computes none
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_an_xlsx_with_a_title_row_and_its_data_on_the_second_sheet_is_read(tmp_path):
    (tmp_path / "states.xlsx").write_bytes(workbook(states(), title="Die Bundesländer"))
    said: list[str] = []
    rows = table.read(made(tmp_path, "states.xlsx"), say=said.append, lang="en").rows
    assert said == ["note: read states.xlsx as the sheet 'Daten' of 2 of an XLSX workbook"]
    assert rows["name"].tolist() == states()["Land"].tolist() and rows["fläche_km2"].iat[1] == 70542
    named = made(tmp_path, "states.xlsx", extra='sheet = "Daten"\nheader = 3')
    assert table.read(named, say=lambda _line: None).rows.equals(rows)
    assert refused(tmp_path, "states.xlsx", extra='sheet = "Tabelle2"') == [
        "has no sheet 'Tabelle2'; its sheets are Deckblatt, Daten: name one (items.sheet)"
    ]
    (tmp_path / "other.xlsx").write_bytes(workbook(states().rename(columns={"Land": "Bundesland"})))
    (line, *_) = refused(tmp_path, "other.xlsx")
    assert line.endswith(
        "name one of them in items.columns.name, or name the row of the column names (items.header), or the sheet "
        "that holds the table (items.sheet: 'Deckblatt', 'Daten')"
    ), line
    lines = refused(tmp_path, "states.xlsx", extra="header = 1")  # its title row
    assert lines[0] == (
        "column 'Land' (items.columns.name) is missing in the header (row 1); the table's columns are Die "
        "Bundesländer: name one of them in items.columns.name, or name the row of the column names in items.header "
        "(now 1)"
    )


def test_a_formula_without_a_saved_value_is_refused_with_the_fix(tmp_path):
    (tmp_path / "states.xlsx").write_bytes(workbook(states(), formula=True))
    assert refused(tmp_path, "states.xlsx") == [
        "row 5, column 3 holds a formula without a saved value; open the file in Excel (or LibreOffice) and save it "
        "once, then try again"
    ]


def ods() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", "<office:document-content/>")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (sheets.OLE2 + b"\0" * 600, "is an old Excel workbook (.xls)"),
        (ods(), "is an OpenDocument spreadsheet (.ods)"),
        (workbook(states())[:3000], "is not a complete XLSX file"),
        (b"PK\x03\x04" + b"\0" * 40, "is not a complete XLSX file"),
        (b"\x00\x01binary", "is no text table"),
    ],
)
def test_a_file_of_another_type_is_one_line_with_the_fix(tmp_path, data, expected):
    (tmp_path / "states.xlsx").write_bytes(data)
    (line,) = refused(tmp_path, "states.xlsx")
    assert line.startswith(expected) and ("save it as XLSX or CSV" in line), line


def test_a_table_beyond_the_caps_is_refused_before_it_is_parsed(tmp_path):
    (tmp_path / "big.csv").write_bytes(b"Land,Region,Quelle\n" + b"a,b,c\n" * 1_000_000)
    assert refused(tmp_path, "big.csv") == [
        "has 1,000,002 lines, more than 10,000; keep the rows a deck can use in a table of its own"
    ]
    buffer = io.BytesIO()  # a zip bomb: a sheet that unpacks to more than the cap
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w") as part:
            row = b'<row><c t="inlineStr"><is><t>x</t></is></c></row>' * 20_000
            for _ in range(sheets.MAX_UNZIPPED // len(row) + 1):
                part.write(row)
    (tmp_path / "bomb.xlsx").write_bytes(buffer.getvalue())
    (line,) = refused(tmp_path, "bomb.xlsx")
    assert line.startswith("unpacks to 65 MB in 2 parts, more than 64 MB"), line


def test_rows_columns_and_cells_beyond_the_caps_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(sheets, "MAX_ROWS", 12)
    (tmp_path / "states.xlsx").write_bytes(workbook(states()))
    assert refused(tmp_path, "states.xlsx") == [
        "has more than 12 rows; keep the rows a deck can use in a table of its own"
    ]
    frame = states().assign(Quelle="x" * 1_001)
    frame.to_csv(tmp_path / "long.csv", index=False)
    monkeypatch.setattr(sheets, "MAX_ROWS", 10_000)
    assert refused(tmp_path, "long.csv") == ["row 2, column 9 holds 1,001 characters, more than 1,000; shorten it"]
    strings = sheets.PARTS["xl/sharedStrings.xml"]
    monkeypatch.setitem(sheets.PARTS, "xl/sharedStrings.xml", (strings[0], 12, strings[2]))
    with zipfile.ZipFile(tmp_path / "states.xlsx", "a") as archive:  # 13 texts, read whole on opening
        archive.writestr("xl/sharedStrings.xml", "<sst>" + "<si><t>x</t></si>" * 13 + "</sst>")
    assert refused(tmp_path, "states.xlsx") == [
        "holds more than 12 texts; copy the table alone into a new workbook and save that"
    ]
    wide = ",".join(f"c{n}" for n in range(150))
    (tmp_path / "wide.csv").write_text(f"{wide}\n{wide}\n", encoding="utf-8")
    assert refused(tmp_path, "wide.csv") == ["row 1 has 150 columns, more than 100; remove the columns no card uses"]


@pytest.mark.parametrize("value", ["inf", "Infinity", "-inf", "1e308", "1e309", "1e400", "nan"])
def test_a_value_that_is_not_a_finite_number_in_range_is_one_line_naming_row_and_column(tmp_path, value):
    frame = states()
    frame.loc[frame["Land"] == "Bremen", "Fläche (km²)"] = value
    frame.to_csv(tmp_path / "states.csv", index=False)
    (line,) = refused(tmp_path, "states.csv")
    assert line.startswith(f"column 'Fläche (km²)': '{value}' in row 6 (Bremen) is "), line
    assert "not a finite number" in line or "beyond ±1e+15" in line


def test_an_xlsx_number_beyond_the_range_is_one_line(tmp_path):
    frame = states()
    frame.loc[frame["Land"] == "Bremen", "Fläche (km²)"] = "1e300"
    (tmp_path / "states.xlsx").write_bytes(workbook(frame))
    (line,) = refused(tmp_path, "states.xlsx")
    assert line.startswith("column 'Fläche (km²)': 1e+300 in row 6 (Bremen) is beyond ±1e+15"), line


@pytest.mark.parametrize("blank", ["", " ", ";", " ; "])
def test_a_blank_group_cell_is_one_line(tmp_path, blank):
    frame = states()
    frame.loc[frame["Land"] == "Bremen", "Region"] = blank
    frame.to_csv(tmp_path / "states.csv", index=False)
    assert refused(tmp_path, "states.csv") == ["column 'Region' has no value in row 6 (Bremen); fill them"]


def test_a_table_without_its_group_column_is_one_line_naming_the_key(tmp_path):
    states().drop(columns="Region").to_csv(tmp_path / "states.csv", index=False)
    (line,) = refused(tmp_path, "states.csv")
    assert line.startswith(
        "column 'Region' (items.columns.group) is missing in the header (row 1); the table's "
        "columns are Land, Fläche (km²), "
    ), line


def test_names_are_compared_without_case_and_outer_blanks(tmp_path):
    frame = states()
    frame.loc[frame["Land"] == "Thüringen", "Land"] = "bayern "
    frame.to_csv(tmp_path / "states.csv", index=False)
    assert refused(tmp_path, "states.csv") == [
        "name 'Bayern' is on rows 3, 17 (written 'Bayern', 'bayern'); each item once: remove or rename the other rows"
    ]


def test_a_number_the_language_and_the_column_read_two_ways_is_refused_with_both(tmp_path):
    frame = states()  # its numbers have decimal points: 4.220 may be 4.22 or a German 4220
    frame.loc[frame["Land"] == "Bremen", "Einwohner (Mio.)"] = "4.220"
    frame.to_csv(tmp_path / "states.csv", index=False)
    assert refused(tmp_path, "states.csv") == [
        "column 'Einwohner (Mio.)': '4.220' in row 6 (Bremen) is ambiguous: 4220 as German writes numbers, 4.22 "
        "with a decimal point as the column's other numbers; write 4220 or 4.22"
    ]
    frame.loc[frame["Land"] == "Berlin", "Einwohner (Mio.)"] = "3,76"
    frame.to_csv(tmp_path / "states.csv", index=False)
    (line,) = refused(tmp_path, "states.csv")
    assert line.startswith(
        "column 'Einwohner (Mio.)' mixes two ways of writing numbers: '11.28' in row 2 (Baden-Württemberg) and "
        "'3,76' in row 4 (Berlin); write all of its numbers one way"
    ), line
    frame = states()
    frame.loc[frame["Land"] == "Bremen", "Fläche (km²)"] = "4.220"  # a column of whole numbers: German's 4220
    frame.to_csv(tmp_path / "states.csv", index=False)
    rows = table.read(made(tmp_path, "states.csv"), say=lambda _line: None).rows
    assert rows.loc[rows["name"] == "Bremen", "fläche_km2"].item() == 4220
    english = table.read(made(tmp_path, "states.csv", lang="en"), say=lambda _line: None).rows
    assert english.loc[english["name"] == "Bremen", "fläche_km2"].item() == 4.22


@pytest.mark.parametrize("column", ["source", "in_deck", "card", "label", "name", "reason", "name__source"])
def test_a_column_named_as_one_of_geodecks_fields_never_replaces_it(tmp_path, column):
    frame = states().rename(columns={"Fläche (km²)": column})
    frame.to_csv(tmp_path / "states.csv", index=False)
    recipe_made = made(tmp_path, "states.csv", first=column)
    pool = items.rows(recipe_made, table.read(recipe_made, say=lambda _line: None))
    build.write_items(tmp_path / "out", pool, list(range(10)))
    written = pd.read_parquet(tmp_path / "out" / "items.parquet")
    field = recipe.table_field(column)
    assert written[field].tolist() == frame[column].astype(float).tolist()
    assert written["name"].tolist() == frame["Land"].tolist() and written["in_deck"].sum() == 10
    assert written["name__citation"].tolist() == frame["Quelle"].tolist()
    assert written[f"{field}__citation"].tolist() == frame["Quelle"].tolist()
    assert written["card"].is_unique


def test_a_name_like_a_formula_is_quoted_in_deck_csv():
    cards = [
        {
            "id": "c-t-1",
            "kind": "item",
            "fields": {"name": '=HYPERLINK("http://x","y")', "continents": ["+Nord", "Süd"], "area": -3.5},
            "provenance": {"name": {"source": "@src", "vintage": "'=x"}},
        }
    ]
    text = files.csv_text(["name", "continents", "area"], cards)
    row = text.splitlines()[1]
    assert row.startswith('c-t-1,item,"\'=HYPERLINK(""http://x"",""y"")",\'+Nord;Süd,-3.5,\'@src,\'\'=x')
    for value in ['=HYPERLINK("http://x","y")', "-x", "\tx", "'=x", "''+x", "'Gora'", "plain"]:
        assert files.parse_cell(files.cell(value), "string") == value
    assert files.parse_cell(files.cell(["+Nord", "Süd"]), "list") == ["+Nord", "Süd"]


def test_a_control_character_or_an_overlong_name_is_one_line_per_column(tmp_path):
    frame = states()
    frame.loc[frame["Land"].isin(["Bremen", "Hamburg"]), "Land"] = ["Bre\x1b]0;x\x07men", "Ham\u202eburg"]
    frame.loc[frame["Land"] == "Hessen", "Region"] = "W" * 201
    frame.to_csv(tmp_path / "states.csv", index=False)
    assert refused(tmp_path, "states.csv") == [
        "column 'Land' holds U+001B, a control character or bidi override, in rows 6, 7 (Bre\\x1b]0;x\\x07men, "
        "Ham\\u202eburg); remove it",
        "column 'Region' has more than 200 characters in row 8; shorten them",
    ]


def test_a_column_of_many_bad_values_is_a_few_lines(tmp_path):
    frame = states().assign(**{"Fläche (km²)": "viel"})
    frame.to_csv(tmp_path / "states.csv", index=False)
    lines = refused(tmp_path, "states.csv")
    assert len(lines) == 6 and lines[-1] == "column 'Fläche (km²)': 11 more values refused like these"


def test_card_ids_are_unique_and_short_whatever_the_names(tmp_path):
    frame = states()
    frame.loc[0:4, "Land"] = ["—", "…", "Baden Württemberg", "Baden-Württemberg", "x" * 150]
    frame.to_csv(tmp_path / "states.csv", index=False)
    recipe_made = made(tmp_path, "states.csv")
    cards = items.rows(recipe_made, table.read(recipe_made, say=lambda _line: None))["card"].tolist()
    assert cards[:5] == ["item-1", "item-2", "baden_württemberg-3", "baden_württemberg-4", "x" * 40]
    assert len(set(cards)) == len(cards)


@pytest.mark.parametrize(
    ("cell", "path"),
    [
        ("bilder\\frankreich.png", "bilder/frankreich.png"),  # as Excel on Windows writes it
        ("bilder/frankreich.png", "bilder/frankreich.png"),
        (".\\bilder\\frankreich.png", "bilder/frankreich.png"),
        ("C:\\Users\\lehrer\\frankreich.png", None),  # a drive letter
        ("C:frankreich.png", None),
        ("\\\\server\\bilder\\frankreich.png", None),  # a share
        ("\\bilder\\frankreich.png", None),
        ("/home/lehrer/frankreich.png", None),
        ("..\\frankreich.png", None),
        ("bilder/../../frankreich.png", None),
    ],
)
def test_a_picture_cell_is_a_path_inside_the_table_s_folder_however_it_is_separated(cell, path):
    assert pictures.relative(cell) == path


def test_a_picture_that_resolves_outside_the_table_s_folder_is_refused(tmp_path):
    """A link inside the folder to a picture outside it is refused like a path out of it."""
    (tmp_path / "class").mkdir()
    Image.new("RGB", (20, 20)).save(tmp_path / "outside.png")
    (tmp_path / "class" / "bild.png").symlink_to(tmp_path / "outside.png")
    Image.new("RGB", (20, 20)).save(tmp_path / "class" / "inside.png")
    table_path = tmp_path / "class" / "states.csv"
    assert pictures.problem("inside.png", table_path, "en")[0] is None
    wrong, data = pictures.problem("bild.png", table_path, "en")
    assert data is None and wrong == "picture 'bild.png': a path relative to states.csv inside its folder, e.g. " + (
        "pictures/bayern.png"
    )
