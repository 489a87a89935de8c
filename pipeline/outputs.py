"""Folders geodeck writes (the review page, play-check's report folder, saved records, print's folder): what
a user owns is never deleted or overwritten.

A folder geodeck writes carries its marker file (`MARKER`). Such a folder, an empty one, or (written by an
earlier geodeck) one holding exactly the kinds of files its command writes is geodeck's: `replacing` swaps
it whole for the new one; print, which adds PDFs to its folder one by one, only `check`s it (its own files:
PDFs). Anything else at the path is the user's: it is refused naming the path and `--force`; with `--force`
geodeck's files are moved into it one by one (only same-named files are overwritten, nothing else is
removed, and it is not marked). A file a user names (`--out mine.pdf`) is replaced only with `--force`
(`check_file`). A folder is written beside its target and swapped in at the end, so a
failure (a full disk, an error, Ctrl-C) leaves the old folder and nothing else."""

import fnmatch
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.atomic import OutputError, check_folder, check_new_target, umask
from pipeline.errors import GeodeckError

MARKER = ".geodeck-output"
NOTE = "This folder was written by geodeck; the next run replaces it whole (delete this file to keep it).\n"


class FolderError(OutputError):
    """A folder output refused or failed: the path, the reason and the fix, in one line."""

    def __init__(self, path: Path, reason: str, fix: str = "check the path, its permissions and the free space"):
        GeodeckError.__init__(self, f"cannot write {path}: {reason}; {fix}")
        self.path, self.strerror = path, reason


def foreign(path: Path, own: tuple[str, ...] = (), complete: bool = True) -> bool:
    """Whether the folder `path` may hold what geodeck did not write: it has files but no marker, and they are
    not exactly what an earlier geodeck wrote there (every file matching one of the patterns `own`, relative
    paths like `cards/*/*.png`, and, when `complete`, every pattern matching a file: a folder written whole).
    Stops at the first file of another kind."""
    if (path / MARKER).is_file():
        return False
    found: set[str] = set()
    for file in (p for p in path.rglob("*") if not p.is_dir()):
        name = file.relative_to(path).as_posix()
        matching = {pattern for pattern in own if fnmatch.fnmatch(name, pattern)}
        if not matching:
            return True
        found |= matching
    return bool(found) and complete and found != set(own)


def check(path: Path, option: str, force: bool, own: tuple[str, ...] = (), complete: bool = True) -> bool:
    """Before the work: whether `path` may be written as a folder; True when it is the user's and `--force`
    was given (geodeck then adds its files to it). A file, a mount point or, without `--force`, a folder
    that is not geodeck's is refused in one line naming the path. `complete=False`: a folder geodeck adds
    files to one by one (print's), any mix of the kinds `own` names."""
    if path.exists() and not path.is_dir():
        raise FolderError(path, "it is not a folder but a file", f"name a folder for {option}")
    check_folder(path)
    if not path.exists():
        return False
    if os.path.ismount(path):
        raise FolderError(path, "it is a mount point", f"name a folder inside it for {option}")
    if not foreign(path, own, complete):
        return False
    if not force:
        raise FolderError(
            path,
            "it holds files geodeck did not write",
            f"name a new folder for {option}, or pass --force to add to it",
        )
    return True


def check_file(path: Path, option: str, force: bool) -> None:
    """Before the work: a file `option` names (`--out mine.pdf`) may be written: an existing one is the user's
    and replaced only with `--force` (as `play --record`); a folder, a device or a FIFO never."""
    check_new_target(path)
    if path.exists() and not force:
        raise GeodeckError(f"{option} {path}: the file exists; pass --force to replace it, or name another file")


@contextmanager
def replacing(path: Path, option: str, force: bool = False, own: tuple[str, ...] = ()) -> Iterator[Path]:
    """A new folder beside `path` to write into, marked as geodeck's; when the block ends it takes the place
    of `path` (see the module's docstring), when it raises it is removed and `path` is untouched."""
    users = check(path, option, force, own)
    made = [folder for folder in Path(os.path.abspath(path)).parents if not folder.exists()]  # innermost first
    done = False
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.new."))
        except OSError as exc:
            raise FolderError(path, exc.strerror or str(exc)) from exc
        try:
            if not users:
                (staging / MARKER).write_text(NOTE, encoding="utf-8")
            yield staging
            staging.chmod(0o777 & ~umask())
            _merge(staging, path) if users else _swap(staging, path, option, own)
            done = True
        except OSError as exc:
            raise FolderError(path, exc.strerror or str(exc)) from exc
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        for folder in [] if done else made:  # a failure leaves no empty folder it made (--report-dir DIR/GAME/)
            try:
                folder.rmdir()
            except OSError:  # not empty (another run's), or gone
                break


def _swap(staging: Path, path: Path, option: str, own: tuple[str, ...]) -> None:
    """Put `staging` in place of `path`; the old folder is removed only once the new one is in place."""
    if not path.exists():
        staging.rename(path)
        return
    if foreign(path, own):  # it changed while we worked
        raise FolderError(path, "it now holds files geodeck did not write", f"name a new folder for {option}")
    retired = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.old."))
    try:
        path.rename(retired / path.name)
    except OSError:
        retired.rmdir()
        raise
    try:
        staging.rename(path)
    except OSError:
        (retired / path.name).rename(path)  # the old folder back in place
        retired.rmdir()
        raise
    shutil.rmtree(retired)


def _merge(staging: Path, path: Path) -> None:
    """Move every file of `staging` into the user's folder `path`, replacing only same-named files."""
    for source in sorted(staging.rglob("*")):
        if source.is_dir():
            continue
        target = path / source.relative_to(staging)
        if target.is_dir():
            raise FolderError(target, "it is a folder", "move it away or name a new folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)
