"""The one reader of published decks: `output/decks/<game>/<version or LATEST>/deck.json` (docs/deck-format.md).

Used by the decks stage (diffs, build), games (play-check) and render (print). Light on purpose: no pandas,
no reportlab. A published version is tamper-evident: its deck.json must hash to the `content_hash` of the
manifest.json beside it and carry its folder's version. Every failure is a one-line GeodeckError naming the
file and the fix.
"""

import json
import re
from pathlib import Path

from pipeline import games, paths
from pipeline.decks import versions
from pipeline.decks.canonical import content_hash
from pipeline.errors import GeodeckError

MANIFEST = "manifest.json"
LABEL = re.compile(r"[\w.+-]{1,40}")  # a draft's version label; published ones are checked against their folder


def deck(game: str, version: str | None = None, decks_dir: Path | None = None) -> tuple[Path, dict]:
    """(path, deck) of GAME at VERSION, by default the version LATEST names; verified against its manifest."""
    games.get(game)
    game_dir = (decks_dir or paths.DECKS_DIR) / game
    version = version or versions.latest(game_dir)
    if version is None:
        raise GeodeckError(f"no deck for {game} yet ({game_dir / 'LATEST'} is missing); run `geodeck build` first")
    path = versions.version_dir(game_dir, version) / "deck.json"
    return path, read(path, game, require_manifest=True)


def read(path: Path, game: str | None = None, require_manifest: bool = False) -> dict:
    """A deck.json file (of `game`, when given): game, cards with id and fields and a well-formed version,
    else a user error; when a manifest.json lies beside it (or `require_manifest`), the deck must match it
    (`verify`, once: hashing a deck is most of the time a read takes)."""
    if not path.is_file():
        raise GeodeckError(f"{path} does not exist; run `geodeck build` or name an existing version")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data["game"], str):
            raise ValueError("game is not a string")
        if not all(isinstance(c["id"], str) and isinstance(c["fields"], dict) for c in data["cards"]):
            raise ValueError("a card lacks id or fields")
        version = data.get("version")
        if version is not None and not (isinstance(version, str) and LABEL.fullmatch(version) and ".." not in version):
            raise ValueError(f"version {version!r} is not like 2026.11.0")
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise GeodeckError(
            f"{path} is corrupted ({str(exc).splitlines()[0]}); restore it with "
            f"`git checkout -- {path}` or delete that version folder and rebuild"
        ) from exc
    if game is not None and data["game"] != game:
        raise GeodeckError(f"{path} is a {data['game']} deck, not {game}; name a {game} deck.json")
    if require_manifest or (path.parent / MANIFEST).is_file():
        verify(path, data, require_manifest)
    return data


def verify(path: Path, data: dict, require_manifest: bool = False) -> None:
    """The deck at `path` equals what was published: its content hash is the manifest's and its version
    and game are the manifest's (and the version is its folder's name, inside a version folder)."""
    manifest_path = path.parent / MANIFEST
    fix = f"restore it with `git checkout -- {path.parent}` (or delete that version folder and rebuild)"
    if not manifest_path.is_file():
        if require_manifest:
            raise GeodeckError(f"{manifest_path} is missing, so {path} cannot be verified; {fix}")
        return
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        expected = manifest["content_hash"]
        published_as = (manifest["game"], manifest["version"])
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise GeodeckError(f"{manifest_path} is corrupted or unreadable ({exc}); {fix}") from exc
    if content_hash(data) != expected:
        raise GeodeckError(f"{path} was modified after publishing (its content hash is not the manifest's); {fix}")
    if (data["game"], data.get("version")) != published_as:
        raise GeodeckError(f"{path} names {data['game']} {data.get('version')}, its manifest {published_as}; {fix}")
    if versions.VERSION.match(path.parent.name) and data.get("version") != path.parent.name:
        raise GeodeckError(f"{path} says version {data.get('version')}, its folder {path.parent.name}; {fix}")


def verify_all(games: list[str], decks_dir: Path | None = None) -> list[tuple[str, str, str | None]]:
    """(game, version, problem or None) for every published version of each game, oldest first."""
    results: list[tuple[str, str, str | None]] = []
    for game in games:
        game_dir = (decks_dir or paths.DECKS_DIR) / game
        for version in versions.versions(game_dir):
            try:
                deck(game, version, decks_dir)
                results.append((game, version, None))
            except GeodeckError as exc:
                results.append((game, version, str(exc)))
    return results
