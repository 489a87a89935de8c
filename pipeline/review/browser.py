"""Headless Chromium (Debian's `chromium` package) for the review page: its DOM after scripts ran, and a
screenshot (the browser test and `make previews`)."""

import shutil
import subprocess
from pathlib import Path

from pipeline.errors import GeodeckError

NAMES = ("chromium", "chromium-browser", "google-chrome")
TIMEOUT_S = 120


def executable() -> str | None:
    """The first Chromium on PATH, or None."""
    return next((found for name in NAMES if (found := shutil.which(name))), None)


def _run(page: Path, *flags: str) -> str:
    program = executable()
    if program is None:
        raise GeodeckError(f"no Chromium found (looked for {', '.join(NAMES)}); install it: apt-get install chromium")
    # --no-sandbox: Chromium refuses to start its sandbox as root (CI containers); the page is our own file.
    command = [program, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *flags, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise GeodeckError(f"{program} failed on {page} (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    return done.stdout


def dump_dom(page: Path) -> str:
    """The page's DOM once loaded and its scripts ran (frames of the same folder may be read by the page)."""
    return _run(page, "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom")


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 1400) -> None:
    """A PNG of the page's first `width` × `height` pixels."""
    _run(page.resolve(), f"--screenshot={png.resolve()}", f"--window-size={width},{height}")
    if not png.is_file():
        raise GeodeckError(f"Chromium wrote no screenshot of {page} to {png}")
