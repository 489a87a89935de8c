"""The one guarded reader for the files geodeck reads besides decks, records and reports (those go through
`pipeline.jsonfile` directly): every kind of file is registered in `KINDS` with its size cap, its format
and the shape its document must have, and read through `read`, `read_input` or `read_cache`.

Every read opens a regular file only, without blocking (a pipe is refused, never waited on; `/dev/zero` is
refused before a byte is read), at most the kind's size; JSON and TOML are nested at most
`jsonfile.MAX_DEPTH` levels with at most `MAX_KEYS` keys, TOML's nesting and dotted keys checked before it
is parsed (100,000 brackets or a key of 50,000 dotted parts are refused at once, not a RecursionError or
minutes of parsing). A damaged input is a `GeodeckError` naming the file and the fix; a damaged cache is one
warning line on stderr and read as absent, so its owner rebuilds it.
"""

import re
import sys
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from pipeline import jsonfile
from pipeline.errors import GeodeckError
from pipeline.jsonfile import MB, Missing, Unreadable

MAX_KEYS = 200_000  # keys and items in one TOML or JSON cache (the largest, flag-icons.toml, has ~2,000)


@dataclass(frozen=True)
class Kind:
    """A kind of file: `what` names it in messages; `parse` makes a document of its bytes and `shape` says
    why the document is not what the kind holds (None when it is); a cache is rebuilt by `rebuilt`, an
    input is repaired as `fix` says."""

    name: str
    what: str
    max_bytes: int
    parse: Callable[[bytes], Any] | None = None  # None: opened (`opened`), parsed by its library
    shape: Callable[[Any], str | None] = lambda _document: None
    cache: bool = False
    fix: str = ""  # an input's repair, e.g. "rebuild it with `geodeck build --force`"; `{path}`: the file
    rebuilt: str = ""  # a cache's rebuild, e.g. "the step runs again"


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    KINDS[kind.name] = kind
    return kind


def read(kind: str, path: Path) -> Any:
    """The document in `path`, read as `kind` within its limits; `Unreadable` (`Missing`) says why not."""
    spec = KINDS[kind]
    if spec.parse is None:
        raise TypeError(f"{kind} files are opened (readers.opened), not parsed here")
    document = spec.parse(jsonfile.read_bytes(path, spec.max_bytes))
    wrong = spec.shape(document)
    if wrong is not None:
        raise Unreadable(wrong)
    return document


def read_input(kind: str, path: Path) -> Any:
    """An input's document; a missing or damaged one is one GeodeckError naming the file and the fix."""
    try:
        return read(kind, path)
    except Unreadable as exc:
        raise failure(kind, path, exc) from exc


def failure(kind: str, path: Path, why: Unreadable, fix: str | None = None) -> GeodeckError:
    """The one-line error for an input of `kind` at `path` that is `why`, with the kind's fix (or `fix`; a
    `{path}` in it names the file)."""
    return GeodeckError(
        f"{path}: this {KINDS[kind].what} {why}; {(fix or KINDS[kind].fix).replace('{path}', str(path))}"
    )


def read_cache(kind: str, path: Path) -> Any | None:
    """A cache's document, or None when it is absent or damaged: then one warning line on stderr, and the
    damaged entry (a file, a pipe, a link; never a folder) is removed so that the caller can write the one it
    rebuilds in its place."""
    try:
        return read(kind, path)
    except Missing:
        return None
    except Unreadable as exc:
        spec = KINDS[kind]
        print(f"warning: {path}: this {spec.what} {exc}; discarded, {spec.rebuilt}", file=sys.stderr, flush=True)
        with suppress(OSError):  # a read-only store: the rebuilt one is not kept either
            if path.is_symlink() or not path.is_dir():
                path.unlink()
        return None


@contextmanager
def opened(kind: str, path: Path) -> Iterator[BinaryIO]:
    """`path` open in binary for a library to parse (a parquet table, an SVG), once it is a regular file within
    the kind's size; `Unreadable` (`Missing`) says why not (`failure` words it for the user)."""
    with jsonfile.open_regular(path, KINDS[kind].max_bytes) as handle:
        yield handle


