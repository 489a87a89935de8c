"""`geodeck verify`: each published version is what was published, file by file, and each game's folder is
consistent. Per version: deck.json passes the reader (manifest content hash, game, version, the deck
checks); manifest.json counts its cards; deck.csv is exactly the CSV of deck.json's cards (regenerated with
the columns its header names); datapackage.json names the game and version and the byte counts and sha256
of deck.csv and deck.json; CHANGELOG.md is headed by the deck's title and version; the templates a version
pins are there, as the manifest hashes them (pipeline.decks.pinned). Per game: LATEST names the newest
version; no staging folder or temporary file of an interrupted publish is left. Every problem is one line
with the fix."""

import csv
import io
import json
from pathlib import Path

from pipeline import atomic, jsonfile, paths, readers
from pipeline.decks import files, pinned, published, versions
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.hashing import sha256

FILES = ("deck.json", "deck.csv", "datapackage.json", "manifest.json", "CHANGELOG.md")


def verify_all(games: list[GameDefinition], decks_dir: Path | None = None) -> list[tuple[str, str, list[str]]]:
    """(game, version or "LATEST", problems) for every published version of each game, oldest first, then
    the game's folder itself; no problems means ok."""
    results: list[tuple[str, str, list[str]]] = []
    for game in games:
        game_dir = (decks_dir or paths.DECKS_DIR) / game.name
        for version in versions.versions(game_dir):
            results.append((game.name, version, version_problems(game, version, decks_dir)))
        if game_dir.exists():
            results.append((game.name, "LATEST", folder_problems(game_dir)))
    return results


def folder_problems(game_dir: Path) -> list[str]:
    """LATEST names the newest version; no staging folders."""
    found = []
    newest = versions.newest(game_dir)
    pointer = game_dir / "LATEST"
    try:
        named = versions.latest(game_dir)
    except GeodeckError as exc:
        named, found = None, [str(exc)]
    if not found and named != newest:
        state = f"names {named}" if named else "is missing"
        found.append(f"{pointer} {state}, but the newest version is {newest}; `geodeck build` points it there")
    for path in versions.staging(game_dir):
        found.append(
            f"{path} is the staging folder of an interrupted publish; `geodeck build` removes it (or `rm -r` it)"
        )
    for path in atomic.stale_temp_files(game_dir):
        found.append(f"{path} is a temporary file of an interrupted write; `geodeck build` removes it (or `rm` it)")
    return found


def needs_build(game: GameDefinition, decks_dir: Path | None = None) -> bool:
    """Whether `geodeck build` must run GAME's deck step even though its inputs are unchanged: its folder
    has a problem `folder_problems` names (a staging folder, a LATEST not naming the newest version) or
    the newest version has one (`version_problems`: an empty folder, a corrupt deck.json, manifest or
    deck.csv): the step repairs what it can (stage.build_deck) and names the fix of the rest, so `build`
    never exits 0 while `verify` refuses the newest version. A version found sound is remembered by its
    files' signature (`_signature`), so a no-op build checks it again only when one of its files changed."""
    game_dir = (decks_dir or paths.DECKS_DIR) / game.name
    if not game_dir.is_dir():
        return False
    if folder_problems(game_dir):
        return True
    newest = versions.newest(game_dir)
    if not newest:
        return False
    folder = versions.version_dir(game_dir, newest)
    signature, checked = _signature(folder), _checked()
    if signature and checked.get(str(folder)) == signature:
        return False
    if version_problems(game, newest, decks_dir):
        return True
    if signature:
        atomic.write_text(_checked_path(), json.dumps({**checked, str(folder): signature}, indent=0, sort_keys=True))
    return False


def _checked_path() -> Path:
    return paths.build_dir() / "steps" / "checked-versions.json"


def _checked() -> dict[str, str]:
    """The versions found sound by an earlier build: folder -> its files' signature."""
    return readers.read_cache("checked-versions", _checked_path()) or {}


def _signature(folder: Path) -> str:
    """A version's files as the disk describes them (name, size, inode, modification and change times: writing
    or touching any of them changes it, and the change time cannot be set back); empty when one is missing."""
    parts = []
    for name in FILES:
        try:
            found = (folder / name).stat()
        except OSError:
            return ""
        parts.append(f"{name}:{found.st_size}:{found.st_ino}:{found.st_mtime_ns}:{found.st_ctime_ns}")
    return "|".join(parts)


def version_problems(game: GameDefinition, version: str, decks_dir: Path | None = None) -> list[str]:
    """What is wrong with one published version's files (empty when nothing); a version whose pinned
    templates are missing or changed is named by them (its deck cannot be read as published without them)."""
    if found := pinned.problems(game, version, decks_dir):
        return found
    try:
        path, deck = published.deck(game, version, decks_dir)
    except GeodeckError as exc:
        return [str(exc)]
    folder, found = path.parent, []
    fix = published.restore(folder)
    texts: dict[str, bytes] = {}
    for name in FILES:
        try:
            texts[name] = jsonfile.read_bytes(folder / name, jsonfile.DECK_BYTES)
        except jsonfile.Unreadable as exc:
            found.append(f"{folder / name} {exc}; {fix}")
    if published.manifest_of(path).get("cards") != len(deck["cards"]):
        found.append(f"{folder / 'manifest.json'} does not count the {len(deck['cards'])} cards; {fix}")
    checks = (("deck.csv", _csv_problem), ("datapackage.json", _datapackage_problem), ("CHANGELOG.md", _log_problem))
    for name, check in checks:
        problem = check(deck, texts) if name in texts else None
        if problem:
            found.append(f"{folder / name} {problem}; {fix}")
    return found


def _csv_problem(deck: dict, texts: dict[str, bytes]) -> str | None:
    try:
        text = texts["deck.csv"].decode("utf-8")
        first = next(csv.reader(io.StringIO(text)), [])
    except (UnicodeDecodeError, csv.Error) as exc:
        return f"is not CSV text ({exc})"
    columns = files.value_columns(first)
    if text != files.csv_text(columns, deck["cards"]):
        return "does not hold exactly the cards of deck.json"
    return None


def _datapackage_problem(deck: dict, texts: dict[str, bytes]) -> str | None:
    try:
        package = jsonfile.loads(texts["datapackage.json"])
        resources = {r["path"]: r for r in package["resources"]}
        named = (package["name"], package["version"])
    except (jsonfile.Unreadable, KeyError, TypeError) as exc:
        return f"is not a data package ({exc})"
    if named != (f"geodeck-{deck['game']}", deck["version"]):
        return f"names {named}, not geodeck-{deck['game']} {deck['version']}"
    for name in ("deck.csv", "deck.json"):
        entry, data = resources.get(name), texts.get(name, b"")
        if not isinstance(entry, dict) or (entry.get("bytes"), entry.get("hash")) != (
            len(data),
            f"sha256:{sha256(data)}",
        ):
            return f"does not list {name} with its byte count and sha256"
    return None


def _log_problem(deck: dict, texts: dict[str, bytes]) -> str | None:
    heading = f"# {deck['title']} {deck['version']}\n"
    if not texts["CHANGELOG.md"].decode("utf-8", "replace").startswith(heading):
        return f"does not start with {heading.strip()!r}"
    return None
