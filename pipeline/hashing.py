"""The project's one checksum: sha256 as lowercase hex, of bytes, text (UTF-8) or a file."""

import hashlib
from pathlib import Path


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def file_sha256(path: Path) -> str:
    return sha256(path.read_bytes())
