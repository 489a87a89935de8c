"""The one reader of published decks: `output/decks/<game>/<version or LATEST>/deck.json` (docs/deck-format.md).

Used by the decks stage (diffs), games (play-check) and render (print). Light on purpose: no pandas, no
reportlab. Every failure is a one-line GeodeckError naming the file and the fix.
"""

import json
from pathlib import Path

from pipeline import games, paths
from pipeline.decks import versions
from pipeline.errors import GeodeckError


def deck(game: str, version: str | None = None, decks_dir: Path | None = None) -> tuple[Path, dict]:
    """(path, deck) of GAME at VERSION, by default the version LATEST names."""
    games.get(game)
    game_dir = (decks_dir or paths.DECKS_DIR) / game
    version = version or versions.latest(game_dir)
    if version is None:
        raise GeodeckError(f"no deck for {game} yet ({game_dir / 'LATEST'} is missing); run `geodeck build` first")
    path = versions.version_dir(game_dir, version) / "deck.json"
    return path, read(path, game)


def read(path: Path, game: str | None = None) -> dict:
    """A deck.json file (of `game`, when given): game and cards with id and fields, else a user error."""
    if not path.is_file():
        raise GeodeckError(f"{path} does not exist; run `geodeck build` or name an existing version")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data["game"], str):
            raise ValueError("game is not a string")
        if not all(isinstance(c["id"], str) and isinstance(c["fields"], dict) for c in data["cards"]):
            raise ValueError("a card lacks id or fields")
    except (ValueError, KeyError, TypeError) as exc:
        raise GeodeckError(
            f"{path} is corrupted ({str(exc).splitlines()[0]}); restore it with "
            f"`git checkout -- {path}` or delete that version folder and rebuild"
        ) from exc
    if game is not None and data["game"] != game:
        raise GeodeckError(f"{path} is a {data['game']} deck, not {game}; name a {game} deck.json")
    return data
