"""One writer at a time per folder: `geodeck fetch`, `build` and `print` take an exclusive lock on the
store (and `build` on build/) so two runs in one checkout queue instead of racing; a waiting run says so."""

import fcntl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline import atomic
from pipeline.errors import GeodeckError

LOCK_FILE = ".geodeck.lock"


@contextmanager
def exclusive(folder: Path, on_wait: Callable[[str], None] = lambda _: None) -> Iterator[None]:
    """Hold `folder/.geodeck.lock` (blocking while another run holds it), then remove the temporary files
    an interrupted run left in `folder`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = (folder / LOCK_FILE).open("a")
    except OSError as exc:
        raise GeodeckError(
            f"cannot lock {folder / LOCK_FILE}: {exc.strerror or exc}; make {folder} writable "
            f"(or point $GEODECK_STORE / $GEODECK_BUILD elsewhere)"
        ) from exc
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait(f"waiting for another geodeck run that holds {folder / LOCK_FILE} …")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            atomic.remove_stale_temp_files(folder)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
