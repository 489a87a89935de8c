"""Gettext catalogue files, read with Babel through the guarded reader (`readers`, kind "po")."""

import io
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from pipeline import readers
from pipeline.jsonfile import MB, Unreadable


def _catalogue(data: bytes) -> Catalog:
    try:
        return read_po(io.BytesIO(data), abort_invalid=True)
    except Exception as exc:  # babel raises PoFileError and assorted parse errors
        raise Unreadable(f"cannot be parsed: {exc}") from exc


readers.register(
    readers.Kind("po", "gettext catalogue", 16 * MB, _catalogue, fix="fix it with `pybabel update` or restore it")
)


@cache
def read(path: Path) -> Catalog:
    """The catalogue in `path`; a broken one is one GeodeckError naming the file and the fix."""
    return readers.read_input("po", path)


def header_locale(path: Path) -> str | None:
    """The locale a catalogue's `Language:` header names (e.g. "fr_FR"), or None."""
    locale = read(path).locale
    return str(locale) if locale is not None else None
