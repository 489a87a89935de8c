"""Deck versions: calendar-style `YYYY.MM.N` folders under output/decks/<game>/, a LATEST pointer,
and publishing that never overwrites an existing version (write a temp folder, then rename it)."""

import os
import re
import shutil
import tempfile
from datetime import date
from pathlib import Path

from pipeline import atomic
from pipeline.errors import GeodeckError

VERSION = re.compile(r"^(\d{4})\.(\d{2})\.(\d+)$")


def key(version: str) -> tuple[int, int, int]:
    match = VERSION.match(version)
    if not match:
        raise GeodeckError(f"{version!r} is not a deck version; versions look like 2026.11.0")
    year, month, number = (int(part) for part in match.groups())
    return year, month, number


def versions(game_dir: Path) -> list[str]:
    """The published versions, oldest first."""
    found = [p.name for p in game_dir.iterdir() if p.is_dir() and VERSION.match(p.name)] if game_dir.is_dir() else []
    return sorted(found, key=key)


def latest(game_dir: Path) -> str | None:
    """The version named by LATEST (None before the first build)."""
    pointer = game_dir / "LATEST"
    if not pointer.is_file():
        return None
    version = pointer.read_text(encoding="utf-8").strip()
    if not VERSION.match(version) or not (game_dir / version).is_dir():
        raise GeodeckError(
            f"{pointer} names {version!r}, which is not a version folder there; "
            f"write one of {versions(game_dir) or 'no versions'} into it or delete it"
        )
    return version


def version_dir(game_dir: Path, version: str) -> Path:
    """An existing version's folder; an unknown or malformed version is a user error listing the known ones."""
    known = ", ".join(versions(game_dir)) or "none (run `geodeck build`)"
    if not VERSION.match(version):
        raise GeodeckError(
            f"{version!r} is not a deck version (versions look like 2026.11.0); known versions of "
            f"{game_dir.name}: {known}"
        )
    folder = game_dir / version
    if not folder.is_dir():
        raise GeodeckError(f"{folder} does not exist; known versions of {game_dir.name}: {known}")
    return folder


def next_version(game_dir: Path, today: date) -> str:
    """`YYYY.MM.0` for the first version of a month, else one more than the month's highest patch."""
    patches = [key(v)[2] for v in versions(game_dir) if key(v)[:2] == (today.year, today.month)]
    return f"{today.year:04d}.{today.month:02d}.{max(patches) + 1 if patches else 0}"


def publish(game_dir: Path, version: str, files: dict[str, str]) -> Path:
    """Write `files` into a new version folder atomically and point LATEST at it; never overwrite."""
    target = game_dir / version
    if target.exists():
        raise GeodeckError(f"{target} already exists; versions are never overwritten")
    game_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=game_dir, prefix=f".{version}."))
    try:
        for name, text in sorted(files.items()):
            (staging / name).write_bytes(text.encode("utf-8"))
        os.chmod(staging, 0o755)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    atomic.write_text(game_dir / "LATEST", version + "\n")
    return target
