"""Reading Wikipedia's `wikitable`s from a saved page: the one HTML reader the Wikipedia scrapers share.

What real pages hold and how it is read:
- several tables per page: every `table.wikitable` (layout, navbox and other tables are skipped, and a
  table nested in a cell is not part of the cell's text);
- header rows (only `th` cells) with grouped headers (`colspan`): a column is named by its last header row,
  prefixed by its group when that differs ("Total area / km²");
- `rowspan` and `colspan` in the body: the cell's text is repeated into every row and column it spans;
- footnote markers (`sup.reference`), sort keys (`span.sortkey`, hidden or visible: "7001857600000000000"
  or "!C "), hidden spans (display:none) and flag icons (`span.flagicon`) are dropped from the text;
- `data-sort-value` (on the cell or a span in it) is kept beside the text as the cell's sort value;
- non-breaking spaces (U+00A0, `&#160;`) read as spaces, U+2212 and U+2013 minus signs as "-";
- total rows (`tr.sortbottom`) are left out.

A page without the table a scraper needs (a renamed or missing column) is a ParseError naming the columns
it expected and the headers the page has.
"""

import copy
import re
from dataclasses import dataclass

from bs4 import BeautifulSoup, Tag

from pipeline.errors import ParseError

MINUS = {"\u2212": "-", "\u2013": "-", "\u00a0": " ", "\u202f": " ", "\u2009": " "}
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+")


@dataclass(frozen=True)
class Cell:
    text: str
    sort: str | None = None  # data-sort-value, when the page gives one

    def number(self) -> float | None:
        """The first number in the cell (its sort value first): thousands separators and minus signs
        read; None when the cell has none."""
        for candidate in (self.sort, self.text):
            match = NUMBER.search(normalize(candidate or ""))
            if match:
                return float(match[0].replace(",", ""))
        return None


@dataclass(frozen=True)
class WikiTable:
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""

    def column(self, name: str) -> int:
        return self.columns.index(name)


def normalize(text: str) -> str:
    """Spaces and minus signs as plain ASCII, runs of white space as one space, stripped."""
    for char, plain in MINUS.items():
        text = text.replace(char, plain)
    return re.sub(r"\s+", " ", text).strip()


def tables(html: bytes, source: str, file: str) -> list[WikiTable]:
    """Every wikitable of the page, in page order; ParseError when the bytes are not an HTML page."""
    try:
        text = html.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(source, file, f"not UTF-8 HTML ({exc})") from exc
    soup = BeautifulSoup(text, "lxml")
    if soup.find("html") is None and soup.find("table") is None:
        raise ParseError(source, file, "not an HTML page")
    return [_read(table) for table in soup.select("table.wikitable")]


def with_columns(found: list[WikiTable], required: dict[str, str], source: str, file: str) -> list[WikiTable]:
    """The tables that have every required column, with their columns renamed to the keys of `required`
    (name -> the page's header, matched case-insensitively as the start of a header); ParseError when no
    table has them all."""
    matching = []
    for table in found:
        positions = {}
        for name, header in required.items():
            hits = [i for i, c in enumerate(table.columns) if c.lower().startswith(header.lower())]
            if hits:
                positions[name] = hits[0]
        if len(positions) == len(required):
            columns = list(table.columns)
            for name, i in positions.items():
                columns[i] = name
            matching.append(WikiTable(tuple(columns), table.rows, table.caption))
    if not matching:
        seen = "; ".join(" | ".join(t.columns) for t in found[:3]) or "no wikitable"
        raise ParseError(
            source, f"{file}: {', '.join(required.values())}", f"no wikitable has these columns (found: {seen})"
        )
    return matching


def _read(table: Tag) -> WikiTable:
    grid = _grid(table)
    header_rows = 0
    while header_rows < len(grid) and all(kind == "th" for kind, _, _ in grid[header_rows]):
        header_rows += 1
    columns = _column_names([[cell for _, cell, _ in row] for row in grid[:header_rows]])
    body = [
        tuple(cell for _, cell, _ in row)
        for row in grid[header_rows:]
        if not any(total for _, _, total in row) and any(cell.text for _, cell, _ in row)
    ]
    width = len(columns)
    rows = tuple(tuple(row[:width]) + (Cell(""),) * (width - len(row)) for row in body)
    caption = normalize(table.caption.get_text(" ")) if table.caption else ""
    return WikiTable(tuple(columns), rows, caption)


def _grid(table: Tag) -> list[list[tuple[str, Cell, bool]]]:
    """The table's rows with rowspan/colspan expanded: (th or td, cell, in a total row) per position."""
    grid: list[list[tuple[str, Cell, bool]]] = []
    pending: dict[tuple[int, int], tuple[str, Cell, bool]] = {}
    for r, tr in enumerate(row for row in table.find_all("tr") if row.find_parent("table") is table):
        total = "sortbottom" in (tr.get("class") or [])
        row: list[tuple[str, Cell, bool]] = []
        cells = list(tr.find_all(["th", "td"], recursive=False))
        c = 0
        for tag in cells:
            while (r, c) in pending:
                row.append(pending.pop((r, c)))
                c += 1
            entry = (tag.name, _cell(tag), total)
            span_c, span_r = _span(tag, "colspan"), _span(tag, "rowspan")
            for dc in range(span_c):
                row.append(entry)
                for dr in range(1, span_r):
                    pending[(r + dr, c + dc)] = entry
            c += span_c
        while (r, c) in pending:
            row.append(pending.pop((r, c)))
            c += 1
        grid.append(row)
    return grid


def _span(tag: Tag, attribute: str) -> int:
    match = re.match(r"\d+", str(tag.get(attribute) or "1"))
    return max(1, min(int(match[0]), 1000)) if match else 1


def _cell(tag: Tag) -> Cell:
    sort = tag.get("data-sort-value")
    if sort is None:
        inner = tag.find(lambda t: t.has_attr("data-sort-value"))
        sort = inner.get("data-sort-value") if inner is not None else None
    clone = copy.copy(tag)
    for junk in clone.select("sup.reference, span.sortkey, span.flagicon, table, style, [style*='display:none']"):
        junk.decompose()
    for br in clone.find_all("br"):
        br.replace_with(" ")
    return Cell(normalize(clone.get_text("")), normalize(str(sort)) if sort is not None else None)


def _column_names(headers: list[list[Cell]]) -> list[str]:
    if not headers:
        return []
    width = max(len(row) for row in headers)
    names = []
    for i in range(width):
        parts = [row[i].text for row in headers if i < len(row) and row[i].text]
        leaf = parts[-1] if parts else f"column {i + 1}"
        group = parts[0] if len(parts) > 1 and parts[0] != leaf else ""
        names.append(f"{group} / {leaf}" if group else leaf)
    return names
