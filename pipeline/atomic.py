"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

import io
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:  # importing this module must stay cheap (the CLI and the deck loader use it)
    import pandas as pd


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def writer(path: Path) -> Iterator[BinaryIO]:
    """A handle on a temporary file beside `path`, renamed over `path` (mode 0666 & ~umask) when the block
    ends, removed when it raises: streamed writes that are all or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path` (mode 0666 & ~umask)."""
    with writer(path) as handle:
        handle.write(data)


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
