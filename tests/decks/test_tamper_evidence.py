"""Published decks are tamper-evident: every reader (print, diff, play-check, build, verify) refuses a
deck.json that no longer matches its manifest, with one line naming the file and the fix."""

import json
from datetime import date

import pytest
from fixtures.tiny.decks.synthetic import write_inputs

from pipeline.decks import published, stage
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.paths import DECKS_DIR

GAME = "laender-toppen"
VERSION = (DECKS_DIR / GAME / "LATEST").read_text().strip()  # the committed deck the commands read


def zugspitze_to_2964(decks) -> None:
    """The issue's edit: Germany's highest peak 2963 -> 2964 m in the published deck.json."""
    path = decks / GAME / VERSION / "deck.json"
    text = path.read_text(encoding="utf-8")
    assert text.count('"highest_peak_m": 2963,') == 1
    path.write_text(text.replace('"highest_peak_m": 2963,', '"highest_peak_m": 2964,'), encoding="utf-8")


def test_committed_decks_verify(decks, geodeck):
    code, output = geodeck(["verify"])
    assert code == 0, output
    versions, games = list(DECKS_DIR.glob("*/*/deck.json")), list(DECKS_DIR.glob("*/LATEST"))
    assert output.count(" ok ") == len(versions) + len(games)  # every published version and every LATEST


def test_reader_refuses_a_hand_edited_deck(decks):
    zugspitze_to_2964(decks)
    with pytest.raises(GeodeckError, match=r"deck\.json was modified after publishing.*git checkout -- "):
        published.deck(games.get(GAME))
    with pytest.raises(GeodeckError, match="modified after publishing"):
        published.read(decks / GAME / VERSION / "deck.json", games.get(GAME))


@pytest.mark.parametrize(
    "command",
    [
        ["print", GAME, "--out", "{tmp}/x.pdf"],
        ["print", GAME, "--what", "accessories", "--out", "{tmp}/x.pdf"],
        ["diff", GAME, VERSION, VERSION],
        ["play-check", GAME, "--games", "10"],
        ["play-check", GAME, "--deck", f"{{decks}}/laender-toppen/{VERSION}/deck.json", "--games", "10"],
        ["verify", GAME],
        ["verify"],
    ],
)
def test_every_command_refuses_the_edited_deck(decks, tmp_path, command, geodeck):
    zugspitze_to_2964(decks)
    code, output = geodeck([a.format(tmp=tmp_path, decks=decks) for a in command])
    assert code != 0
    assert f"laender-toppen/{VERSION}/deck.json" in output
    assert "modified after publishing" in output
    assert "Traceback" not in output
    assert not (tmp_path / "x.pdf").exists()


def test_build_refuses_to_publish_over_an_edited_deck(tmp_path):
    root = write_inputs(tmp_path / "build")
    decks = tmp_path / "decks"
    stage.build_deck(games.get(GAME), date(2026, 11, 29), decks_dir=decks, build_root=root)
    path = decks / GAME / "2026.11.0" / "deck.json"  # the first version of a new folder
    deck = json.loads(path.read_text())
    deck["cards"][0]["fields"]["highest_peak_m"] += 1
    path.write_text(json.dumps(deck))
    with pytest.raises(GeodeckError, match="modified after publishing"):
        stage.build_deck(games.get(GAME), date(2026, 11, 30), decks_dir=decks, build_root=root)
    assert sorted(p.name for p in (decks / GAME).iterdir()) == ["2026.11.0", "LATEST"]


def test_version_and_manifest_are_checked(decks):
    path = decks / GAME / VERSION / "deck.json"
    deck = json.loads(path.read_text())
    path.write_text(json.dumps({**deck, "version": "2026.11.7"}))
    with pytest.raises(GeodeckError, match=r"names laender-toppen 2026\.11\.7, its manifest"):
        published.deck(games.get(GAME))
    path.write_text(json.dumps(deck))
    (path.parent / "manifest.json").unlink()
    with pytest.raises(GeodeckError, match=r"manifest\.json is missing, so .*deck\.json cannot be verified"):
        published.deck(games.get(GAME))
