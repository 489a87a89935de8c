"""geodeck installed as a tool (issue 47): a wheel carries its templates, sources and decks, and an installed
geodeck writes into the user's data folder, whose decks/ it fills from the package without touching the user's."""

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from pipeline import paths
from pipeline.cli import installed
from pipeline.decks import versions

CHECKOUT = (
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "pipeline",
    "templates",
    "sources",
    "output/decks",
)


def deck_version(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "deck.json").write_text(text)


def test_seed_copies_the_missing_versions_and_touches_nothing_else(tmp_path):
    packaged, decks = tmp_path / "packaged", tmp_path / "decks"
    for version in ("2026.11.0", "2026.12.0"):
        deck_version(packaged / "alpha" / version, f"packaged {version}")
    deck_version(decks / "alpha" / "2026.11.0", "the user's copy")
    deck_version(decks / "custom-mine" / "2026.12.1", "the user's own deck")
    (decks / "alpha" / "LATEST").write_text("2026.11.0\n")

    assert installed.seed(packaged, decks) == ["alpha/2026.12.0"]
    assert (decks / "alpha" / "2026.12.0" / "deck.json").read_text() == "packaged 2026.12.0"
    assert (decks / "alpha" / "2026.11.0" / "deck.json").read_text() == "the user's copy"
    assert versions.latest(decks / "alpha") == "2026.12.0"
    assert (decks / "custom-mine" / "2026.12.1" / "deck.json").read_text() == "the user's own deck"
    assert installed.seed(packaged, decks) == []
    assert not [p for p in (decks / "alpha").iterdir() if p.name.startswith(".")]  # no staging folder left


def test_a_checkout_is_not_an_installed_geodeck():
    assert not paths.INSTALLED and paths.ROOT == paths.CODE and installed.seed() == []


@pytest.mark.mirror
def test_the_wheel_installed_in_a_fresh_venv_prints_a_kit_outside_the_checkout(tmp_path):
    """The wheel of a copy of the checkout, installed without its dependencies into a new venv that sees this
    one's (so no network), prints the Länder toppen kit from another folder into the user's data folder."""
    source = tmp_path / "source"
    for name in CHECKOUT:
        if (paths.CODE / name).is_dir():
            shutil.copytree(paths.CODE / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(paths.CODE / name, source / name)
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", str(source), "-w", str(wheels)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=False)
    site = next((environment / "lib").glob("python3*/site-packages"))
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(wheels.glob("geodeck-*.whl"))
    done = subprocess.run(
        [
            *pip,
            "--python",
            str(environment / "bin" / "python"),
            "install",
            "-q",
            "--no-deps",
            "--ignore-installed",
            str(wheel),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr

    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GEODECK_BUILD", "GEODECK_STORE")}
    env |= {"HOME": str(home), "GEODECK_HOME": str(home / "geodeck"), "GEODECK_PURE": "1"}
    printed = subprocess.run(
        [str(environment / "bin" / "geodeck"), "print", "laender-toppen", "--kit"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert printed.returncode == 0, printed.stderr
    kit = Path(printed.stdout.strip())
    assert kit.parent == home / "geodeck" / "output" / "print" and kit.read_bytes().startswith(b"%PDF")
    assert list(elsewhere.iterdir()) == []
    assert versions.latest(home / "geodeck" / "output" / "decks" / "laender-toppen") == versions.latest(
        paths.DECKS_DIR / "laender-toppen"
    )
