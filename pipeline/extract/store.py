"""The snapshot store: every pinned file kept by its content, `<store>/sha256/ab/<sha256>`, resolved from
the store, else a mirror folder, else its URL.

The pins in `sources/*.toml` are the path view: a file is found by the sha256 its pin names, so the files
of every pin ever fetched stay resolvable offline (after a refresh wrote new pins, `git checkout --
sources/` finds the old pins' files still there). A store filled by an older geodeck, by path
(`<store>/<source>/<path>`), still works: a file found there with the pinned sha256 is linked (or copied)
to its place.

Every read checks the sha256 and the pinned size; a file that fails is never stored, and the store is
written atomically (copies and downloads stream to a temporary file, hashed on the way), so a failed or
corrupted fetch never replaces a good snapshot. Every file path is resolved inside its folder (store or
mirror); unreadable files and an unwritable store are one-line errors naming the file.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from pipeline import atomic, hashing
from pipeline.errors import SnapshotError
from pipeline.extract.sources import SHA256, Source, SourceFile, inside
from pipeline.paths import MIRROR_HINT, default_mirror, store_dir

if TYPE_CHECKING:  # a download needs requests; reading the store (and a no-op build) does not
    from pipeline.extract import http

T = TypeVar("T")
BLOBS = "sha256"
WRITABLE_FIX = "make the folder writable or point $GEODECK_STORE at one that is"


def os_errors(action: Callable[[], T], doing: str, fix: str) -> T:
    """`action()`, with an OS error (permission, read-only, a folder) as a SnapshotError: "cannot <doing>:
    <reason>; <fix>"."""
    try:
        return action()
    except (OSError, atomic.OutputError) as exc:
        raise SnapshotError(f"cannot {doing}: {exc.strerror or exc}; {fix}") from exc


def read_file(path: Path, what: str) -> bytes:
    return os_errors(path.read_bytes, f"read {what} {path}", "check its permissions (chmod u+r)")


def is_file(path: Path, what: str) -> bool:
    return os_errors(path.is_file, f"look into {what} {path.parent}", "check its permissions (chmod u+rx)")


def file_digest(path: Path, what: str) -> tuple[str, int]:
    """(sha256, size) of the file at `path`, read in chunks."""

    def digest() -> tuple[str, int]:
        with path.open("rb") as handle:
            return hashing.copy(handle)

    return os_errors(digest, f"read {what} {path}", "check its permissions (chmod u+r)")


