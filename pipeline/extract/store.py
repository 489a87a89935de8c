"""The snapshot store: resolve a pinned file from the local store, then a mirror folder, then its URL.

Every path checks the sha256; a file that fails is never stored, and the store is written atomically,
so a failed or corrupted fetch never replaces a good snapshot.
"""

import time
from dataclasses import dataclass
from pathlib import Path

from pipeline import __version__, atomic
from pipeline.errors import SnapshotError
from pipeline.extract.sources import Source, SourceFile
from pipeline.hashing import sha256
from pipeline.paths import default_mirror, store_dir

USER_AGENT = f"geodeck/{__version__} (print-and-play geography card games)"
TIMEOUT_S = (10, 60)
RETRIES = 3
BACKOFF_S = 1.5


@dataclass
class SnapshotStore:
    root: Path
    mirror: Path | None = None
    online: bool = True

    def local_path(self, entry: SourceFile) -> Path:
        return self.root / entry.source / entry.path

    def read(self, entry: SourceFile) -> bytes:
        """The file's bytes, verified against its pinned sha256."""
        return self.resolve(entry).read_bytes()

    def read_source(self, source: Source, path: str) -> bytes:
        return self.read(source.file(path))

    def resolve(self, entry: SourceFile) -> Path:
        """The verified file in the local store, fetched from the mirror or the live URL if needed."""
        local = self.local_path(entry)
        if local.is_file() and self._matches(local.read_bytes(), entry):
            return local
        data = self._from_mirror(entry)
        if data is None:
            data = self._from_url(entry)
        atomic.write_bytes(local, data)
        return local

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
        candidate = self.mirror / entry.source / entry.path
        if not candidate.is_file():
            return None
        try:
            data = candidate.read_bytes()
        except OSError as exc:
            raise SnapshotError(f"cannot read mirror file {candidate}: {exc.strerror}; check its permissions") from exc
        return self._verified(data, entry, str(candidate))

    def _from_url(self, entry: SourceFile) -> bytes:
        where = f"{entry.source}/{entry.path}"
        if entry.url is None:
            raise SnapshotError(
                f"{where} has no live URL and is not in the store or the mirror; "
                f"pass --mirror DIR (or set $GEODECK_MIRROR) to a folder that holds it"
            )
        if not self.online:
            raise SnapshotError(
                f"{where} is not in the store or the mirror and fetching is off; "
                f"pass --mirror DIR (or set $GEODECK_MIRROR)"
            )
        return self._verified(self._download(entry.url, where), entry, entry.url)

    def _download(self, url: str, where: str) -> bytes:
        import requests  # only a download needs it (importing it costs a no-op build 60 ms)

        error: Exception | None = None
        for attempt in range(RETRIES):
            try:
                response = requests.get(url, timeout=TIMEOUT_S, headers={"User-Agent": USER_AGENT})
                response.raise_for_status()
                return response.content
            except requests.RequestException as exc:
                error = exc
                if attempt + 1 < RETRIES:
                    time.sleep(BACKOFF_S * 2**attempt)
        raise SnapshotError(
            f"{where}: cannot download {url} ({type(error).__name__}); you may be offline: "
            f"pass --mirror DIR (or set $GEODECK_MIRROR) to a folder of snapshots"
        )


def open_store(mirror: Path | None = None, online: bool = True, root: Path | None = None) -> SnapshotStore:
    """The store at `$GEODECK_STORE` (or ~/.cache/geodeck), with the given or default mirror."""
    return SnapshotStore(root=root or store_dir(), mirror=mirror or default_mirror(), online=online)
