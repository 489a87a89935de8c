"""Step checksums, like OWID's: a step reruns only when its inputs' hashes or its code changed.

A step's fingerprint is the sha256 of its named input hashes plus the source of the Python modules
that compute it; the stamp is written after the outputs, so an interrupted run is simply redone.
"""

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from pipeline import atomic
from pipeline.paths import ROOT, build_dir


def code_hash(packages: Iterable[str]) -> str:
    """sha256 over every .py file of the given pipeline subpackages (e.g. "transform")."""
    digest = hashlib.sha256()
    for package in sorted(packages):
        folder = ROOT / "pipeline" / package.replace(".", "/")
        files = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
        for path in files:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fingerprint(input_hashes: Mapping[str, str], packages: Iterable[str]) -> str:
    payload = json.dumps({"inputs": dict(sorted(input_hashes.items())), "code": code_hash(packages)})
    return hashlib.sha256(payload.encode()).hexdigest()


def stamp_path(name: str) -> Path:
    return build_dir() / "steps" / f"{name}.json"


def run_step(
    name: str,
    input_hashes: Mapping[str, str],
    packages: Iterable[str],
    outputs: Iterable[Path],
    run: Callable[[], object],
    force: bool = False,
) -> bool:
    """Run `run` unless the stamp says the same inputs and code already made every output; True if it ran."""
    outputs = list(outputs)
    current = fingerprint(input_hashes, packages)
    stamp = stamp_path(name)
    fresh = not force and stamp.is_file() and all(p.exists() for p in outputs)
    if fresh and json.loads(stamp.read_text()).get("fingerprint") == current:
        return False
    run()
    atomic.write_text(stamp, json.dumps({"step": name, "fingerprint": current}, indent=1) + "\n")
    return True
