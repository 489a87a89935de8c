"""Source definitions: one TOML file per source under `sources/`, in the spirit of OWID's .dvc files.

A file source pins every raw file by live URL, sha256 and size; a package source (a Python package that
carries data) is pinned by its version instead.
"""

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pipeline.errors import GeodeckError
from pipeline.paths import SOURCES_DIR

NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")


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


REFRESH_METHODS = ("github", "url")


@dataclass(frozen=True)
class Refresh:
    """How `geodeck fetch --refresh` finds the newest upstream version of a source ([refresh] in its TOML).

    github: the head commit of `branch` ("HEAD": the repository's default branch) of the repository in each
            pinned raw.githubusercontent.com URL; the new pin is the same file at that commit.
    url:    the file at `urls[path]`, an address that always serves the newest version (e.g. a Wikipedia
            page); the new pin records that address.
    content_types: the Content-Type values a file may be served with (default: anything but text/html,
            unless the file itself is HTML).
    """

    method: str
    branch: str = "HEAD"
    urls: dict[str, str] = field(default_factory=dict)
    content_types: tuple[str, ...] = ()

    def __post_init__(self):
        if self.method not in REFRESH_METHODS:
            raise GeodeckError(f"[refresh] method {self.method!r} is not one of {', '.join(REFRESH_METHODS)}")
        for path in self.urls:
            relative_path(path, "[refresh.urls]")


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

    def __post_init__(self):
        if self.license_class not in LICENSE_CLASSES:
            raise GeodeckError(
                f"sources/{self.name}.toml: license_class {self.license_class!r} is not one of "
                f"{', '.join(LICENSE_CLASSES)}"
            )

    @property
    def commercial(self) -> bool:
        """Whether the licence allows selling what is made from it (known, and not non-commercial)."""
        return self.license_class in COMMERCIAL

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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        meta = dict(data["source"])
        if not (isinstance(meta["name"], str) and NAME.match(meta["name"])):
            raise GeodeckError(f"{path}: source name {meta['name']!r} must be lower-case letters, digits, -_.")
        files = tuple(SourceFile(source=meta["name"], **entry) for entry in data.get("files", []))
        refresh = data.get("refresh")
        if refresh is not None:
            refresh = Refresh(**{**refresh, "content_types": tuple(refresh.get("content_types", ()))})
        return Source(**meta, files=files, refresh=refresh)
    except (KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise GeodeckError(f"{path}: not a valid source definition ({exc})") from exc


def load_sources(directory: Path = SOURCES_DIR) -> dict[str, Source]:
    sources = (load_source(p) for p in sorted(directory.glob("*.toml")))
    return {s.name: s for s in sources}


def select(names: tuple[str, ...] | list[str], directory: Path = SOURCES_DIR) -> list[Source]:
    """The named sources (all of them when none are named); an unknown name is a user error."""
    sources = load_sources(directory)
    unknown = [n for n in names if n not in sources]
    if unknown:
        raise GeodeckError(f"unknown source {', '.join(unknown)}; known sources: {', '.join(sources)}")
    return [sources[n] for n in names] if names else list(sources.values())
