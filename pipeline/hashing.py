"""The project's one checksum: sha256 as lowercase hex, of bytes, text (UTF-8) or a file."""

import errno
import hashlib
from pathlib import Path
from typing import BinaryIO

from pipeline import jsonfile
from pipeline.errors import GeodeckError

ANY_SIZE = 1 << 62  # hashing reads in chunks: no cap


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def file_sha256(path: Path) -> str:
    """The sha256 of a regular file (pipeline.jsonfile.open_regular: a pipe is refused, never waited on);
    FileNotFoundError when it is missing, a GeodeckError naming it when it is not a readable regular file."""
    try:
        with jsonfile.open_regular(path, ANY_SIZE) as handle:
            return copy(handle)[0]
    except jsonfile.Missing as exc:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(path)) from exc
    except jsonfile.Unreadable as exc:
        raise GeodeckError(f"{path} {exc}; remove it or put the regular file back") from exc


def copy(source: BinaryIO, sink: BinaryIO | None = None, chunk: int = 1 << 20) -> tuple[str, int]:
    """(sha256, size) of what `source` holds, read in chunks (and written to `sink`): a large file never
    sits in memory whole."""
    digest, size = hashlib.sha256(), 0
    while data := source.read(chunk):
        digest.update(data)
        size += len(data)
        if sink is not None:
            sink.write(data)
    return digest.hexdigest(), size
