"""The project's one checksum: sha256 as lowercase hex, of bytes, text (UTF-8) or a file."""

import hashlib
from pathlib import Path
from typing import BinaryIO


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def file_sha256(path: Path) -> str:
    return sha256(path.read_bytes())


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
