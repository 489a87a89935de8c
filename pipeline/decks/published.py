"""The one reader of decks: published ones, `output/decks/<game>/<version or LATEST>/deck.json`
(docs/deck-format.md), and drafts given with `--deck FILE`.

Used by the decks stage (diffs, build), games (play-check, play, replay) and render (print). Light on
purpose: no pandas, no reportlab. Every deck is read within the JSON limits (pipeline.jsonfile) and passes
the checks of a build's deck (pipeline.decks.schema), so an engine never sees a value a build would refuse. A
published version is tamper-evident: its deck.json must hash to the `content_hash` of the manifest.json
beside it and carry its folder's version. Every failure is a one-line GeodeckError naming the file and the
fix.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline import jsonfile, paths
from pipeline.decks import pinned, schema, versions
from pipeline.decks.canonical import content_hash
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition

MANIFEST = "manifest.json"
MANIFEST_KEYS = ("game", "version", "content_hash")


def deck(game: GameDefinition, version: str | None = None, decks_dir: Path | None = None) -> tuple[Path, dict]:
    """(path, deck) of the game at VERSION, by default the version LATEST names; verified against its manifest."""
    game_dir = (decks_dir or paths.DECKS_DIR) / game.name
    version = version or versions.latest(game_dir)
    if version is None:
        raise GeodeckError(
            f"no deck for {game.name} yet ({game_dir / 'LATEST'} is missing); run `{game.made_by}` first"
        )
    path = versions.version_dir(game_dir, version) / "deck.json"
    data = read(path, pinned.at(game, version, decks_dir))  # checked against the spec it was published with
    manifest_of(path)  # a published version has one (`read` verified the deck against it)
    return path, data


def read(path: Path, game: GameDefinition) -> dict:
    """A deck.json file of `game`, published or a draft: read within the JSON limits
    (pipeline.jsonfile) and checked like a build's deck (pipeline.decks.schema); when a manifest.json lies
    beside it, the deck must match it (`verify`)."""
    data = _load(path)
    named = data.get("game") if isinstance(data, dict) else None
    if named != game.name:
        raise GeodeckError(f"{path} is a {str(named)[:40]} deck, not {game.name}; name a {game.name} deck.json")
    return _checked(path, data, game)


def read_any(path: Path, resolve: Callable[[str], GameDefinition | None]) -> tuple[GameDefinition, dict]:
    """(its game, the deck) of a deck.json of any game (`print --deck FILE`): its `game` field names the game,
    which `resolve` (the registry's, passed by the CLI) turns into its definition or None; then as `read`."""
    data = _load(path)
    named = data.get("game") if isinstance(data, dict) else None
    game = resolve(named) if isinstance(named, str) else None
    if game is None:
        raise GeodeckError(
            f'{path}: its "game" field is {str(named)[:40]!r}, not a registered game; write one that '
            "`geodeck games` lists into it"
        )
    return game, _checked(path, data, game)


def label(version: str | None, draft: bool) -> str:
    """A deck's version as file and folder names carry it: a draft's is `draft` or `draft-<its label>`, so a
    draft carrying a published version's label is never taken for that version; `unversioned` for a
    published deck without one."""
    if draft:
        return f"draft-{version}" if version else "draft"
    return version or "unversioned"


def _load(path: Path) -> Any:
    """The JSON document of a deck.json, within the JSON limits; a one-line error naming the file and the fix."""
    try:
        return jsonfile.load(path, jsonfile.DECK_BYTES, finite=False)  # card values: schema.check names them
    except jsonfile.Missing as exc:
        if versions.VERSION.match(path.parent.name) and path.parent.is_dir():  # a version folder without its deck
            raise GeodeckError(
                f"{path} does not exist: {path.parent} is no whole version; {restore(path.parent)}"
            ) from exc
        raise GeodeckError(f"{path} does not exist; run `geodeck build` or name an existing deck.json") from exc
    except jsonfile.Unreadable as exc:
        raise GeodeckError(f"{path} is corrupted ({exc}); {_fix(path)}") from exc


def _fix(path: Path) -> str:
    """How to repair the damaged deck.json at `path`: a published version is restored, a draft written again."""
    return "fix the draft or write it again (docs/deck-format.md)" if is_draft(path) else restore(path.parent)


def _checked(path: Path, data: dict, game: GameDefinition) -> dict:
    """`data`, read from `path`, once it passes a build's checks (and its manifest's, where one lies beside it)."""
    published = not is_draft(path)
    schema.check(data, load_spec(game), str(path), complete=not published)
    try:
        jsonfile.check_finite(data)  # outside the cards' values (e.g. a grid)
    except jsonfile.Unreadable as exc:
        raise GeodeckError(f"{path} is corrupted ({exc}); {_fix(path)}") from exc
    if published:
        verify(path, data)
    return data


def restore(folder: Path) -> str:
    """The fix of a damaged published version `folder`: what `geodeck verify`, `print` and `build` say."""
    return f"restore it with `git checkout -- {folder}`, or delete it (`rm -r {folder}`) and run `geodeck build`"


def is_draft(path: Path) -> bool:
    """Whether the deck `read` from `path` is a draft (no manifest.json beside it to be verified against)."""
    return not (path.parent / MANIFEST).is_file()


def manifest_of(path: Path) -> dict:
    """The manifest.json beside the deck at `path`, within the JSON limits; a one-line error naming it."""
    manifest_path = path.parent / MANIFEST
    fix = restore(path.parent)
    try:
        manifest = jsonfile.load(manifest_path, jsonfile.SMALL_BYTES)
        if not isinstance(manifest, dict) or not all(isinstance(manifest.get(k), str) for k in MANIFEST_KEYS):
            raise jsonfile.Unreadable(f"lacks one of {', '.join(MANIFEST_KEYS)}")
    except jsonfile.Missing as exc:
        raise GeodeckError(f"{manifest_path} is missing, so {path} cannot be verified; {fix}") from exc
    except jsonfile.Unreadable as exc:
        raise GeodeckError(f"{manifest_path} is corrupted or unreadable ({exc}); {fix}") from exc
    return manifest


def verify(path: Path, data: dict) -> None:
    """The deck at `path` equals what was published: its content hash is the manifest's and its version
    and game are the manifest's (and the version is its folder's name, inside a version folder)."""
    manifest = manifest_of(path)
    fix = restore(path.parent)
    if content_hash(data) != manifest["content_hash"]:
        raise GeodeckError(f"{path} was modified after publishing (its content hash is not the manifest's); {fix}")
    published_as = (manifest["game"], manifest["version"])
    if (data["game"], data.get("version")) != published_as:
        raise GeodeckError(f"{path} names {data['game']} {data.get('version')}, its manifest {published_as}; {fix}")
    if versions.VERSION.match(path.parent.name) and data.get("version") != path.parent.name:
        raise GeodeckError(f"{path} says version {data.get('version')}, its folder {path.parent.name}; {fix}")
