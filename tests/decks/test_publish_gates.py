"""Publishing gates that cannot be bypassed: a build compares against the newest version on disk whatever
LATEST says, writes LATEST last, and recovers from an interrupted publish; `geodeck verify` names every
inconsistent file; a corrupted geo table is one line naming the step that rebuilds it."""

import json
import os
import shutil
from datetime import date

import pytest
from fixtures.tiny.decks.synthetic import countries_table, write_inputs

from pipeline import atomic
from pipeline.build import graph
from pipeline.decks import integrity, stage, versions
from pipeline.errors import GeodeckError
from pipeline.games import registry as games

GAME = "laender-toppen"
DAY, NEXT_DAY = date(2026, 11, 29), date(2026, 11, 30)


@pytest.fixture
def built(tmp_path):
    """The synthetic inputs published once: (build root, the game's deck folder)."""
    root, decks = write_inputs(tmp_path / "build"), tmp_path / "decks"
    assert stage.build_deck(games.get(GAME), DAY, decks_dir=decks, build_root=root).version == "2026.11.0"
    return root, decks / GAME


def change(root, column: str, factor: float = 1.0, add: float = 0.0) -> None:
    """Germany's `column` × factor + add in the build's inputs."""
    countries = countries_table()
    countries.loc[countries["iso3"] == "DEU", column] = countries.loc[countries["iso3"] == "DEU", column] * factor + add
    write_inputs(root, countries)


def build(root, game_dir, day=NEXT_DAY, accept=None):
    return stage.build_deck(games.get(GAME), day, accept=accept, decks_dir=game_dir.parent, build_root=root)


def listing(game_dir) -> list[str]:
    return sorted(p.name for p in game_dir.iterdir())


@pytest.mark.parametrize("latest", ["missing", "garbage", "a folder"])
def test_a_suspicious_change_is_refused_whatever_latest_is(built, latest):
    root, game_dir = built
    pointer = game_dir / "LATEST"
    pointer.unlink()
    if latest == "garbage":
        pointer.write_text("not a version\n")
    elif latest == "a folder":
        pointer.mkdir()
    change(root, "population", 1.3)  # the issue's +30 %: "First version." without --accept before
    expected = "is not a regular file" if latest == "a folder" else "suspicious change.* against 2026.11.0"
    with pytest.raises(GeodeckError, match=expected):
        build(root, game_dir)
    assert [v for v in listing(game_dir) if versions.VERSION.match(v)] == ["2026.11.0"]


def test_the_reference_is_the_newest_version_not_an_older_latest(built):
    root, game_dir = built
    change(root, "population", 1.3)
    assert build(root, game_dir, accept="census revision").version == "2026.11.1"
    (game_dir / "LATEST").write_text("2026.11.0\n")  # pointing back at the older version
    write_inputs(root, countries_table())  # the older values again: -23 % against the newest
    with pytest.raises(GeodeckError, match=r"suspicious change.* against 2026\.11\.1"):
        build(root, game_dir, date(2026, 11, 30))


def test_a_version_renamed_in_without_latest_is_recovered_not_duplicated(built, monkeypatch):
    root, game_dir = built
    change(root, "highest_point_m", add=10)  # below the 50 m threshold: publishes without --accept
    write = atomic.write_text

    def killed_before_latest(path, text):
        if path.name == "LATEST":
            raise KeyboardInterrupt  # the run dies between the version folder's rename and LATEST
        write(path, text)

    monkeypatch.setattr(atomic, "write_text", killed_before_latest)
    with pytest.raises(KeyboardInterrupt):
        build(root, game_dir)
    monkeypatch.undo()
    assert (game_dir / "LATEST").read_text() == "2026.11.0\n" and (game_dir / "2026.11.1").is_dir()
    assert integrity.folder_problems(game_dir) == [
        f"{game_dir / 'LATEST'} names 2026.11.0, but the newest version is 2026.11.1; `geodeck build` points it there"
    ]
    again = build(root, game_dir)
    assert (again.version, again.published) == ("2026.11.1", False)  # not a duplicate 2026.11.2
    assert listing(game_dir) == ["2026.11.0", "2026.11.1", "LATEST"]
    assert (game_dir / "LATEST").read_text() == "2026.11.1\n" and integrity.folder_problems(game_dir) == []


