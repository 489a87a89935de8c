"""Your own decks: `geodeck deck list` (the published custom decks, each with its recipe), `geodeck deck
remove NAME` (its published folder and its build folder; never a built-in or region deck), `geodeck deck export
NAME` (its recipe, table and pictures as one .zip a colleague passes to `deck new`) and whether `geodeck deck new` has
anything to do (`unchanged`: light, so that a rebuild of nothing new takes no time)."""

import io
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import tomlkit

from pipeline import atomic, jsonfile, paths, readers
from pipeline.decks import versions
from pipeline.errors import GeodeckError
from pipeline.games import custom
from pipeline.games.custom.recipe import Recipe
from pipeline.hashing import file_sha256

COUNTRIES = "geo/countries.parquet"  # the country table the built-in decks are made from
AS_PUBLISHED = "as published"  # the play-check verdict of a deck a rebuild left unchanged
KEPT = "recipe"  # build/custom/<name>/recipe/: the recipe (its table beside it) as published, for export
RECEIVED = "received"  # build/custom/received/<file>/: an exported recipe unpacked for `deck new`


@dataclass(frozen=True)
class Listed:
    name: str  # custom-<name>
    version: str
    cards: int
    base: str  # the recipe's game
    lang: str
    recipe: str  # the recipe's file name
    table: str  # the user's table's file name, or "" for countries


def _latest(folder: Path) -> tuple[str, dict] | None:
    """(version, deck.json) of the published deck in `folder`; None where there is none (or it is damaged)."""
    try:
        version = versions.latest(folder)
        return (version, jsonfile.load(folder / version / "deck.json", jsonfile.DECK_BYTES)) if version else None
    except (GeodeckError, jsonfile.Unreadable):
        return None


def listed() -> list[Listed]:
    """Every published custom deck (output/decks/custom-*/ with LATEST), by name; a damaged one is left out."""
    found = []
    for folder in sorted(paths.DECKS_DIR.glob(f"{custom.PREFIX}*")) if paths.DECKS_DIR.is_dir() else []:
        if (latest := _latest(folder)) is None:
            continue
        version, deck = latest
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
    if not (published / "LATEST").is_file():  # custom-<name>: never a built-in or region deck's folder
        mine = ", ".join(d.name for d in listed()) or "none yet"
        raise GeodeckError(
            f"{name} is no deck of yours (yours: {mine}); `geodeck deck remove` and `deck export` take only "
            "decks made by `geodeck deck new`, never a built-in or region deck"
        )
    built = (build_root or paths.build_dir()) / "custom" / game.removeprefix(custom.PREFIX)
    return [folder for folder in (published, built) if folder.exists()]


def remove(found: list[Path]) -> None:
    """Remove the folders: each renamed aside first (a deck is never half there), then deleted."""
    for folder in found:
        aside = Path(tempfile.mkdtemp(prefix=".removed.", dir=folder.parent))
        folder.rename(aside / folder.name)
        shutil.rmtree(aside)


def unchanged(made: Recipe, build_root: Path) -> Listed | None:
    """The published deck of the recipe when its recipe, its table (and its pictures' files, or the country
    table) and its built items are those of now: a rebuild then does nothing (no play-check, no print); else
    None."""
    game_dir = paths.DECKS_DIR / made.deck_name
    latest = _latest(game_dir)
    if latest is None:
        return None
    version, deck = latest
    published = deck.get("recipe", {}).get("sources", {})
    now = {"recipe_sha256": file_sha256(made.path)}
    if made.items.table is not None:
        now["table_sha256"] = file_sha256(made.items.table) if made.items.table.is_file() else ""
        folder = made.items.table.parent  # a picture changed (or gone) since: built again
        if any(_sha256(folder / cell) != digest for cell, digest in published.get("pictures", {}).items()):
            return None
    elif (build_root / COUNTRIES).is_file():
        now["countries_sha256"] = file_sha256(build_root / COUNTRIES)
    kept = (build_root / "custom" / made.name / "items.parquet").is_file() and (
        game_dir / version / custom.TEMPLATES
    ).is_dir()  # the version pins its templates (pipeline/decks/pinned.py)
    if not kept or len(now) < 2 or any(published.get(key) != value for key, value in now.items()):
        return None
    cards = len(deck.get("cards", []))
    return Listed(made.deck_name, version, cards, made.game, made.lang, made.path.name, str(published.get("table", "")))


