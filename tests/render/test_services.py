"""Card-service exports (`geodeck export GAME --service NAME`): exact pixel sizes, one shared back, the deck
list, the zip, and the warnings about deck sizes and the safe zone."""

import csv
import dataclasses
import io
import re
import threading
import zipfile
from pathlib import Path

import pytest
from fixtures.tiny.games.decks import print_deck
from PIL import Image, ImageCms

from pipeline.games import registry as games
from pipeline.render import faces, services

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"


def deck(game: str, cards: int | None = None) -> dict:
    data = print_deck(game)
    return {**data, "cards": data["cards"][:cards]}


def unzip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


WHITE = (255, 255, 255)


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def rows(files: dict[str, bytes]) -> list[dict]:
    return list(csv.DictReader(io.StringIO(files["decklist.csv"].decode())))


@pytest.mark.mirror
@pytest.mark.parametrize("name", ["mpc", "printerstudio", "tgc"])
def test_every_slot_of_the_deck_has_a_face_of_the_services_exact_size(store, tmp_path, name):
    """2 cards fill 2 of the 18 slots of the smallest deck: 16 blank filler faces follow them, numbered on."""
    service = services.load(name)
    result = services.export(
        games.get("world-game"), deck("world-game", 2), service, store, out=tmp_path / "x.zip", jobs=1
    )
    files = unzip(result.path)
    fronts = sorted(n for n in files if n.startswith("fronts/"))
    fillers = [f"fronts/{i:03d}-filler.png" for i in range(3, 19)]
    assert fronts == ["fronts/001-wg-DEU.png", "fronts/002-wg-STP.png", *fillers]
    assert sorted(n for n in files if n.endswith(".png")) == ["back.png", *fronts]
    for name_, data in files.items():
        if name_.endswith(".png"):
            face = image(data)
            assert face.size == (service.width_px, service.height_px) and round(face.info["dpi"][0]) == 300
            profile = ImageCms.ImageCmsProfile(io.BytesIO(face.info["icc_profile"]))
            assert face.mode == "RGB" and ImageCms.getProfileDescription(profile).startswith("sRGB")
    assert image(files[fillers[0]]).getcolors() == [(service.width_px * service.height_px, WHITE)]
    assert len(image(files["fronts/001-wg-DEU.png"]).getcolors(1 << 20) or []) > 100  # a card, not a blank
    listed = rows(files)
    assert [r["number"] for r in listed] == [str(i) for i in range(1, 19)] and {r["deck"] for r in listed} == {"1"}
    assert [r["id"] for r in listed] == ["wg-DEU", "wg-STP", *[""] * 16]
    assert [r["front"] for r in listed] == fronts and all(r["back"] == "back.png" for r in listed)


def test_mpc_fills_198_slots_and_tgc_splits_into_its_108_and_90_card_decks():
    """The World Game's 194 cards: MakePlayingCards' deck of 198 ends in 4 fillers; The Game Crafter's at most
    108 a deck makes 108 + 90, the second deck's last 4 slots fillers."""
    fronts = [services.Face(f"face {i}".encode(), str(i), False) for i in range(194)]
    cards = [{"id": f"c{i}"} for i in range(194)]
    rendered = services.Rendered(cards, fronts, [fronts[0]] * 194, "en", "1", None)  # type: ignore[arg-type]
    mpc, tgc = services.load("mpc"), services.load("tgc")
    assert mpc.order(194)[0] == [198] and tgc.order(194)[0] == [108, 90]
    for service, decks in ((mpc, [1] * 198), (tgc, [1] * 108 + [2] * 90)):
        slots = services.slots(rendered, service, service.order(194)[0])
        assert [slot.deck for slot in slots] == decks and [slot.number for slot in slots] == list(range(1, 199))
        assert [slot.card for slot in slots] == [*cards, None, None, None, None]
        assert [slot.front for slot in slots[:194]] == [face.png for face in fronts]
        assert image(slots[-1].front).size == (service.width_px, service.height_px)


@pytest.mark.mirror
def test_tgc_gets_a_folder_per_deck_and_the_deck_in_the_deck_list(store, tmp_path):
    """At most 2 cards a deck (The Game Crafter's 108 made small): 3 cards are decks 1 and 2, each with its
    fronts and its back, the last slot a filler."""
    small = dataclasses.replace(services.load("tgc"), deck_sizes=(2,), per_deck=2)
    result = services.export(games.get("world-game"), deck("world-game", 3), small, store, out=tmp_path / "t.zip")
    files = unzip(result.path)
    assert sorted(n for n in files if n.endswith(".png")) == [
        "deck-1/back.png",
        "deck-1/fronts/001-wg-DEU.png",
        "deck-1/fronts/002-wg-STP.png",
        "deck-2/back.png",
        "deck-2/fronts/003-wg-CIV.png",
        "deck-2/fronts/004-filler.png",
    ]
    assert [(r["deck"], r["id"], r["back"]) for r in rows(files)] == [
        ("1", "wg-DEU", "deck-1/back.png"),
        ("1", "wg-STP", "deck-1/back.png"),
        ("2", "wg-CIV", "deck-2/back.png"),
        ("2", "", "deck-2/back.png"),
    ]
    assert "3 cards: order 2 × 2 cards" in files["ORDER.txt"].decode()


