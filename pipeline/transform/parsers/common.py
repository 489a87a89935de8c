"""Reading JSON and CSV source files the same way in every parser: a file that cannot be read, or lacks a
column, is a ParseError naming the source, the file and the column."""

import io
import json

import pandas as pd

from pipeline.errors import ParseError


def load_json(raw: bytes, source: str, file: str):
    """The JSON document in `raw`; ParseError(source, file) when it is not valid UTF-8 JSON."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ParseError(source, file, f"not valid JSON ({exc})") from exc


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
