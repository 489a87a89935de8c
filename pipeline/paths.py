"""Where the project's folders are, with environment overrides for the snapshot store and mirror. An empty
variable (`GEODECK_STORE=`) counts as unset, never as the current folder."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES_DIR = ROOT / "sources"
TEMPLATES_DIR = ROOT / "templates"
OUTPUT_DIR = ROOT / "output"
DECKS_DIR = OUTPUT_DIR / "decks"
PRINT_DIR = OUTPUT_DIR / "print"


def _folder(variable: str) -> Path | None:
    """The folder `$variable` names, or None when it is unset or empty (blank)."""
    value = os.environ.get(variable, "")
    return Path(value) if value.strip() else None


def build_dir() -> Path:
    """Intermediate stage outputs (tables, reports); `$GEODECK_BUILD` or `build/`."""
    return _folder("GEODECK_BUILD") or ROOT / "build"


def store_dir() -> Path:
    """The local snapshot store: `$GEODECK_STORE` or `~/.cache/geodeck`."""
    return _folder("GEODECK_STORE") or Path.home() / ".cache" / "geodeck"


# How to name a mirror folder, in every error that needs one: the option, the Makefile's variable, the env var.
MIRROR_HINT = "pass --mirror DIR (`make deck MIRROR=DIR`) or set $GEODECK_MIRROR to DIR, a folder of snapshots"


def default_mirror() -> Path | None:
    """The mirror folder from `$GEODECK_MIRROR`, if set."""
    return _folder("GEODECK_MIRROR")
