"""Source definitions: one TOML file per source under `sources/`, in the spirit of OWID's .dvc files.

A file source pins every raw file by live URL, sha256 and size; a package source (a Python package that
carries data) is pinned by its version instead.
"""

import functools
import os
import re
from collections import Counter
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import TypeVar, get_type_hints

from pipeline import jsonfile, readers
from pipeline.errors import GeodeckError
from pipeline.paths import SOURCES_DIR
from pipeline.text import check_all

NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
T = TypeVar("T")


def relative_path(value: object, what: str) -> str:
    """`value` when it is a relative POSIX path that stays inside its folder (no `..`, no absolute path,
    no backslash, no empty or `.` part), else a GeodeckError naming `what`."""
    parts = PurePosixPath(value).parts if isinstance(value, str) else ()
    if (
        not parts
        or value != "/".join(parts)
        or "\\" in value
        or any(p in ("..", ".") or p.startswith("/") for p in parts)
        or PurePosixPath(value).is_absolute()
    ):
        raise GeodeckError(f"{what}: {value!r} is not a relative path inside its folder; use e.g. 'data/file.csv'")
    return value


def inside(root: Path, relative: str, what: str) -> Path:
    """root / relative, for a `relative_path`, normalised and checked to stay inside root. Symbolic links
    the user put into the folder are followed as the file system does (a mirror may link its sources)."""
    target = Path(os.path.normpath(root / relative_path(relative, what)))
    if not target.is_relative_to(Path(os.path.normpath(root))):
        raise GeodeckError(f"{what}: {relative!r} leads outside {root}; use a path inside it")
    return target


def web_address(value: object, what: str) -> str:
    """`value` when it is an http(s) address, else a GeodeckError naming `what`."""
    if not (isinstance(value, str) and re.match(r"^https?://[^/\s]+", value)):
        raise GeodeckError(f"{what}: {value!r} is not an http(s) address; use e.g. 'https://example.org/file.csv'")
    return value


@dataclass(frozen=True)
class SourceFile:
    source: str
    path: str
    sha256: str
    bytes: int
    url: str | None = None
    layer: str | None = None  # the file's role, when code asks for it by role (e.g. "states")

    def __post_init__(self):
        relative_path(self.path, f"sources/{self.source}.toml: file path")
        if not (isinstance(self.sha256, str) and SHA256.match(self.sha256)):
            raise GeodeckError(f"sources/{self.source}.toml: {self.path}: sha256 is not 64 lower-case hex digits")
        if not isinstance(self.bytes, int) or isinstance(self.bytes, bool) or self.bytes < 0:
            raise GeodeckError(f"sources/{self.source}.toml: {self.path}: bytes is not a whole number ≥ 0")
        if self.url is not None:
            web_address(self.url, f"sources/{self.source}.toml: {self.path}: url")


REFRESH_METHODS = ("github", "url")
KINDS = ("files", "package")


@dataclass(frozen=True)
class Refresh:
    """How `geodeck fetch --refresh` finds the newest upstream version of a source ([refresh] in its TOML).

    github: the head commit of `branch` ("HEAD": the repository's default branch) of the repository in each
            pinned raw.githubusercontent.com URL; the new pin is the same file at that commit.
    url:    the file at `urls[path]`, an address that always serves the newest version (e.g. a Wikipedia
            page); the new pin records that address.
    content_types: the Content-Type values a file may be served with (default: anything but text/html,
            unless the file itself is HTML).
    hosts: other hosts its downloads may be redirected to (by default only each URL's own host).
    """

    method: str
    branch: str = "HEAD"
    urls: dict[str, str] = field(default_factory=dict)
    content_types: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()

    def __post_init__(self):
        if self.method not in REFRESH_METHODS:
            raise GeodeckError(f"[refresh] method {self.method!r} is not one of {', '.join(REFRESH_METHODS)}")
        for path, url in self.urls.items():
            relative_path(path, "[refresh.urls]")
            web_address(url, f"[refresh.urls] {path}")


LICENSE_CLASSES = ("public-domain", "attribution", "share-alike", "non-commercial", "unknown")
COMMERCIAL = LICENSE_CLASSES[:3]


