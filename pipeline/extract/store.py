"""The snapshot store: resolve a pinned file from the local store, then a mirror folder, then its URL.

Every path checks the sha256; a file that fails is never stored, and the store is written atomically,
so a failed or corrupted fetch never replaces a good snapshot. Every file path is resolved inside its
folder (store or mirror); unreadable files and an unwritable store are one-line errors naming the file.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pipeline import atomic
from pipeline.errors import SnapshotError
from pipeline.extract.sources import Source, SourceFile, inside
from pipeline.hashing import sha256
from pipeline.paths import MIRROR_HINT, default_mirror, store_dir

if TYPE_CHECKING:  # a download needs requests; reading the store (and a no-op build) does not
    import requests

T = TypeVar("T")


def os_errors(action: Callable[[], T], doing: str, fix: str) -> T:
    """`action()`, with an OS error (permission, read-only, a folder) as a SnapshotError: "cannot <doing>:
    <reason>; <fix>"."""
    try:
        return action()
    except (OSError, atomic.OutputError) as exc:
        raise SnapshotError(f"cannot {doing}: {exc.strerror or exc}; {fix}") from exc


def read_file(path: Path, what: str) -> bytes:
    return os_errors(path.read_bytes, f"read {what} {path}", "check its permissions (chmod u+r)")


def write_file(path: Path, data: bytes, what: str) -> None:
    """Write `path` atomically."""
    os_errors(
        lambda: atomic.write_bytes(path, data),
        f"write {what} {path}",
        "make the folder writable or point $GEODECK_STORE at one that is",
    )


def is_file(path: Path, what: str) -> bool:
    return os_errors(path.is_file, f"look into {what} {path.parent}", "check its permissions (chmod u+rx)")


@dataclass
class SnapshotStore:
    root: Path
    mirror: Path | None = None
    online: bool = True
    _session: "requests.Session | None" = field(default=None, repr=False)

    def local_path(self, entry: SourceFile) -> Path:
        return inside(self.root, f"{entry.source}/{entry.path}", f"sources/{entry.source}.toml: file path")

    def read(self, entry: SourceFile) -> bytes:
        """The file's bytes, verified against its pinned sha256."""
        return read_file(self.resolve(entry), "store file")

    def read_source(self, source: Source, path: str) -> bytes:
        return self.read(source.file(path))

    def resolve(self, entry: SourceFile) -> Path:
        """The verified file in the local store, fetched from the mirror or the live URL if needed."""
        local = self.local_path(entry)
        if is_file(local, "the store folder") and self._matches(read_file(local, "store file"), entry):
            return local
        data = self._from_mirror(entry)
        if data is None:
            data = self._from_url(entry)
        write_file(local, data, "store file")
        return local

    @property
    def session(self) -> "requests.Session":
        if self._session is None:
            from pipeline.extract import http  # requests-cache loads only when something is downloaded

            self._session = http.session()  # pinned files are cached by the store itself
        return self._session

    def _matches(self, data: bytes, entry: SourceFile) -> bool:
        return len(data) == entry.bytes and sha256(data) == entry.sha256

    def _verified(self, data: bytes, entry: SourceFile, where: str) -> bytes:
        actual = sha256(data)
        if actual != entry.sha256:
            raise SnapshotError(
                f"{entry.source}/{entry.path} from {where}: sha256 mismatch, expected {entry.sha256}, "
                f"got {actual}; the file is corrupt or changed upstream, nothing was stored "
                f"(restore the file, or review the change and update sources/{entry.source}.toml)"
            )
        return data

    def _from_mirror(self, entry: SourceFile) -> bytes | None:
        if self.mirror is None:
            return None
        if not self.mirror.is_dir():
            raise SnapshotError(
                f"mirror folder {self.mirror} does not exist or is not a folder; fix --mirror / $GEODECK_MIRROR"
            )
        candidate = inside(self.mirror, f"{entry.source}/{entry.path}", f"sources/{entry.source}.toml: file path")
        if not is_file(candidate, "the mirror folder"):
            return None
        return self._verified(read_file(candidate, "mirror file"), entry, str(candidate))

    def _from_url(self, entry: SourceFile) -> bytes:
        where = f"{entry.source}/{entry.path}"
        if entry.url is None:
            raise SnapshotError(
                f"{where} has no live URL and is not in the store or the mirror; {MIRROR_HINT} that holds it"
            )
        if not self.online:
            raise SnapshotError(f"{where} is not in the store or the mirror and fetching is off; {MIRROR_HINT}")
        from pipeline.extract import http

        return self._verified(http.download(self.session, entry.url, where), entry, entry.url)


def open_store(mirror: Path | None = None, online: bool = True, root: Path | None = None) -> SnapshotStore:
    """The store at `$GEODECK_STORE` (or ~/.cache/geodeck), with the given or default mirror."""
    return SnapshotStore(root=root or store_dir(), mirror=mirror or default_mirror(), online=online)