def _sha256(path: Path) -> str:
    return file_sha256(path) if path.is_file() else ""


def keep(made: Recipe, out: Path, pictures: list[str]) -> None:
    """Copy the recipe (its `items.table` made the table's file name), its table and the table's pictures (each at
    its cell's path, relative to the table) into out/recipe/."""
    document = tomlkit.parse(jsonfile.read_bytes(made.path, readers.KINDS["recipe"].max_bytes).decode("utf-8"))
    files = {}
    if made.items.table is not None:
        document["items"]["table"] = made.items.table.name
        files[made.items.table.name] = jsonfile.read_bytes(made.items.table, readers.KINDS["user-table"].max_bytes)
        for cell in filter(_inside, pictures):  # one outside the table's folder: `export` names it
            files[cell] = jsonfile.read_bytes(made.items.table.parent / cell, readers.KINDS["picture"].max_bytes)
    files[f"{made.name}.toml"] = tomlkit.dumps(document).encode("utf-8")
    fresh = Path(tempfile.mkdtemp(prefix=".recipe.", dir=out))
    for name, data in files.items():
        (fresh / name).parent.mkdir(parents=True, exist_ok=True)
        (fresh / name).write_bytes(data)
    if (out / KEPT).exists():
        remove([out / KEPT])
    fresh.rename(out / KEPT)


def export(name: str, target: Path | None, build_root: Path | None = None) -> Path:
    """Write the deck's recipe, table and pictures as one .zip (default: ./custom-<name>.zip, never over a file)."""
    game = name if name.startswith(custom.PREFIX) else f"{custom.PREFIX}{name}"
    folders(name, build_root)  # a deck of yours
    kept = (build_root or paths.build_dir()) / "custom" / game.removeprefix(custom.PREFIX) / KEPT
    if not kept.is_dir():
        raise GeodeckError(f"{game} was published before recipes were kept: run `geodeck deck new RECIPE` again")
    latest = _latest(paths.DECKS_DIR / game)
    drawn = latest[1].get("recipe", {}).get("sources", {}).get("pictures", {}) if latest else {}
    if outside := sorted(cell for cell in drawn if not _inside(cell)):
        raise GeodeckError(
            f"picture {outside[0]!r} lies outside its table's folder, and a colleague's copy could not find it: "
            f"move the pictures into a folder beside the table, change their cells, and run `geodeck deck new` again"
        )
    target = target or Path(f"{game}.zip")
    if target.suffix.lower() != ".zip":
        raise GeodeckError(f"--out {target}: the export is a .zip file; name one ending in .zip")
    if target.exists():
        raise GeodeckError(f"{target} exists; name another file (--out)")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(path for path in kept.rglob("*") if path.is_file()):  # the pictures in their folders
            info = zipfile.ZipInfo(path.relative_to(kept).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))  # same bytes
            archive.writestr(
                info, jsonfile.read_bytes(path, readers.KINDS["user-table"].max_bytes), zipfile.ZIP_DEFLATED
            )
    atomic.write_bytes(target, buffer.getvalue())
    return target


def received(path: Path, build_root: Path | None = None) -> Path:
    """The recipe of an exported .zip, unpacked under build/custom/received/<file>/ (its one .toml file)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if _inside(n)]
            recipes = [n for n in names if n.endswith(".toml") and "/" not in n]
            if len(recipes) != 1:
                raise GeodeckError(f"{path}: holds {len(recipes)} recipes (.toml); `geodeck deck export` writes one")
            folder = (build_root or paths.build_dir()) / "custom" / RECEIVED / path.stem
            if folder.exists():
                remove([folder])
            folder.mkdir(parents=True)
            for name in names:  # the recipe and its table, the pictures in their folders
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(archive.read(name))
    except (OSError, zipfile.BadZipFile) as exc:
        raise GeodeckError(
            f"{path}: not a recipe export ({exc}); pass a recipe (.toml) or a `deck export` .zip"
        ) from exc
    return folder / recipes[0]


def _inside(name: str) -> bool:
    """Whether an export's member is a file to unpack: a relative path that stays in its folder, no hidden part."""
    parts = PurePosixPath(name).parts
    return bool(parts) and not name.endswith("/") and not any(p.startswith(".") or p == "/" or "\\" in p for p in parts)
