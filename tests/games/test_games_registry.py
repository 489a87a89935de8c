"""The game registry: a fourth game defined only in tests/fixtures/toygame/ (deck builder, card renderer,
accessories, rules engine, play-check collector, deck spec and layout) goes through build, print,
play-check and diff, by the API and by `geodeck`, and through the conformance tests, with nothing else edited."""

import json
import os
import re
import subprocess
import sys
from datetime import date

import pandas as pd
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from click.testing import CliRunner
from fixtures import toygame
from pypdf import PdfReader

from pipeline import paths
from pipeline.cli import cli
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.playcheck import report as reports

DAY = date(2026, 11, 30)
MIRROR = os.environ.get("GEODECK_MIRROR")  # the conformance tests' prints draw flags from it
TOYS = {
    "ant": ("Ant", 1),
    "bee": ("Bee", 2),
    "cat": ("Cat", 30),
    "dog": ("Dog", 40),
    "elk": ("Elk", 300),
    "fox": ("Fox", 50),
}


def write_toys(build, sizes: dict[str, tuple[str, int]]) -> None:
    table = pd.DataFrame(
        [
            {"code": c, "name": n, "size": s, "size__source": "toy-census", "size__vintage": "2026"}
            for c, (n, s) in sizes.items()
        ]
    )
    (build / "toy").mkdir(parents=True, exist_ok=True)
    table.to_parquet(build / "toy" / "toys.parquet")


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy game registered (for this test only) with its build table, a decks folder and an empty store."""
    monkeypatch.setattr(games, "_REGISTRY", dict(games.registered()))
    games.register(toygame.GAME)
    build = tmp_path / "build"
    monkeypatch.setenv("GEODECK_BUILD", str(build))
    monkeypatch.setenv("GEODECK_STORE", str(tmp_path / "store"))
    monkeypatch.delenv("GEODECK_MIRROR", raising=False)
    monkeypatch.setattr(paths, "DECKS_DIR", tmp_path / "decks")
    write_toys(build, TOYS)
    return tmp_path


def geodeck(*args: str):
    return CliRunner().invoke(cli, list(args))


def pdf_text(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_games_lists_the_player_counts_the_published_decks_allow():
    result = CliRunner().invoke(cli, ["games"], terminal_width=200)
    assert result.exit_code == 0, result.output
    rows = {
        line.split("│")[1].strip(): line.split("│")[3].strip() for line in result.output.splitlines() if "│" in line
    }
    assert (rows["deutschland"], rows["laender-toppen"], rows["world-game"]) == ("2-4", "2-6", "2-9")


def test_a_game_without_a_published_deck_lists_unknown_player_counts(toy):
    from pipeline.cli import info as commands

    assert commands._player_counts(toygame.GAME, commands._latest(toygame.GAME)) == "?"
    stage.build_deck(games.get("toy-game"), DAY)
    assert commands._player_counts(toygame.GAME, commands._latest(toygame.GAME)) == "2"


def test_toy_game_is_listed_and_builds_its_deck(toy):
    assert "toy-game" in geodeck("games", "--names").output.split()
    first = stage.build_deck(games.get("toy-game"), DAY)
    assert (first.version, first.published, first.cards) == ("2026.11.0", True, 6)
    deck = json.loads((toy / "decks" / "toy-game" / "2026.11.0" / "deck.json").read_text())
    assert [c["id"] for c in deck["cards"]] == [f"toy-{code}" for code in TOYS]
    assert deck["cards"][2] == {
        "id": "toy-cat",
        "kind": "toy",
        "fields": {"name": "Cat", "size": 30},
        "provenance": {"size": {"source": "toy-census", "vintage": "2026"}},
    }
    assert stage.build_deck(games.get("toy-game"), DAY).published is False  # unchanged table: nothing new


@pytest.fixture
def toy_german(toy, monkeypatch):
    """The toy game's words in a language `qq` of one catalogue ($GEODECK_LOCALES): a game's words are
    translated by their template's contexts like any built-in game's."""
    cat = Catalog(locale="de_DE")
    cat.add("size", "Größe", context="toy-game:words.size")
    cat.add("Toy Game: score pad", "Toy Game: Punkteblock", context="toy-game:accessories.words.heading")
    po = toy / "locale" / "qq" / "LC_MESSAGES" / "geodeck.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as handle:
        write_po(handle, cat)
    monkeypatch.setenv("GEODECK_LOCALES", str(toy / "locale"))
    languages.languages.cache_clear()
    yield "qq"
    monkeypatch.delenv("GEODECK_LOCALES")
    languages.languages.cache_clear()


def test_toy_game_prints_cards_and_accessories_through_the_cli(toy, toy_german):
    stage.build_deck(games.get("toy-game"), DAY)
    result = geodeck(
        "print", "toy-game", "--what", "all", "--lang", toy_german, "--offline", "--out", str(toy / "print")
    )
    assert result.exit_code == 0, result.output
    cards = toy / "print" / f"toy-game-2026.11.0-cards-a4-sheet-duplex-long-{toy_german}.pdf"
    assert len(PdfReader(cards).pages) == 2  # six cards: one fronts page, one backs page
    assert all(name in pdf_text(cards) for name, _ in TOYS.values()) and "Größe 300" in pdf_text(cards)
    accessories = toy / "print" / f"toy-game-2026.11.0-accessories-a4-{toy_german}.pdf"
    assert pdf_text(accessories).strip() == "Toy Game: Punkteblock"


def test_toy_game_play_checks_through_the_cli(toy):
    stage.build_deck(games.get("toy-game"), DAY)
    result = geodeck(
        "play-check", "toy-game", "--games", "40", "--max-games", "40", "--seed", "3", "--jobs", "1", "--format", "json"
    )
    report = json.loads(result.output)
    assert result.exit_code == reports.EXIT_CODES[report["result"]], result.output
    assert (report["game"], report["players"], report["length_unit"]) == ("toy-game", 2, "moves")
    length = report["playouts"]["random"]["length"]
    assert (length["median"], length["p90"], length["max"]) == (3, 3, 3)  # three rounds
    ties = report["playouts"]["random"]["ties"]["size"]
    assert (ties["comparisons"], ties["ties"]) == (120, 0)
    assert report["cards"]["strongest"][0] == ["toy-elk", 2.0]  # the biggest toy wins every comparison
    assert report["cards"]["names"]["toy-elk"] == TOYS["elk"][0]  # the report lists it by its name
    assert f"strongest {TOYS['elk'][0]} 2" in reports.to_markdown(report)
    again = geodeck(
        "play-check", "toy-game", "--games", "40", "--max-games", "40", "--seed", "3", "--jobs", "1", "--format", "json"
    )
    assert again.output == result.output


def test_toy_game_diff_flags_a_suspicious_change(toy):
    stage.build_deck(games.get("toy-game"), DAY)
    write_toys(toy / "build", {**TOYS, "dog": ("Dog", 90)})  # +125 %, beyond the spec's 50 %
    fresh = geodeck("diff", "toy-game", "--format", "json")
    assert fresh.exit_code == 1, fresh.output
    [change] = json.loads(fresh.output)["changes"]
    assert (change["card"], change["field"], change["old"], change["new"], change["suspicious"]) == (
        "toy-dog",
        "size",
        40,
        90,
        True,
    )
    with pytest.raises(GeodeckError, match="suspicious"):
        stage.build_deck(games.get("toy-game"), DAY)
    assert stage.build_deck(games.get("toy-game"), DAY, accept="the dog grew").version == "2026.11.1"
    assert geodeck("diff", "toy-game", "2026.11.0", "2026.11.1").exit_code == 1
    assert geodeck("diff", "toy-game").exit_code == 0


def test_unregistered_game_is_a_one_line_cli_error(toy):
    result = geodeck("diff", "toy-gam")
    assert result.exit_code == 2 and "'toy-gam' is not one of" in result.output and "'toy-game'" in result.output


GAME_WORDS = {"deutschland": "deutschland", "laender_toppen": "laender", "world_game": r"world.game"}  # slice: word


def naming(root, word: str) -> list[str]:
    """The modules under root/pipeline that name a game by `word` outside that game's own slice."""
    slices = {slice_ for slice_, w in GAME_WORDS.items() if w == word}
    return [
        str(path.relative_to(root))
        for path in sorted((root / "pipeline").rglob("*.py"))
        if re.search(word, path.read_text(encoding="utf-8"))
        and not (
            path.parent.name in slices
            and path.parent.parent.name == "games"
            and path.parent.parent.parent == root / "pipeline"
        )
    ]