def test_a_stale_staging_folder_is_removed_by_the_next_build(built):
    root, game_dir = built
    staging = game_dir / ".2026.11.1.k1ll3d"
    staging.mkdir()
    (staging / "deck.json").write_text("{")
    os.utime(staging, (1e9, 1e9))  # left long ago by a killed run
    half_written = game_dir / ".LATEST.x1y2.tmp"
    half_written.write_text("2026.1")
    os.utime(half_written, (1e9, 1e9))  # a LATEST write killed long ago
    fresh = game_dir / ".2026.11.2.inprogress"
    fresh.mkdir()  # a publish in progress elsewhere: not touched
    assert len(integrity.folder_problems(game_dir)) == 3
    assert build(root, game_dir).published is False
    assert listing(game_dir) == [".2026.11.2.inprogress", "2026.11.0", "LATEST"]


def test_latest_is_written_last_and_read_back(built, monkeypatch):
    root, game_dir = built
    change(root, "highest_point_m", add=10)
    monkeypatch.setattr(versions, "latest", lambda _: "2026.11.0")  # LATEST does not read back as written
    with pytest.raises(GeodeckError, match=r"LATEST does not read back as 2026\.11\.1"):
        build(root, game_dir)


def _edit_csv(folder):
    path = folder / "deck.csv"
    path.write_text(path.read_text().replace("lt-", "xx-", 1))


def _edit_datapackage(folder):
    path = folder / "datapackage.json"
    package = json.loads(path.read_text())
    package["resources"][0]["bytes"] += 1
    path.write_text(json.dumps(package))


def _edit_manifest_count(folder):
    path = folder / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "cards": 3}))


BROKEN = {
    "deck.csv garbage": (lambda f: (f / "deck.csv").write_text("garbage"), "deck.csv does not hold exactly"),
    "deck.csv edited": (_edit_csv, "deck.csv does not hold exactly the cards of deck.json"),
    "datapackage garbage": (lambda f: (f / "datapackage.json").write_text("[]"), "datapackage.json is not a data"),
    "datapackage bytes": (_edit_datapackage, "datapackage.json does not list deck.csv with its byte count"),
    "changelog": (lambda f: (f / "CHANGELOG.md").write_text("# hi\n"), "CHANGELOG.md does not start with"),
    "changelog gone": (lambda f: (f / "CHANGELOG.md").unlink(), "CHANGELOG.md does not exist"),
    "manifest count": (_edit_manifest_count, "manifest.json does not count the 128 cards"),
    "latest garbage": (lambda f: (f.parent / "LATEST").write_text("x"), "LATEST is not a file naming a version"),
    "latest missing": (lambda f: (f.parent / "LATEST").unlink(), "LATEST is missing, but the newest version is"),
    "latest older": (lambda f: (f.parent / "LATEST").write_text("2026.11.0\n"), "LATEST names 2026.11.0, but"),
    "staging": (lambda f: (f.parent / ".2026.11.2.abcd").mkdir(), ".2026.11.2.abcd is the staging folder"),
    "renamed in": (lambda f: shutil.copytree(f, f.parent / "2099.01.0"), "but the newest version is 2099.01.0"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_verify_names_each_inconsistent_file(decks, geodeck, broken):
    edit, phrase = BROKEN[broken]
    edit(decks / GAME / (decks / GAME / "LATEST").read_text().strip())
    code, output = geodeck(["verify", GAME])
    assert code == 1 and phrase in output and "Traceback" not in output, output


def test_diff_names_a_corrupted_geo_table_and_the_step_that_rebuilds_it(built, geodeck):
    root, game_dir = built
    (root / "geo" / "countries.parquet").write_bytes(b"PAR1 not parquet")
    with pytest.raises(GeodeckError, match=r"countries\.parquet is corrupted .*`geodeck build --stage geo-countries`"):
        stage.compare(
            games.get(GAME), decks_dir=game_dir.parent, build_root=root, rebuild=graph.rebuild(games.get(GAME))
        )
    code, output = geodeck(["diff", GAME], GEODECK_BUILD=str(root))  # a traceback before
    assert code == 2 and "countries.parquet is corrupted" in output and len(output.strip().splitlines()) == 1
