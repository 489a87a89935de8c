"""Templates pinned in a version, like a lockfile: a game whose templates are its own data (a custom deck's,
made from its recipe: GameDefinition.pinned_templates) keeps the three it was published with inside each
version folder (`<version>/templates/decks|cards|playcheck/<game>.toml`), written with the version (one
folder renamed into place) and hashed in its manifest (`"templates": {path: sha256}`). Print, play and
play-check of a version read its own (`at`), so a refused or killed run, or a later recipe, never changes what
a published version prints; `geodeck verify` checks them (`problems`). The pictures its cards draw (a table's
items': `pictures/*.b64`) are pinned with them."""

import dataclasses
from pathlib import Path

from pipeline import jsonfile, paths, readers
from pipeline.decks import versions
from pipeline.framework.definition import GameDefinition
from pipeline.hashing import sha256

FOLDER = "templates"  # inside a version folder
PICTURES = "pictures"  # in a game's templates: the pictures its cards draw, base64 text (a table's items')
KEY = "templates"  # the manifest's entry: {path in the version folder: sha256}


def files(game: GameDefinition) -> dict[str, str]:
    """The game's templates as a version holds them: {path in the version folder: text}; none for a game
    whose templates are the project's (templates/)."""
    if not game.pinned_templates:
        return {}
    found = {}
    pictures = sorted((game.templates / PICTURES).glob("*.b64"))
    for path in [*game.template_files.values(), *pictures]:
        found[f"{FOLDER}/{path.relative_to(game.templates).as_posix()}"] = readers.read_input("template", path)
    return found


def hashes(pinned: dict[str, str]) -> dict[str, str]:
    """The manifest's entry for `pinned` (files): each path's sha256."""
    return {name: sha256(text) for name, text in sorted(pinned.items())}


def at(game: GameDefinition, version: str | None = None, decks_dir: Path | None = None) -> GameDefinition:
    """The game as VERSION (default: the one LATEST names) was published: reading that version's templates
    where the game pins them; else the game itself (also before any version: reading its deck then says so)."""
    if not game.pinned_templates:
        return game
    game_dir = (decks_dir or paths.DECKS_DIR) / game.name
    version = version or versions.latest(game_dir)
    if version is None or not versions.VERSION.match(version):
        return game
    return dataclasses.replace(game, templates=game_dir / version / FOLDER)


def same(game: GameDefinition, version: str, pinned: dict[str, str], decks_dir: Path | None = None) -> bool:
    """Whether VERSION pins exactly `pinned` (the templates a new build would publish)."""
    folder = (decks_dir or paths.DECKS_DIR) / game.name / version
    return _manifest_entry(folder) == hashes(pinned)


def problems(game: GameDefinition, version: str, decks_dir: Path | None = None) -> list[str]:
    """What is wrong with the templates VERSION pins: none listed in its manifest, one missing, or one
    changed since publishing (one line each, with the fix); none for a game that pins none."""
    if not game.pinned_templates:
        return []
    folder = (decks_dir or paths.DECKS_DIR) / game.name / version
    fix = f"restore it with `git checkout -- {folder}`, or delete it (`rm -r {folder}`) and run `{game.made_by}`"
    listed = _manifest_entry(folder)
    if not listed:
        return [f"{folder / 'manifest.json'} lists no templates, so {folder} cannot be printed as published; {fix}"]
    found = []
    for name, digest in listed.items():
        path = folder / name
        try:
            data = jsonfile.read_bytes(path, jsonfile.DECK_BYTES)
        except jsonfile.Unreadable as exc:
            found.append(f"{path} {exc}; {fix}")
            continue
        if sha256(data) != digest:
            found.append(f"{path} was changed after publishing (its sha256 is not the manifest's); {fix}")
    return found


def _manifest_entry(folder: Path) -> dict[str, str]:
    """The manifest's templates entry of the version `folder` ({} when it has none or is unreadable)."""
    try:
        entry = jsonfile.load(folder / "manifest.json", jsonfile.SMALL_BYTES).get(KEY)
    except (jsonfile.Unreadable, AttributeError):
        return {}
    if not isinstance(entry, dict) or not all(isinstance(v, str) for v in entry.values()):
        return {}
    return {str(k): v for k, v in sorted(entry.items())}
