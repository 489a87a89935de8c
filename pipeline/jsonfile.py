"""Every JSON file geodeck reads (decks, manifests, datapackages, records, reports) is read within limits:
a regular file (never a folder, device or pipe: `/dev/zero` is refused before a byte is read) of at most
its stated size, UTF-8, nested at most MAX_DEPTH levels, integers of at most MAX_DIGITS digits, finite
numbers only (no NaN, Infinity or 1e999). A file outside them raises `Unreadable`, whose message is a
phrase the caller puts after the file's name, e.g. "is not a regular file (a folder, device or pipe)".
"""

import json
import math
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from pipeline import text

MB = 1_000_000
DECK_BYTES = 20 * MB  # deck.json (the largest published deck is ~0.3 MB)
RECORD_BYTES = 5 * MB  # a game record (a long World Game is ~30 kB)
REPORT_BYTES = 20 * MB  # play-check and build reports
SMALL_BYTES = 1 * MB  # manifest.json, datapackage.json, a serialised state
MAX_DEPTH = 64  # arrays and objects inside each other (a deck needs 5)
MAX_DIGITS = 1000  # an integer's digits (Python refuses to parse more than 4,300 with a traceback)


class Unreadable(ValueError):
    """Why a file is not JSON within the limits: a phrase to follow the file's name."""


class Missing(Unreadable):
    """The file does not exist."""


def load(path: Path, max_bytes: int, finite: bool = True) -> Any:
    """The JSON document in `path`, read within the limits (`loads`)."""
    return loads(read_bytes(path, max_bytes), finite)


def read_bytes(path: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (its type and size checked before reading)."""
    with open_regular(path, max_bytes) as handle:
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise Unreadable(f"cannot be read ({exc.strerror or exc})") from exc
    if len(data) > max_bytes:  # a file that grew, or a /proc file reporting size 0
        raise Unreadable(f"is more than the {max_bytes:,} bytes allowed")
    return data


def open_regular(path: Path, max_bytes: int) -> BinaryIO:
    """`path` open for reading in binary, once it is known to be a regular file of at most `max_bytes`: opened
    without blocking (a pipe is never waited on) and checked on the open descriptor, not on the name."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError as exc:
        raise Missing("does not exist") from exc
    except (OSError, ValueError) as exc:
        raise Unreadable(f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
        os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("is not a regular file (a folder, device or pipe)")
        raise Unreadable(f"is {info.st_size:,} bytes, more than the {max_bytes:,} allowed")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def loads(data: bytes | str, finite: bool = True) -> Any:
    """A JSON document from UTF-8 bytes (or text) within the depth and digit limits; with `finite=False`
    NaN, Infinity and overflowing numbers are read as floats for the caller to refuse where it can name
    them better (the deck reader names the card and field; `check_finite` the rest)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        document = json.loads(text, parse_int=_int, parse_constant=float)
    except Unreadable:
        raise
    except UnicodeDecodeError as exc:
        raise Unreadable(f"is not UTF-8 text (byte {exc.start})") from exc
    except RecursionError as exc:
        raise Unreadable(f"nests arrays or objects deeper than {MAX_DEPTH} levels") from exc
    except ValueError as exc:  # json.JSONDecodeError: names line and column
        raise Unreadable(f"is not JSON ({str(exc).splitlines()[0]})") from exc
    deepest, _ = walk(document)
    if deepest > MAX_DEPTH:
        raise Unreadable(f"nests arrays or objects deeper than {MAX_DEPTH} levels")
    if finite:
        check_finite(document)
    return document


def check_finite(document: Any) -> None:
    """Refuse NaN and infinite numbers anywhere in `document`, naming where (e.g. cards.3.fields.area_km2)."""
    _, where = walk(document)
    if where is not None:
        value, path = where
        shown = text.place(".".join(map(str, path))) or "the top"
        raise Unreadable(f"has {value} at {shown}, which is not a finite number")


def walk(document: Any) -> tuple[int, tuple[float, tuple] | None]:
    """How deep arrays and objects nest in `document` (a scalar: 0; not followed beyond MAX_DEPTH + 1) and the
    first non-finite number with its path, without recursion."""
    deepest, found = 0, None
    stack: list[tuple[Any, int, tuple]] = [(document, 1, ())]
    while stack:
        item, level, path = stack.pop()
        if isinstance(item, float) and not math.isfinite(item) and found is None:
            found = (item, path)
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1, (*path, key)) for key, child in reversed(list(children)))
    return deepest, found


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise Unreadable(f"has an integer of {digits:,} digits (at most {MAX_DIGITS:,})")
    return int(text)