def table(path: Path, fix: str | None = None, geo: bool = False) -> Any:
    """A parquet table (a GeoDataFrame with `geo`), opened as a regular file within the kind's size; one that
    is not is a GeodeckError with the kind's fix (or `fix`)."""
    if geo:  # imported here: a no-op build reads no table
        import geopandas

        parse: Callable[[BinaryIO], Any] = geopandas.read_parquet
    else:
        import pandas

        parse = pandas.read_parquet
    try:
        with opened("parquet", path) as handle:
            return parse(handle)
    except Unreadable as exc:
        raise failure("parquet", path, exc, fix) from exc


def text(data: bytes) -> str:
    """UTF-8 text (a CSV table)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"is not UTF-8 text (byte {exc.start})") from exc


def json_document(data: bytes) -> Any:
    """JSON within jsonfile's limits and at most MAX_KEYS keys and items."""
    return _counted(jsonfile.loads(data))


def toml_document(data: bytes) -> dict[str, Any]:
    """TOML whose nesting and dotted keys are checked before it is parsed, then within the JSON limits."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"is not UTF-8 text (byte {exc.start})") from exc
    _scan_toml(text)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Unreadable(f"is not valid TOML ({exc})") from exc
    except RecursionError as exc:  # not reached past _scan_toml; kept as the last guard
        raise Unreadable(f"nests arrays or tables deeper than {jsonfile.MAX_DEPTH} levels") from exc
    if jsonfile.walk(document)[0] > jsonfile.MAX_DEPTH:
        raise Unreadable(f"nests arrays or tables deeper than {jsonfile.MAX_DEPTH} levels")
    return _counted(document)


# TOML's strings and comments (skipped whole) and the characters that nest or separate keys
_TOML_TOKENS = re.compile(
    r'"""(?:\\[\s\S]|[^\\])*?"""(?!")|\'\'\'[\s\S]*?\'\'\'(?!\')|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}.=,\n]'
)


def _scan_toml(text: str) -> None:
    """Refuse TOML nested deeper than MAX_DEPTH, with a key of more than MAX_DEPTH dotted parts or more than
    MAX_KEYS keys, before tomllib parses it (it recurses per bracket and is quadratic in a key's parts)."""
    depth = dots = keys = 0
    for match in _TOML_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > jsonfile.MAX_DEPTH:
                raise Unreadable(f"nests arrays or tables deeper than {jsonfile.MAX_DEPTH} levels")
        elif token in "]}":
            depth -= 1
        elif token == ".":
            dots += 1
            if dots >= jsonfile.MAX_DEPTH:
                raise Unreadable(f"has a key of more than {jsonfile.MAX_DEPTH} dotted parts")
            continue
        elif token == "=":
            keys += 1
            if keys > MAX_KEYS:
                raise Unreadable(f"has more than {MAX_KEYS:,} keys")
        dots = 0 if token[0] not in "\"'" else dots


def _counted(document: Any) -> Any:
    """`document` when it holds at most MAX_KEYS keys and items (counted without recursion)."""
    count, stack = 0, [document]
    while stack:
        item = stack.pop()
        children = list(item.values()) if isinstance(item, dict) else item if isinstance(item, list) else ()
        count += len(children)
        if count > MAX_KEYS:
            raise Unreadable(f"has more than {MAX_KEYS:,} keys and items")
        stack.extend(children)
    return document


def _mapping_of(value_check: Callable[[Any], bool], what: str) -> Callable[[Any], str | None]:
    """A shape check: an object whose keys are strings and whose values pass `value_check`."""

    def shape(document: Any) -> str | None:
        if not isinstance(document, dict):
            return f"is not an object of {what} (it is {type(document).__name__})"
        bad = next((k for k, v in document.items() if not value_check(v)), None)
        return None if bad is None else f"holds {bad!r}, which is not {what}"

    return shape


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _stamp(document: Any) -> str | None:
    if not isinstance(document, dict):
        return f"is not a step stamp (it is {type(document).__name__})"
    outputs = document.get("outputs")
    if not isinstance(document.get("fingerprint"), str) or not isinstance(outputs, dict):
        return "lacks a fingerprint string or an outputs object"
    return _mapping_of(lambda h: isinstance(h, str), "an output's sha256")(outputs)


RESTORE = "fix it, or restore the committed one: `git checkout -- {path}`"
SOURCE = register(
    Kind(
        "source",
        "source definition",
        1 * MB,
        toml_document,
        fix=RESTORE,
    )
)
TOML = register(Kind("toml", "TOML file", 1 * MB, toml_document, fix=RESTORE))
CSV = register(Kind("csv", "table", 16 * MB, text, fix=RESTORE))
TEMPLATE = register(  # a custom deck's template as its version pins it (decks/pinned.py), read as text
    Kind("template", "deck template", 1 * MB, text, fix="restore it, or rerun `geodeck deck new RECIPE`")
)
REGION = register(
    Kind(
        "region",
        "region build file",
        1 * MB,
        json_document,
        lambda document: None if isinstance(document, dict) else "is not a JSON object",
        fix="rebuild it with `geodeck region build`",
    )
)
CUSTOM = register(
    Kind(
        "custom",
        "custom deck build file",
        1 * MB,
        json_document,
        lambda document: None if isinstance(document, dict) else "is not a JSON object",
        fix="write it again with `geodeck deck new RECIPE`",
    )
)
PRINT_TIMES = register(Kind("print-times", "measured print times", 1 * MB, json_document, fix=RESTORE))
RECIPE = register(Kind("recipe", "deck recipe", 1 * MB, toml_document, fix="fix the recipe (docs/recipes.md)"))
USER_TABLE = register(  # a user's CSV or XLSX table (bytes, parsed by pandas: pipeline/games/custom/table.py)
    Kind("user-table", "table", 16 * MB, bytes, fix="name a CSV or XLSX file of at most 16 MB (docs/recipes.md)")
)
PICTURE = register(  # a picture of a table's item (bytes, checked and scaled by pipeline/games/custom/pictures.py)
    Kind("picture", "picture", 4 * MB, bytes, fix="save it as a PNG or JPEG of at most 4 MB")
)
LATEST = register(  # a deck's pointer: exactly `VERSION\n` (decks/versions.py checks the version)
    Kind(
        "latest",
        "LATEST pointer",
        64,
        text,
        fix="write the newest version into it, or delete it and run `geodeck build`",
    )
)
ICC = register(Kind("icc", "ICC profile", 16 * MB, bytes, fix="name a CMYK output profile (.icc)"))
SVG = register(
    Kind("svg", "SVG file", 16 * MB, fix="delete it from the store; `geodeck fetch` gets it again")
)  # opened for svglib
PARQUET = register(
    Kind("parquet", "build table", 4_000 * MB, fix="rebuild it with `geodeck build --force`")
)  # opened for pyarrow
HTTP_CACHE = register(
    Kind(
        "http-cache",
        "download validator cache",
        16 * MB,
        json_document,
        _mapping_of(lambda v: isinstance(v, dict), "an object of validators"),
        cache=True,
        rebuilt="this refresh asks without validators",
    )
)
IMPORTS = register(
    Kind(
        "imports",
        "import list cache",
        64 * MB,
        json_document,
        _mapping_of(_strings, "a list of module names"),
        cache=True,
        rebuilt="each module's imports are read again",
    )
)
CHECKED = register(
    Kind(
        "checked-versions",
        "cache of checked deck versions",
        1 * MB,
        json_document,
        _mapping_of(lambda value: isinstance(value, str), "a files' signature"),
        cache=True,
        rebuilt="the newest versions are checked again",
    )
)
STAMP = register(Kind("stamp", "step stamp", 1 * MB, json_document, _stamp, cache=True, rebuilt="the step runs again"))
