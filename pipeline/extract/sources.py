"""Source definitions: one TOML file per source under `sources/`, in the spirit of OWID's .dvc files.

A file source pins every raw file by live URL, sha256 and size; a package source (a Python package that
carries data) is pinned by its version instead.
"""

import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from pipeline.errors import GeodeckError
from pipeline.paths import SOURCES_DIR


@dataclass(frozen=True)
class SourceFile:
    source: str
    path: str
    sha256: str
    bytes: int
    url: str | None = None
    layer: str | None = None  # the file's role, when code asks for it by role (e.g. "states")


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
        files = tuple(SourceFile(source=meta["name"], **entry) for entry in data.get("files", []))
        return Source(**meta, files=files)
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
