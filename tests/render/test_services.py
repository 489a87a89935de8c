"""Card-service exports (`geodeck export GAME --service NAME`): exact pixel sizes, one shared back, the deck
list, the zip, and the warnings about deck sizes and the safe zone."""

import csv
import dataclasses
import io
import threading
import zipfile
from pathlib import Path

import pytest
from fixtures.tiny.games.decks import print_deck
from PIL import Image, ImageCms

from pipeline.games import registry as games
from pipeline.render import services

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"


def deck(game: str, cards: int | None = None) -> dict:
    data = print_deck(game)
    return {**data, "cards": data["cards"][:cards]}


def unzip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


@pytest.mark.mirror
@pytest.mark.parametrize("name", ["mpc", "printerstudio", "tgc", "drivethrucards"])
def test_every_face_has_the_services_exact_pixel_size(store, tmp_path, name):
    service = services.load(name)
    result = services.export(
        games.get("world-game"), deck("world-game", 2), service, store, out=tmp_path / "x.zip", jobs=1
    )
    files = unzip(result.path)
    images = {n: Image.open(io.BytesIO(data)) for n, data in files.items() if n.endswith(".png")}
    assert sorted(images) == ["back.png", "fronts/001-wg-DEU.png", "fronts/002-wg-STP.png"]
    for image in images.values():
        assert image.size == (service.width_px, service.height_px)
        profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
        assert image.mode == "RGB" and ImageCms.getProfileDescription(profile).startswith("sRGB")


@pytest.mark.mirror
def test_world_game_export_has_one_back_a_deck_list_and_is_deterministic(store, tmp_path):
    mpc = services.load("mpc")
    first = services.export(games.get("world-game"), deck("world-game", 4), mpc, store, out=tmp_path / "a.zip", jobs=2)
    again = services.export(games.get("world-game"), deck("world-game", 4), mpc, store, out=tmp_path / "b.zip", jobs=1)
    assert first.path.read_bytes() == again.path.read_bytes()
    files = unzip(first.path)
    assert first.backs == 1 and [n for n in files if "back" in n] == ["back.png"]
    rows = list(csv.DictReader(io.StringIO(files["decklist.csv"].decode())))
    assert [r["id"] for r in rows] == [c["id"] for c in deck("world-game", 4)["cards"]]
    assert all(r["back"] == "back.png" and r["front"] in files for r in rows)
    assert "order 1 × 18 cards" in files["ORDER.txt"].decode()


@pytest.mark.mirror
def test_different_backs_are_each_kept(store, tmp_path):
    """Deutschland's backs carry each place's numbers: one back per card, numbered like the fronts."""
    result = services.export(
        games.get("deutschland"), deck("deutschland", 3), services.load("tgc"), store, out=tmp_path / "d.zip", jobs=1
    )
    backs = sorted(n for n in unzip(result.path) if n.startswith("backs/"))
    assert result.backs == 3 and len(backs) == 3 and backs[0].startswith("backs/001-")


@pytest.mark.mirror
def test_text_in_the_safe_zone_is_warned(store, tmp_path):
    strict = dataclasses.replace(services.load("mpc"), safe_px=200)
    result = services.export(
        games.get("world-game"), deck("world-game", 2), strict, store, out=tmp_path / "s.zip", jobs=1
    )
    assert any("2 cards have text within MakePlayingCards's safe zone" in w for w in result.warnings)


def test_order_says_how_many_decks_and_warns_about_blanks():
    mpc, tgc = services.load("mpc"), services.load("tgc")
    assert mpc.order(194)[0] == [198] and "order 1 × 198 cards; 4 stay blank" in mpc.order(194)[1][0]
    decks, warnings = tgc.order(120)
    assert decks == [108, 18] and "order 1 × 108 + 1 × 18 cards; 6 stay blank" in warnings[0]
    assert tgc.order(194)[0] == [108, 90]
    assert tgc.order(216) == ([108, 108], [])
    assert services.ordered([108, 108, 18]) == "2 × 108 + 1 × 18 cards"


def test_unknown_service_is_one_line(geodeck):
    code, text = geodeck(["export", "world-game", "--service", "moo"])
    assert code != 0 and "--service 'moo' is not one of: mpc, printerstudio, tgc, drivethrucards" in text
    assert "Traceback" not in text


@pytest.mark.parametrize(
    "args, out, fix",
    [
        (["export", "world-game", "--service", "mpc"], "cards/", "cards.zip"),
        (["export", "world-game", "--service", "mpc"], "cards.pdf", "cards.zip"),
        (["print", "world-game"], "cards/", "cards.pdf"),
        (["print", "world-game", "--calibration"], "sheet.zip", "sheet.pdf"),
    ],
)
def test_an_out_file_of_another_kind_is_refused_before_the_work(geodeck, tmp_path, args, out, fix):
    code, text = geodeck([*args, "--out", f"{tmp_path}/{out}"])
    assert code == 2 and f"name one ending in {Path(fix).suffix} (e.g. --out {tmp_path / fix})" in text
    assert "Traceback" not in text and list(tmp_path.iterdir()) == []


def _workers_end_with_parent(pdf, pages, scale, service) -> list[bool]:
    """A stand-in for `services._faces` saying, per page, whether its worker ends with its parent."""
    return ["end-with-parent" in {thread.name for thread in threading.enumerate()}] * len(pages)


def test_rasterising_workers_end_with_the_export(monkeypatch):
    """A killed `geodeck export` left its rasterising processes running until they were done."""
    monkeypatch.setattr(services, "_faces", _workers_end_with_parent)
    assert services._rasterise(b"", list(range(8)), 1.0, services.load("mpc"), jobs=2) == [True] * 8