@dataclass
class SnapshotStore:
    root: Path
    mirror: Path | None = None
    online: bool = True
    _session: "http.Session | None" = field(default=None, repr=False)

    def blob(self, digest: str) -> Path:
        """Where the file with this sha256 (64 hex digits, checked by its pin) is kept."""
        return self.root / BLOBS / digest[:2] / digest

    def stored(self, digest: str) -> Path | None:
        """The kept file with this sha256, if there is one (not checked here)."""
        path = self.blob(digest)
        return path if SHA256.match(digest) and is_file(path, "the store folder") else None

    def read(self, entry: SourceFile) -> bytes:
        """The file's bytes, verified against its pinned sha256."""
        return read_file(self.resolve(entry), "store file")

    def read_source(self, source: Source, path: str) -> bytes:
        return self.read(source.file(path))

    def resolve(self, entry: SourceFile) -> Path:
        """The verified file in the local store, fetched from the mirror or the live URL if needed."""
        blob = self.blob(entry.sha256)
        kept = self._check(blob, entry)
        if kept == "ok":
            return blob
        if self._adopt_by_path(entry, blob) or self._from_mirror(entry, blob):
            return blob
        self._from_url(entry, blob, kept == "corrupt")
        return blob

    def add(self, entry: SourceFile, source: Path) -> None:
        """Keep the file at `source` (a refresh's download) as `entry`, checked against its pin."""
        self._copy(entry, source, "downloaded file", self.blob(entry.sha256))

    @property
    def session(self) -> "http.Session":
        if self._session is None:
            from pipeline.extract import http  # requests loads only when something is downloaded

            self._session = http.session()
        return self._session

    def _check(self, path: Path, entry: SourceFile) -> str:
        """The store file at `path`: "absent", "corrupt" (not the pinned sha256) or "ok"; the right content
        with another size than the pinned one is the pin's mistake, an error naming the fix."""
        if not is_file(path, "the store folder"):
            return "absent"
        digest, size = file_digest(path, "store file")
        if digest != entry.sha256:
            return "corrupt"
        _check_size(entry, size)
        return "ok"

    def _adopt_by_path(self, entry: SourceFile, blob: Path) -> bool:
        """A file an older geodeck kept by path (`<store>/<source>/<path>`) gets its sha256 place too: a hard
        link (no space, and the older version keeps working), else a copy."""
        legacy = inside(self.root, f"{entry.source}/{entry.path}", f"sources/{entry.source}.toml: file path")
        if self._check(legacy, entry) != "ok":
            return False
        try:
            blob.parent.mkdir(parents=True, exist_ok=True)
            os.link(legacy, blob)
        except OSError:  # a corrupt copy in the way, no hard links, a read-only store: an atomic copy instead
            self._copy(entry, legacy, "store file", blob)
        return True

    def _from_mirror(self, entry: SourceFile, blob: Path) -> bool:
        if self.mirror is None:
            return False
        if not self.mirror.is_dir():
            raise SnapshotError(
                f"mirror folder {self.mirror} does not exist or is not a folder; fix --mirror / $GEODECK_MIRROR"
            )
        candidate = inside(self.mirror, f"{entry.source}/{entry.path}", f"sources/{entry.source}.toml: file path")
        if not is_file(candidate, "the mirror folder"):
            return False
        self._copy(entry, candidate, "mirror file", blob)
        return True

    def _copy(self, entry: SourceFile, source: Path, what: str, blob: Path) -> None:
        """Copy `source` into the store at `blob`, hashed on the way; kept only when it matches the pin."""

        def copy(sink: BinaryIO) -> None:
            try:
                with source.open("rb") as handle:
                    digest, size = hashing.copy(handle, sink)
            except OSError as exc:
                raise SnapshotError(
                    f"cannot read {what} {source}: {exc.strerror or exc}; check its permissions (chmod u+r)"
                ) from exc
            _verify(entry, digest, size, str(source))

        self._write(blob, copy)

    def _from_url(self, entry: SourceFile, blob: Path, corrupt: bool) -> None:
        where = f"{entry.source}/{entry.path}"
        missing = f"the store's copy {blob} is corrupt (not the pinned sha256)" if corrupt else "is not in the store"
        if entry.url is None:
            raise SnapshotError(
                f"{where}: {missing}, not in the mirror, and the file has no live URL; {MIRROR_HINT} that holds it"
            )
        if not self.online:
            raise SnapshotError(
                f"{where}: {missing} and not in the mirror, and fetching is off; {MIRROR_HINT}, or drop --offline"
            )
        from pipeline.extract import http

        url = entry.url

        def fetch(sink: BinaryIO) -> None:
            got = http.download_to(self.session, sink, url, where, max_bytes=entry.bytes)
            _verify(entry, got.sha256, got.bytes, url)

        self._write(blob, fetch)

    def _write(self, blob: Path, fill: Callable[[BinaryIO], None]) -> None:
        """Write `blob` atomically with what `fill` streams into it (nothing when it raises)."""
        try:
            with atomic.writer(blob) as sink:
                fill(sink)
        except OSError as exc:
            raise SnapshotError(f"cannot write store file {blob}: {exc.strerror or exc}; {WRITABLE_FIX}") from exc


def _check_size(entry: SourceFile, size: int) -> None:
    if size != entry.bytes:
        raise SnapshotError(
            f"sources/{entry.source}.toml: {entry.path}: bytes = {entry.bytes} is wrong: the file with the pinned "
            f"sha256 has {size} bytes; set bytes = {size}"
        )


def _verify(entry: SourceFile, digest: str, size: int, where: str) -> None:
    if digest != entry.sha256:
        raise SnapshotError(
            f"{entry.source}/{entry.path} from {where}: sha256 mismatch, expected {entry.sha256}, "
            f"got {digest}; the file is corrupt or changed upstream, nothing was stored "
            f"(restore the file, or review the change and update sources/{entry.source}.toml)"
        )
    _check_size(entry, size)


def open_store(mirror: Path | None = None, online: bool = True, root: Path | None = None) -> SnapshotStore:
    """The store at `$GEODECK_STORE` (or ~/.cache/geodeck), with the given or default mirror."""
    return SnapshotStore(root=root or store_dir(), mirror=mirror or default_mirror(), online=online)