def test_only_game_slices_name_a_game():
    """Horizontal code reads the registry: no module outside pipeline/games/<game>/ names a game."""
    outside = [
        path
        for word in GAME_WORDS.values()
        for path in naming(paths.ROOT, word)
        if not re.fullmatch(r"pipeline/games/[a-z_]+/[a-z_]+\.py", path) or path.startswith("pipeline/games/grid/")
    ]
    assert outside == []


def test_only_deutschland_s_slice_names_it():
    """Deutschland is a configuration of the grid game (pipeline/games/grid/), a region another: the family
    and the region slice take what differs from the game's definition, never from Deutschland's slice."""
    assert naming(paths.ROOT, GAME_WORDS["deutschland"]) == []


def test_a_slice_naming_another_game_is_found(tmp_path):
    for folder, text in (
        ("games/region", "from pipeline.games.deutschland import deck"),
        ("games/deutschland", "deutschland"),
    ):
        (tmp_path / "pipeline" / folder).mkdir(parents=True)
        (tmp_path / "pipeline" / folder / "deck.py").write_text(text)
    assert naming(tmp_path, "deutschland") == ["pipeline/games/region/deck.py"]


def conformance_files() -> list[str]:
    """Every test file that takes its games from tests/conformance.py."""
    tests = paths.ROOT / "tests"
    return sorted(
        str(path.relative_to(paths.ROOT))
        for path in tests.rglob("test_*.py")
        if re.search(r"^from conformance import", path.read_text(encoding="utf-8"), re.MULTILINE)
    )


