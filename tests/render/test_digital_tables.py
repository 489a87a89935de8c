"""Digital tables. Tabletop Simulator (`geodeck export GAME --service tts`): the saved object read as TTS
reads it, each card's CardID pointing at its own face on the right sheet, the sheets' sizes, the back (or
back sheets), for a built-in deck, a region deck and a draft (custom) deck. Images and a CSV (`--service
csv`): a face per card and a row per card with its values in the export language."""

import csv
import dataclasses
import io
import json
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import services, tts

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
TTS_MAX_PX = 4096  # TTS's knowledge base: keep images under 4096 × 4096


def deck(game: str, cards: int | None = None) -> dict:
    data = json.loads((FIXTURES / f"{game}.deck.json").read_text(encoding="utf-8"))
    return {**data, "cards": data["cards"][:cards]}


def unzip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def loaded(files: dict[str, bytes]) -> list[dict]:
    """The deck as TTS builds it from the saved object: per card, its nickname, face and back, each cut from
    the sheet its CardID names (sheet = CardID // 100, slot = CardID % 100, row by row in NumWidth ×
    NumHeight), the sheet's image (FaceURL, BackURL resolved to the zip's files) split evenly by the grid."""
    (name,) = [n for n in files if n.endswith(".json")]
    saved = json.loads(files[name])
    (deck_object,) = saved["ObjectStates"]
    assert deck_object["Name"] == "DeckCustom"
    cards = deck_object["ContainedObjects"]
    assert deck_object["DeckIDs"] == [card["CardID"] for card in cards]
    out = []
    for card in cards:
        assert card["Name"] == "Card"
        sheet, slot = divmod(card["CardID"], 100)
        entry = card["CustomDeck"][str(sheet)]
        assert entry == deck_object["CustomDeck"][str(sheet)]
        across, down = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= across <= 10 and 1 <= down <= 7 and slot < across * down
        face_sheet = Image.open(io.BytesIO(files[entry["FaceURL"]]))
        assert max(face_sheet.size) <= TTS_MAX_PX and face_sheet.width % across == face_sheet.height % down == 0
        width, height = face_sheet.width // across, face_sheet.height // down
        box = (
            (slot % across) * width,
            (slot // across) * height,
            (slot % across + 1) * width,
            (slot // across + 1) * height,
        )
        back: Image.Image = Image.open(io.BytesIO(files[entry["BackURL"]]))
        if entry["UniqueBack"]:
            assert back.size == face_sheet.size
            back = back.crop(box)
        out.append(
            {"nickname": card["Nickname"], "face": face_sheet.crop(box), "back": back, "size": (width, height), **entry}
        )
    return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def test_a_full_sheet_is_within_tts_limits():
    service = services.load("tts")
    assert service.sheet == (10, 7) and tts.grid_of(70, 10) == (10, 7) and tts.grid_of(4, 10) == (4, 1)
    assert (10 * service.width_px, 7 * service.height_px) == (4090, 3997)
    assert abs(service.width_px / service.height_px - 63 / 88) < 0.002  # the card's shape


@pytest.mark.mirror
def test_each_card_id_shows_its_own_face_on_the_right_sheet(store, tmp_path):
    """Ten cards on sheets of at most 3 × 2: sheet 1 full, sheet 2 a 3 × 2 grid for its 4 cards; every
    CardID's slot holds that card's face (compared with the card exported alone) and all share one back."""
    small = dataclasses.replace(services.load("tts"), sheet=(3, 2))
    cards = deck("world-game")["cards"]
    result = services.export(games.get("world-game"), deck("world-game"), small, store, out=tmp_path / "w.zip")
    files = unzip(result.path)
    assert sorted(n for n in files if n.endswith(".png")) == ["back.png", "sheet-1.png", "sheet-2.png"]
    deck_ = loaded(files)
    english = [card["fields"]["name_en"] for card in cards]
    assert [card["nickname"] for card in deck_] == english and len(deck_) == len(cards) == 10
    assert [(c["NumWidth"], c["NumHeight"]) for c in deck_] == [(3, 2)] * 10
    assert all(card["size"] == (409, 571) and not card["UniqueBack"] and card["BackIsHidden"] for card in deck_)
    assert Image.open(io.BytesIO(files["sheet-2.png"])).size == (3 * 409, 2 * 571)
    assert len({card["face"].tobytes() for card in deck_}) == 10 and all(
        same(c["back"], deck_[0]["back"]) for c in deck_
    )
    assert [
        c["CardID"]
        for c in json.loads(files[next(n for n in files if n.endswith(".json"))])["ObjectStates"][0]["ContainedObjects"]
    ] == [100, 101, 102, 103, 104, 105, 200, 201, 202, 203]
    seventh = cards[7]["id"]  # on sheet 2, slot 1
    alone = unzip(
        services.export(
            games.get("world-game"), deck("world-game"), small, store, out=tmp_path / "one.zip", only=(seventh,)
        ).path
    )
    assert same(loaded(alone)[0]["face"], deck_[7]["face"])


@pytest.mark.mirror
def test_different_backs_are_back_sheets_and_the_export_is_deterministic(store, tmp_path):
    """Deutschland's backs carry each place's numbers: a back sheet of the same grid, `UniqueBack`."""
    tts_ = services.load("tts")
    first = services.export(games.get("deutschland"), deck("deutschland", 3), tts_, store, out=tmp_path / "a.zip")
    again = services.export(games.get("deutschland"), deck("deutschland", 3), tts_, store, out=tmp_path / "b.zip")
    assert first.path.read_bytes() == again.path.read_bytes()
    files = unzip(first.path)
    deck_ = loaded(files)
    assert sorted(n for n in files if n.endswith(".png")) == ["back-sheet-1.png", "sheet-1.png"]
    assert all(card["UniqueBack"] and card["BackURL"] == "back-sheet-1.png" for card in deck_)
    assert len({card["back"].tobytes() for card in deck_}) == 3
    assert (deck_[0]["NumWidth"], deck_[0]["NumHeight"]) == (3, 1)
    text = files["README.txt"].decode()
    assert "Cloud Manager" in text and "Saved Objects" in text and "back-sheet-N.png" in text


@pytest.mark.mirror
def test_a_region_deck_and_a_draft_load_as_decks(geodeck, tmp_path):
    """A published region deck (two of its cards) and a deck.json that is not published, from the command."""
    from pipeline.decks import published

    region = published.deck(games.get("region-fra"))[1]
    ids = [card["id"] for card in region["cards"][:2]]
    code, text = geodeck(
        [
            "export",
            "region-fra",
            "--service",
            "tts",
            "--cards",
            ",".join(ids),
            "--lang",
            "fr",
            "--out",
            tmp_path / "r.zip",
        ]
    )
    assert code == 0 and "2 cards on 1 sheet and 1 sheet of backs for Tabletop Simulator" in text, text
    names = [card["fields"]["name_fr"] for card in region["cards"][:2]]
    assert [card["nickname"] for card in loaded(unzip(tmp_path / "r.zip"))] == names
    world = published.deck(games.get("world-game"))[1]
    draft = tmp_path / "my-deck.json"
    draft.write_text(json.dumps({**world, "version": "my-own"}), encoding="utf-8")
    ids = [card["id"] for card in world["cards"][-2:]]
    code, text = geodeck(
        ["export", "--deck", draft, "--service", "tts", "--cards", ",".join(ids), "--out", tmp_path / "d.zip"]
    )
    assert code == 0, text
    files = unzip(tmp_path / "d.zip")
    assert len(loaded(files)) == 2
    (saved,) = [json.loads(data) for name, data in files.items() if name.endswith(".json")]
    assert "draft" in saved["ObjectStates"][0]["Nickname"]


@pytest.mark.mirror
def test_images_and_a_csv_name_every_card_in_the_export_language(store, tmp_path):
    cards = deck("world-game", 3)["cards"]
    result = services.export(
        games.get("world-game"),
        deck("world-game", 3),
        services.load("csv"),
        store,
        lang=languages.language("de"),
        out=tmp_path / "c.zip",
    )
    files = unzip(result.path)
    rows = list(csv.DictReader(io.StringIO(files["cards.csv"].decode())))
    assert [row["id"] for row in rows] == [card["id"] for card in cards]
    assert [row["name"] for row in rows] == [card["fields"]["name_de"] for card in cards]
    assert rows[2]["capitals"] == "; ".join(cards[2]["fields"]["capitals_de"]) and "name_en" not in rows[0]
    assert rows[0]["area_km2"] == str(cards[0]["fields"]["area_km2"])
    for row in rows:
        assert Image.open(io.BytesIO(files[row["front"]])).size == (409, 571) and row["back"] == "back.png"
    assert sorted(n for n in files if n.endswith(".png")) == ["back.png", *(row["front"] for row in rows)]
