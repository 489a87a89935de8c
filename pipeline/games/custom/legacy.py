"""Custom decks published before their versions kept their templates: one folder
`output/decks/custom-<name>/templates/` beside the versions, which every version printed with (and which a
refused `deck new` could change). `pin_beside` moves it into them: each version gets the copy it prints with
today, hashed into its manifest (pipeline.decks.pinned), so each prints byte-identically before and after."""

import shutil
import tempfile
from pathlib import Path

from pipeline import atomic, jsonfile, readers
from pipeline.decks import pinned, versions
from pipeline.decks.canonical import dumps
from pipeline.errors import GeodeckError
from pipeline.games.custom import TEMPLATES


def pin_beside(folder: Path) -> list[str]:
    """Pin the templates folder beside the versions of the custom deck `folder` into each version whose
    manifest lists none, then remove it; the versions pinned (none when there is no such folder). Rerun
    after a kill: a version whose manifest lists none is pinned anew."""
    beside = folder / TEMPLATES
    if not beside.is_dir() or beside.is_symlink():
        return []
    texts = {
        f"{pinned.FOLDER}/{path.relative_to(beside).as_posix()}": readers.read_input("template", path)
        for path in sorted(beside.rglob("*.toml"))
    }
    done = []
    for version in versions.versions(folder):
        manifest_path = folder / version / "manifest.json"
        try:
            manifest = jsonfile.load(manifest_path, jsonfile.SMALL_BYTES)
        except jsonfile.Unreadable as exc:
            raise GeodeckError(f"{manifest_path} {exc}; restore it with `git checkout -- {folder / version}`") from exc
        if isinstance(manifest, dict) and manifest.get(pinned.KEY):
            continue
        target = folder / version / pinned.FOLDER
        staged = Path(tempfile.mkdtemp(prefix=".templates.", dir=folder / version))
        shutil.copytree(beside, staged, dirs_exist_ok=True)
        if target.exists():  # a copy of a killed run, not yet in the manifest
            shutil.rmtree(target)
        staged.rename(target)
        atomic.write_text(manifest_path, dumps(manifest | {pinned.KEY: pinned.hashes(texts)}))
        done.append(version)
    shutil.rmtree(beside)
    return done
