"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

import contextlib
import io
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from pipeline.errors import GeodeckError

if TYPE_CHECKING:  # importing this module must stay cheap (the CLI and the deck loader use it)
    import pandas as pd


class OutputError(GeodeckError):
    """A file that cannot be written (not a regular file, a folder that is a file, read-only, full); the
    message names the path, the reason (`strerror`) and the fix. The old file, if any, is untouched."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"cannot write {path}: {reason}; name a regular file in a writable folder with free space")
        self.path, self.strerror = path, reason


def check_target(path: Path) -> None:
    """Refuse a target that exists and is not a regular file (a folder, a device, a FIFO, a socket): an
    atomic write would replace it."""
    if not str(path).strip():
        raise OutputError(path, "the path is empty")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:  # a path under a file (ENOTDIR), a folder that cannot be searched
        raise OutputError(path, exc.strerror or str(exc)) from exc
    if stat.S_ISDIR(mode):
        raise OutputError(path, "it is a folder")
    if not stat.S_ISREG(mode):
        raise OutputError(path, "it exists and is not a regular file (a device, a FIFO or a socket)")


def check_new_target(path: Path) -> None:
    """`check_target`, and the nearest existing folder above `path` is a folder: called before long work,
    so a bad output path is refused before, not after, the work."""
    check_folder(Path(os.path.abspath(path)).parent)
    check_target(path)


def check_folder(folder: Path) -> None:
    """The nearest existing folder at or above `folder` is a folder (so `folder` can be made)."""
    existing = Path(os.path.abspath(folder))
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(folder, f"{existing} is not a folder")


def umask() -> int:
    """The process's umask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def writer(path: Path) -> Iterator[BinaryIO]:
    """A handle on a temporary file beside `path`, renamed over `path` (mode 0666 & ~umask) when the block
    ends, removed when it raises: streamed writes that are all or nothing. Only a regular file (or a new
    one) is ever replaced; a target that cannot be made, written (a full disk) or replaced is an
    `OutputError` naming it. What the block itself raises passes through unchanged (a download's error stays a
    download's error)."""
    check_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from exc
    handle = os.fdopen(fd, "wb")
    try:
        named = _Named(handle, path)
        yield cast(BinaryIO, named)
        named.flush()  # the buffered rest, before closing: a full disk is an OutputError naming `path`
        handle.close()
        try:
            os.chmod(tmp, 0o666 & ~umask())
            check_target(path)  # it may have become a folder or a device while we wrote
            os.replace(tmp, path)
        except OSError as exc:
            raise OutputError(path, exc.strerror or str(exc)) from exc
    except BaseException:
        with contextlib.suppress(OSError):  # flushing what is left fails again on a full disk; closed all the same
            handle.close()
        Path(tmp).unlink(missing_ok=True)
        raise


class _Named:
    """A `writer` handle whose own errors (a full disk, found by a write, a flush or a seek that flushes) are
    an `OutputError` naming the file being written, not only "No space left on device"."""

    def __init__(self, handle: BinaryIO, path: Path):
        self._handle, self._path = handle, path

    def __getattr__(self, name: str):
        attribute = getattr(self._handle, name)
        if not callable(attribute):
            return attribute

        def named(*args, **kwargs):
            try:
                return attribute(*args, **kwargs)
            except io.UnsupportedOperation:  # a question its caller asks (is it seekable?), not a failure
                raise
            except OSError as exc:
                raise OutputError(self._path, exc.strerror or str(exc)) from exc

        return named


def write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path` (mode 0666 & ~umask);
    any failure (read-only, full, a parent that is a file) is an `OutputError`, the old file kept."""
    try:
        with writer(path) as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from exc


def stale_temp_files(folder: Path, older_than_s: float = 30.0) -> list[Path]:
    """Temporary files `write_bytes` left under `folder` when a run was killed mid-write (`.NAME.XXXX.tmp`),
    older than `older_than_s` so a write in progress is never among them."""
    if not folder.is_dir():
        return []
    cutoff = time.time() - older_than_s
    return sorted(p for p in folder.rglob(".*.tmp") if p.is_file() and p.stat().st_mtime < cutoff)


def remove_stale_temp_files(folder: Path, older_than_s: float = 30.0) -> int:
    """Delete `stale_temp_files(folder)`; the number deleted."""
    stale = stale_temp_files(folder, older_than_s)
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_parquet(path: Path, frame: "pd.DataFrame") -> None:
    """A (Geo)DataFrame as Parquet without its index."""
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    write_bytes(path, buffer.getvalue())
