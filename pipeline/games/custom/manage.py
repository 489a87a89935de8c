"""Your own decks: `geodeck deck list` (the published custom decks, each with its recipe) and `geodeck deck
remove NAME` (its published folder and its build folder; never a built-in or region deck)."""

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.errors import GeodeckError
from pipeline.games import custom


@dataclass(frozen=True)
class Listed:
    name: str  # custom-<name>
    version: str
    cards: int
    base: str  # the recipe's game
    lang: str
    recipe: str  # the recipe's file name
    table: str  # the user's table's file name, or "" for countries


def listed() -> list[Listed]:
    """Every published custom deck (output/decks/custom-*/ with LATEST), by name; a damaged one is left out."""
    found = []
    for folder in sorted(paths.DECKS_DIR.glob(f"{custom.PREFIX}*")) if paths.DECKS_DIR.is_dir() else []:
        try:
            version = (folder / "LATEST").read_text(encoding="utf-8").strip()
            deck = json.loads((folder / version / "deck.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        made = deck.get("recipe", {})
        sources = made.get("sources", {})
        found.append(
            Listed(
                folder.name,
                version,
                len(deck.get("cards", [])),
                str(made.get("base", "")),
                str(made.get("lang", "")),
                str(sources.get("recipe", "")),
                str(sources.get("table", "")),
            )
        )
    return found


def folders(name: str, build_root: Path | None = None) -> list[Path]:
    """The folders of the custom deck `name` (custom-<name> or <name>): published and built; a name that is no
    custom deck of this checkout (a built-in or region deck, or none) is a user error."""
    game = name if name.startswith(custom.PREFIX) else f"{custom.PREFIX}{name}"
    published = paths.DECKS_DIR / game
    if not (published / "LATEST").is_file() or not (published / custom.TEMPLATES).is_dir():
        mine = ", ".join(d.name for d in listed()) or "none yet"
        raise GeodeckError(
            f"{name} is no deck of yours (yours: {mine}); `geodeck deck remove` removes only decks made by "
            "`geodeck deck new`, never a built-in or region deck"
        )
    built = (build_root or paths.build_dir()) / "custom" / game.removeprefix(custom.PREFIX)
    return [folder for folder in (published, built) if folder.exists()]


def remove(found: list[Path]) -> None:
    """Remove the folders: each renamed aside first (a deck is never half there), then deleted."""
    for folder in found:
        aside = Path(tempfile.mkdtemp(prefix=".removed.", dir=folder.parent))
        folder.rename(aside / folder.name)
        shutil.rmtree(aside)