@dataclass(frozen=True)
class Source:
    name: str
    producer: str
    license: str
    citation: str
    vintage: str
    date_accessed: str
    kind: str = "files"
    package: str | None = None
    version: str | None = None
    repository: str | None = None
    note: str | None = None
    files: tuple[SourceFile, ...] = field(default_factory=tuple)
    refresh: Refresh | None = None
    title: str = ""  # the work, as the kit's attribution page names it
    year: str = ""
    license_name: str = ""  # the licence's short name (CC BY 4.0, MIT ...); empty where the class says it all
    license_class: str = "unknown"  # one of LICENSE_CLASSES

    @property
    def commercial(self) -> bool:
        """Whether the licence allows selling what is made from it (known, and not non-commercial)."""
        return self.license_class in COMMERCIAL

    def __post_init__(self):
        if self.license_class not in LICENSE_CLASSES:
            raise GeodeckError(
                f"sources/{self.name}.toml: license_class {self.license_class!r} is not one of "
                f"{', '.join(LICENSE_CLASSES)}"
            )
        if self.kind not in KINDS:
            raise GeodeckError(f"sources/{self.name}.toml: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "package" and not self.version:
            raise GeodeckError(f'sources/{self.name}.toml: a package source needs version = "X.Y.Z" (its pin)')

    def file(self, path: str) -> SourceFile:
        for entry in self.files:
            if entry.path == path:
                return entry
        raise GeodeckError(f"source {self.name!r} has no file {path!r}; see sources/{self.name}.toml")

    def layer(self, name: str) -> SourceFile:
        """The file declared with `layer = NAME`."""
        for entry in self.files:
            if entry.layer == name:
                return entry
        raise GeodeckError(f'source {self.name!r} declares no file with layer = "{name}"; see sources/{self.name}.toml')

    def installed_version(self) -> str:
        """For a package source: the installed version, which must equal the pinned one."""
        from importlib import metadata  # slow to import; only package sources need it

        installed = metadata.version(self.package or self.name)
        if installed != self.version:
            raise GeodeckError(
                f"source {self.name!r} is pinned to {self.package}=={self.version} but {installed} is "
                f"installed; run `make install` (or update sources/{self.name}.toml)"
            )
        return installed


def load_source(path: Path) -> Source:
    """The source defined in `path` (`sources/<name>.toml`); any problem with the file is one GeodeckError
    naming it, the field and the fix."""
    try:
        text = jsonfile.read_bytes(path, readers.SOURCE.max_bytes)
    except jsonfile.Unreadable as exc:
        raise readers.failure("source", path, exc) from exc
    return _source(path, text)


@functools.lru_cache(maxsize=64)
def _source(path: Path, text: bytes) -> Source:
    """The source of a definition's bytes, parsed once per process (a command reads the definitions more than
    once; Source is frozen) within the TOML limits (pipeline.readers)."""
    try:
        data = readers.toml_document(text)
    except jsonfile.Unreadable as exc:
        raise readers.failure("source", path, exc) from exc
    check_all(data, str(path))
    meta = _table(Source, data.get("source"), f"{path}: [source]", ("files", "refresh"))
    name = meta["name"]
    if not NAME.match(name):
        raise GeodeckError(f"{path}: source name {name!r} must be lower-case letters, digits, -_.")
    if name != path.stem:
        raise GeodeckError(f'{path}: source name {name!r} is not the file\'s name; set name = "{path.stem}"')
    entries = data.get("files", [])
    if not isinstance(entries, list):
        raise GeodeckError(f"{path}: files must be [[files]] tables, got {_kind(entries)}")
    files = tuple(
        _built(path, SourceFile, source=name, **_table(SourceFile, entry, f"{path}: [[files]] {i}", ("source",)))
        for i, entry in enumerate(entries, 1)
    )
    twice = sorted(path for path, count in Counter(f.path for f in files).items() if count > 1)
    if twice:
        raise GeodeckError(f"{path}: file {', '.join(twice)} is pinned twice; keep one [[files]] table per path")
    refresh = data.get("refresh")
    if refresh is not None:
        refresh = _built(path, Refresh, **_table(Refresh, refresh, f"{path}: [refresh]"))
    unknown = sorted(data.keys() - {"source", "files", "refresh"})
    if unknown:
        raise GeodeckError(f"{path}: unknown table {', '.join(unknown)}; expected [source], [[files]], [refresh]")
    return _built(path, Source, **meta, files=files, refresh=refresh)


def _built(definition: Path, cls: type[T], /, **values) -> T:
    """cls(**values), the errors of its own checks naming the file `definition`."""
    try:
        return cls(**values)
    except GeodeckError as exc:
        message = str(exc).removeprefix(f"sources/{definition.stem}.toml: ")
        raise GeodeckError(f"{definition}: {message}") from exc


def _kind(value: object) -> str:
    return {str: "a string", int: "an integer", bool: "a boolean", dict: "a table", list: "an array"}.get(
        type(value), f"a {type(value).__name__}"
    )


def _table(cls: type, table: object, where: str, computed: tuple[str, ...] = ()) -> dict:
    """`table` as the keyword arguments of dataclass `cls`: a table with every required field, no unknown
    key, and each value of its field's type (str, int, a table of strings, an array of strings)."""
    if not isinstance(table, dict):
        raise GeodeckError(f"{where}: expected a table, got {_kind(table)}")
    declared = {f.name: f for f in fields(cls) if f.name not in computed}
    unknown = sorted(table.keys() - declared.keys())
    if unknown:
        raise GeodeckError(f"{where}: unknown key {', '.join(unknown)}; expected {', '.join(declared)}")
    missing = [n for n, f in declared.items() if n not in table and f.default is f.default_factory is MISSING]
    if missing:
        raise GeodeckError(f"{where}: {', '.join(missing)} missing")
    hints = _hints(cls)
    for key, value in table.items():
        expected = _TYPES[hints[key]]
        if not expected(value):
            raise GeodeckError(f"{where}: {key} is {_kind(value)} ({value!r:.40}); expected {expected.__doc__}")
    return {k: tuple(v) if isinstance(v, list) else v for k, v in table.items()}


@functools.cache
def _hints(cls: type) -> dict:
    return get_type_hints(cls)


def _string(value: object) -> bool:
    """a string"""
    return isinstance(value, str)


def _integer(value: object) -> bool:
    """a whole number"""
    return type(value) is int


def _strings(value: object) -> bool:
    """an array of strings"""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _string_table(value: object) -> bool:
    """a table of strings"""
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


_TYPES = {
    str: _string,
    str | None: _string,
    int: _integer,
    tuple[str, ...]: _strings,
    dict[str, str]: _string_table,
}


def load_sources(directory: Path = SOURCES_DIR) -> dict[str, Source]:
    """Every source defined in `directory`, by name (each file's stem)."""
    sources = (load_source(p) for p in sorted(directory.glob("*.toml")))
    return {s.name: s for s in sources}


def select(names: tuple[str, ...] | list[str], directory: Path = SOURCES_DIR) -> list[Source]:
    """The named sources (all of them when none are named); an unknown name is a user error."""
    sources = load_sources(directory)
    unknown = [n for n in names if n not in sources]
    if unknown:
        raise GeodeckError(f"unknown source {', '.join(unknown)}; known sources: {', '.join(sources)}")
    return [sources[n] for n in names] if names else list(sources.values())