@pytest.mark.mirror
def test_drivethrucards_gets_one_pdf_each_front_followed_by_its_back(store, tmp_path):
    """825 × 1125 px at 300 dpi are 2.75 × 3.75 in pages, the 2.5 × 3.5 in card their TrimBox; 2 cards and 16
    fillers make the 18-card deck: 36 pages, fronts on odd pages, the shared back on even ones; the same
    deck, the same bytes."""
    import pikepdf

    service = services.load("drivethrucards")
    result = services.export(games.get("world-game"), deck("world-game", 2), service, store, out=tmp_path / "d.zip")
    again = services.export(games.get("world-game"), deck("world-game", 2), service, store, out=tmp_path / "e.zip")
    assert result.path.read_bytes() == again.path.read_bytes()
    files = unzip(result.path)
    assert sorted(files) == ["ORDER.txt", "cards.pdf", "decklist.csv"]
    assert "asks for PDF/X-1a:2003 (CMYK); cards.pdf holds the sRGB faces" in files["ORDER.txt"].decode()
    pdf = pikepdf.open(io.BytesIO(files["cards.pdf"]))
    assert len(pdf.pages) == 36
    images, objects = [], []
    for page in pdf.pages:
        assert [float(v) for v in page.MediaBox] == [0, 0, 198, 270]
        assert [float(v) for v in page.TrimBox] == [9, 9, 189, 261]  # 1/8 in = 37.5 px = 9 pt off each edge
        (raster,) = page.get_images().values()
        assert (raster.Width, raster.Height) == (825, 1125)
        images.append(raster.read_raw_bytes())
        objects.append(raster.objgen)
    assert len(set(images[1::2])) == 1 and len(set(objects[1::2])) == 1  # every back the same, stored once
    assert len({images[0], images[2], images[4]}) == 3 and images[4:36:2] == [images[4]] * 16  # 2 cards, fillers
    assert [(r["front"], r["back"]) for r in rows(files)][:2] == [
        ("cards.pdf#page=1", "cards.pdf#page=2"),
        ("cards.pdf#page=3", "cards.pdf#page=4"),
    ]


@pytest.mark.parametrize("name", ["mpc", "printerstudio", "tgc", "drivethrucards"])
def test_order_notes_numbers_add_up(name):
    """The image less what the cut takes off each edge is the trim (1/8 in at 300 dpi is 37.5 px, not 38)."""
    service = services.load(name)
    text = services._order_text({"game": "g"}, "1", service, 20, [36], [])
    size = re.search(r"(\d+) × (\d+) px at 300 dpi, cut to (\d+) × (\d+) px \(([\d.]+) px off each edge\)", text)
    assert size, text
    width, height, trim_width, trim_height, bleed = map(float, size.groups())
    assert (width - 2 * bleed, height - 2 * bleed) == (trim_width, trim_height) == (750, 1050)
    assert "20 cards: order 1 × 36 cards" in text


def test_the_readme_lists_exactly_the_services():
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    (listed,) = re.findall(r"geodeck export GAME --service ([\w|]+)", readme)
    assert listed.split("|") == services.names()


@pytest.mark.mirror
def test_world_game_export_has_one_back_a_deck_list_and_is_deterministic(store, tmp_path):
    mpc = services.load("mpc")
    first = services.export(games.get("world-game"), deck("world-game", 4), mpc, store, out=tmp_path / "a.zip", jobs=2)
    again = services.export(games.get("world-game"), deck("world-game", 4), mpc, store, out=tmp_path / "b.zip", jobs=1)
    assert first.path.read_bytes() == again.path.read_bytes()
    files = unzip(first.path)
    assert first.backs == 1 and [n for n in files if "back" in n] == ["back.png"]
    listed = rows(files)
    assert [r["id"] for r in listed][:4] == [c["id"] for c in deck("world-game", 4)["cards"]]
    assert all(r["back"] == "back.png" and r["front"] in files for r in listed)
    assert "order 1 × 18 cards" in files["ORDER.txt"].decode()


@pytest.mark.mirror
def test_different_backs_are_each_kept(store, tmp_path):
    """Deutschland's backs carry each place's numbers: one back per card, numbered like the fronts (the
    fillers' backs blank)."""
    result = services.export(
        games.get("deutschland"), deck("deutschland", 3), services.load("tgc"), store, out=tmp_path / "d.zip", jobs=1
    )
    backs = sorted(n for n in unzip(result.path) if n.startswith("backs/"))
    ids = [card["id"] for card in deck("deutschland", 3)["cards"]]
    assert result.backs == 3 and backs[:3] == [f"backs/{i:03d}-{id_}.png" for i, id_ in enumerate(ids, 1)]
    assert backs[3:] == [f"backs/{i:03d}-filler.png" for i in range(4, 19)]


@pytest.mark.mirror
def test_text_in_the_safe_zone_is_warned(store, tmp_path):
    strict = dataclasses.replace(services.load("mpc"), safe_px=200)
    result = services.export(
        games.get("world-game"), deck("world-game", 2), strict, store, out=tmp_path / "s.zip", jobs=1
    )
    assert any("2 cards have text within MakePlayingCards's safe zone" in w for w in result.warnings)


def test_order_says_how_many_decks_and_warns_about_blanks():
    mpc, tgc = services.load("mpc"), services.load("tgc")
    assert mpc.order(194)[0] == [198]
    assert "order 1 × 198 cards; the 4 empty slots get blank filler faces" in mpc.order(194)[1][0]
    decks, warnings = tgc.order(120)
    assert decks == [108, 18] and "order 1 × 108 + 1 × 18 cards; the 6 empty slots get blank" in warnings[0]
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
    """A stand-in for `faces._faces` saying, per page, whether its worker ends with its parent."""
    return ["end-with-parent" in {thread.name for thread in threading.enumerate()}] * len(pages)


def test_rasterising_workers_end_with_the_export(monkeypatch):
    """A killed `geodeck export` left its rasterising processes running until they were done."""
    monkeypatch.setattr(faces, "_faces", _workers_end_with_parent)
    assert faces._rasterise(b"", list(range(8)), 1.0, services.load("mpc"), jobs=2) == [True] * 8
