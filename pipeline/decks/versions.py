"""Deck versions: calendar-style `YYYY.MM.N` folders under output/decks/<game>/, a LATEST pointer,
and publishing that never overwrites an existing version: the files go into a staging folder
`.VERSION.XXXX`, which is renamed into place, and LATEST is written last and read back. A run killed midway
leaves a staging folder (removed by the next build) or a version that LATEST does not name yet (the next
build compares against it and points LATEST at it: the newest version on disk is the reference, whatever
LATEST says)."""

import os
import re
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path

from pipeline import atomic, readers
from pipeline.errors import GeodeckError
from pipeline.jsonfile import Unreadable

VERSION = re.compile(r"^(\d{4})\.(\d{2})\.(\d+)$")
STAGING = re.compile(r"^\.\d{4}\.\d{2}\.\d+\..+$")  # `.2026.11.0.abc123`: a publish in progress or killed


def key(version: str) -> tuple[int, int, int]:
    match = VERSION.match(version)
    if not match:
        raise GeodeckError(f"{version!r} is not a deck version; versions look like 2026.11.0")
    year, month, number = (int(part) for part in match.groups())
    return year, month, number


def date_of(version: str | None) -> date | None:
    """The first day of a version's month (`2026.12.7` → 2026-12-01): a print's date that the deck fixes, not
    the clock; None for a draft without a version."""
    if version is None or not VERSION.match(version):
        return None
    year, month, _ = key(version)
    return date(year, month, 1)


def versions(game_dir: Path) -> list[str]:
    """The published versions, oldest first."""
    found = [p.name for p in game_dir.iterdir() if p.is_dir() and VERSION.match(p.name)] if game_dir.is_dir() else []
    return sorted(found, key=key)


def newest(game_dir: Path) -> str | None:
    """The newest version on disk (None before the first build): what LATEST should name."""
    found = versions(game_dir)
    return found[-1] if found else None


def latest(game_dir: Path) -> str | None:
    """The version named by LATEST (None before the first build)."""
    pointer = game_dir / "LATEST"
    if not pointer.exists() and not pointer.is_symlink():
        return None
    try:  # exactly `VERSION\n` (point_latest), nothing after it
        version: str | None = readers.read("latest", pointer).removesuffix("\n")
    except Unreadable:
        version = None
    if version is None or not VERSION.fullmatch(version) or not (game_dir / version).is_dir():
        raise GeodeckError(
            f"{pointer} is not a file naming a version folder there; "
            f"write one of {', '.join(versions(game_dir)) or 'no versions'} into it, or delete it and run "
            "`geodeck build`"
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


def staging(game_dir: Path) -> list[Path]:
    """Staging folders of publishes in progress or killed (`.VERSION.XXXX`)."""
    return sorted(p for p in game_dir.iterdir() if STAGING.match(p.name)) if game_dir.is_dir() else []


def recover(game_dir: Path, older_than_s: float = 30.0) -> list[Path]:
    """Before publishing: remove the staging folders and temporary files (a LATEST being written) an
    interrupted publish left, older than `older_than_s` so a publish in progress is never among them, and
    empty version folders; refuse a LATEST that is not a regular file. The staging folders removed."""
    pointer = game_dir / "LATEST"
    if pointer.is_symlink() or (pointer.exists() and not pointer.is_file()):
        raise GeodeckError(
            f"{pointer} is not a regular file (a folder or a link); remove it (`rm -r {pointer}`) and rerun "
            f"`geodeck build`, which writes it again"
        )
    for version in versions(game_dir):  # never a publish's (it renames a full folder into place): a mkdir
        if not any((game_dir / version).iterdir()):
            (game_dir / version).rmdir()
    cutoff = time.time() - older_than_s
    stale = [p for p in staging(game_dir) if p.lstat().st_mtime < cutoff]
    for path in stale:
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    atomic.remove_stale_temp_files(game_dir, older_than_s)
    return stale


def point_latest(game_dir: Path, version: str) -> None:
    """Write LATEST (atomically, synced) and read it back: it must name `version`."""
    pointer = game_dir / "LATEST"
    atomic.write_text(pointer, version + "\n")
    _sync(game_dir)
    if latest(game_dir) != version:
        raise GeodeckError(f"{pointer} does not read back as {version}; check the disk and rerun `geodeck build`")


def publish(game_dir: Path, version: str, files: dict[str, str]) -> Path:
    """Write `files` into a new version folder atomically, then point LATEST at it; never overwrite."""
    target = game_dir / version
    if target.exists():
        raise GeodeckError(f"{target} already exists; versions are never overwritten")
    game_dir.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(dir=game_dir, prefix=f".{version}."))
    try:
        folders = {staged}
        for name, text in sorted(files.items()):  # a name may hold a folder: `templates/decks/x.toml`
            path = staged / name
            for folder in reversed(path.relative_to(staged).parents[:-1]):
                (staged / folder).mkdir(exist_ok=True)
                folders.add(staged / folder)
            with open(path, "wb") as handle:
                handle.write(text.encode("utf-8"))
                os.fsync(handle.fileno())
        os.chmod(staged, 0o755)
        for folder in sorted(folders, reverse=True):
            _sync(folder)
        os.rename(staged, target)
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    point_latest(game_dir, version)
    return target


def _sync(folder: Path) -> None:
    """Flush a folder's entries (renames, new files) to disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
