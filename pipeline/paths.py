"""Where the project's folders are, with environment overrides for the snapshot store and mirror. An empty
variable (`GEODECK_STORE=`) counts as unset, never as the current folder.

In a checkout everything is beside the package (templates/, sources/, output/, build/). Installed as a tool
(a wheel, `pipx install .`), templates/, sources/ and the published decks come inside the package as
pipeline/_data/ (setup.py puts them there) and what geodeck writes goes to the user's data folder
(platformdirs; `$GEODECK_HOME` overrides it), whose decks/ the CLI fills from the package
(pipeline/cli/installed.py)."""

import os
from pathlib import Path

CODE = Path(__file__).resolve().parent.parent  # the folder holding the package: a checkout, or site-packages
PACKAGED = CODE / "pipeline" / "_data"  # templates/, sources/, output/decks/ of an installed wheel
INSTALLED = not (CODE / "templates").is_dir() and PACKAGED.is_dir()
ROOT = PACKAGED if INSTALLED else CODE  # templates/ and sources/ are read from here


def _folder(variable: str) -> Path | None:
    """The folder `$variable` names, or None when it is unset or empty (blank)."""
    value = os.environ.get(variable, "")
    return Path(value) if value.strip() else None


def _user_home() -> Path:
    """What an installed geodeck writes: `$GEODECK_HOME`, else the platform's user data folder."""
    import platformdirs

    return _folder("GEODECK_HOME") or platformdirs.user_data_path("geodeck")


SOURCES_DIR = ROOT / "sources"
TEMPLATES_DIR = ROOT / "templates"
OUTPUT_DIR = _user_home() / "output" if INSTALLED else ROOT / "output"
DECKS_DIR = OUTPUT_DIR / "decks"
PRINT_DIR = OUTPUT_DIR / "print"


def build_dir() -> Path:
    """Intermediate stage outputs (tables, reports); `$GEODECK_BUILD` or `build/` (in the user's data folder
    when installed)."""
    return _folder("GEODECK_BUILD") or (_user_home() if INSTALLED else ROOT) / "build"


def store_dir() -> Path:
    """The local snapshot store: `$GEODECK_STORE` or `~/.cache/geodeck`."""
    return _folder("GEODECK_STORE") or Path.home() / ".cache" / "geodeck"


# How to name a mirror folder, in every error that needs one: the option, the Makefile's variable, the env var.
MIRROR_HINT = "pass --mirror DIR (`make deck MIRROR=DIR`) or set $GEODECK_MIRROR to DIR, a folder of snapshots"


def default_mirror() -> Path | None:
    """The mirror folder from `$GEODECK_MIRROR`, if set."""
    return _folder("GEODECK_MIRROR")
