"""geodeck installed as a tool: the user's decks folder holds every deck version the package ships.

Published versions never change (their manifests pin them), so a version the user's folder lacks is copied in
whole (to a temporary folder, then renamed) and LATEST points at the newest version; nothing the user made (a
region or custom deck, a newer build) is touched. A no-op in a checkout, where the decks are the committed ones."""

import shutil
import tempfile
from pathlib import Path

from pipeline import paths
from pipeline.decks import versions


def seed(packaged: Path | None = None, decks: Path | None = None) -> list[str]:
    """Copy the package's deck versions missing from the user's decks folder; `game/version` of each copied."""
    if packaged is None and not paths.INSTALLED:
        return []
    packaged = packaged or paths.PACKAGED / "output" / "decks"
    decks = decks or paths.DECKS_DIR
    copied = []
    for game_dir in sorted(p for p in packaged.iterdir() if p.is_dir()):
        target = decks / game_dir.name
        missing = [v for v in versions.versions(game_dir) if not (target / v).exists()]
        for version in missing:
            target.mkdir(parents=True, exist_ok=True)
            staged = Path(tempfile.mkdtemp(dir=target, prefix=f".{version}."))
            shutil.copytree(game_dir / version, staged, dirs_exist_ok=True)
            staged.rename(target / version)
            copied.append(f"{game_dir.name}/{version}")
        if missing and (newest := versions.newest(target)):
            versions.point_latest(target, newest)
    return copied
