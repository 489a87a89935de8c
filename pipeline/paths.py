"""Where the project's folders are, with environment overrides for the snapshot store and mirror."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES_DIR = ROOT / "sources"
TEMPLATES_DIR = ROOT / "templates"
OUTPUT_DIR = ROOT / "output"
DECKS_DIR = OUTPUT_DIR / "decks"
PRINT_DIR = OUTPUT_DIR / "print"


def build_dir() -> Path:
    """Intermediate stage outputs (tables, reports); `$GEODECK_BUILD` or `build/`."""
    return Path(os.environ.get("GEODECK_BUILD", ROOT / "build"))


def store_dir() -> Path:
    """The local snapshot store: `$GEODECK_STORE` or `~/.cache/geodeck`."""
    return Path(os.environ.get("GEODECK_STORE", Path.home() / ".cache" / "geodeck"))


# How to name a mirror folder, in every error that needs one: the option, the Makefile's variable, the env var.
MIRROR_HINT = "pass --mirror DIR (`make deck MIRROR=DIR`) or set $GEODECK_MIRROR to DIR, a folder of snapshots"


def default_mirror() -> Path | None:
    """The mirror folder from `$GEODECK_MIRROR`, if set."""
    value = os.environ.get("GEODECK_MIRROR")
    return Path(value) if value else None