def test_every_conformance_test_passes_a_new_game_from_the_registry(toy):
    """Adding a game edits no test file: with the toy game registered before collection (a pytest plugin,
    as the registry finds a slice), every conformance test of every file collects a case of it, and each
    passes (or is skipped for a capability the game states it lacks)."""
    stage.build_deck(games.get("toy-game"), DAY)
    env = {**os.environ, "GEODECK_TOY_DECKS": str(toy / "decks"), "PYTHONPATH": str(paths.ROOT / "tests")}
    env["GEODECK_MIRROR"] = MIRROR or ""
    command = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-p", "fixtures.toygame.plugin"]
    command += ["-m", "conformance", *conformance_files()]

    def run(*args: str) -> str:
        result = subprocess.run([*command, *args], capture_output=True, text=True, cwd=paths.ROOT, env=env)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    tests = {line.partition("[")[0] for line in run("-q", "--collect-only").splitlines() if "::" in line}
    output = run("-v", "-rs", "-k", "toy-game")
    ran = re.findall(r"^(\S+?)\[\S*toy-game\S*\] (?:PASSED|SKIPPED)", output, re.MULTILINE)
    assert set(ran) == tests and len(conformance_files()) >= 6, sorted(tests - set(ran))
    skipped = re.findall(r"^SKIPPED \[\d+\] \S+: (.*)$", output, re.MULTILINE)
    assert all(why.startswith("toy-game states no ") for why in skipped), skipped  # for a capability it lacks


def test_a_game_of_a_family_takes_what_its_slice_lacks_from_the_family():
    """A slice holds what differs (a region's deck and cards); engine, terminal and play-check thresholds are
    the family's (pipeline/games/grid/, which the registry passes over: it is no game)."""
    game = GameDefinition("test-region", "pipeline.games.region", 4, "t.parquet", family="pipeline.games.grid")
    assert game.module("cards").__name__ == "pipeline.games.region.cards"
    assert game.module("terminal").__name__ == "pipeline.games.grid.terminal"
    with pytest.raises(ModuleNotFoundError) as neither:
        game.module("answers")
    assert neither.value.name == "pipeline.games.region.answers"  # the slice's module named, as without a family
    assert game.playcheck_path.name == "grid.toml" and game.playcheck_path.is_file()
    assert "grid" not in games.names()
    assert {d.family for d in games.registered().values() if d.name.startswith(("deutschland", "region-"))} == {
        "pipeline.games.grid"
    }
