"""Tabletop Simulator (`geodeck export GAME --service tts`): the deck as TTS's custom deck sheets and a saved
object that loads them as one deck (docs/printing.md, "Digital tables").

Faces are cut to the card (no bleed) at `service` size (409 × 571 px) and laid out on sheets of at most
`service.sheet` (10 × 7) faces, so a full sheet is 4090 × 3997 px, within the 4096 px TTS's knowledge base
advises. Backs that are all equal are one `back.png`; otherwise each sheet has a back sheet of the same grid
(TTS's `UniqueBack`). The saved object is TTS's save format: `ObjectStates` holding one `DeckCustom`
whose `CustomDeck` has an entry per sheet (key 1, 2 …) and whose cards have `CardID` = sheet × 100 + slot
(slot 0 at the top left, row by row). TTS loads images from URLs; the object names the images by their
file names, which README.txt tells how to replace by the URLs TTS's Cloud Manager (or a file:/// path) gives.
"""

import hashlib
import io
import json
import math
from pathlib import Path

from pipeline.render import faces as base

CARD_TYPE = 0  # TTS's card shape: rectangle with rounded corners (poker cards)
README = """{title}: {cards} cards for Tabletop Simulator

{sheets}
{backs}
{saved_object}: the saved object, a deck of {cards} cards named by the card names ({lang}).
decklist.csv: each card's CardID, sheet, slot (0 at the top left, row by row), id, kind and name.

Tabletop Simulator loads images from URLs, so the saved object names each image by its file name
("sheet-1.png") and these have to be replaced once by where TTS can load them:

1. In Tabletop Simulator, Modding > Cloud Manager: upload every PNG of this zip; the Cloud Manager
   gives each uploaded file a URL.
   For play on this computer alone a local path works too: file:///C:/Users/you/{folder}/sheet-1.png
   after unpacking this zip to that folder (your own path, with forward slashes).
2. In {saved_object}, replace each "sheet-1.png" (and the others, with their quotes kept) by that URL.
3. Copy {saved_object} to Documents/My Games/Tabletop Simulator/Saves/Saved Objects/ and, in TTS,
   spawn it from Objects > Saved Objects.

The sheets hold up to {across} × {down} cards of {width} × {height} px; TTS advises images of at most
4096 × 4096 px. The back is shown for a card in another player's hand (BackIsHidden).
"""


def write(deck: dict, faces: base.Rendered, service: base.Service, path: Path, name: str) -> base.ExportResult:
    """The zip of deck sheets, back (or back sheets), saved object `<name>.json`, deck list and README.txt at
    `path`."""
    across, down = service.sheet
    per_sheet = across * down
    count = len(faces.cards)
    unique_back = not faces.shared_back
    files: dict[str, bytes] = {}
    custom = {}
    for sheet in range(1, math.ceil(count / per_sheet) + 1):
        share = range((sheet - 1) * per_sheet, min(sheet * per_sheet, count))
        grid = grid_of(len(share), across)
        files[f"sheet-{sheet}.png"] = _sheet([faces.fronts[i] for i in share], grid, service)
        if unique_back:
            files[f"back-sheet-{sheet}.png"] = _sheet([faces.backs[i] for i in share], grid, service)
        custom[sheet] = {
            "FaceURL": f"sheet-{sheet}.png",
            "BackURL": f"back-sheet-{sheet}.png" if unique_back else "back.png",
            "NumWidth": grid[0],
            "NumHeight": grid[1],
            "BackIsHidden": True,
            "UniqueBack": unique_back,
            "Type": CARD_TYPE,
        }
    if not unique_back:
        files["back.png"] = faces.backs[0].png
    title = f"{deck.get('title', deck['game'])} {faces.version}"
    cards, rows = [], []
    for i, card in enumerate(faces.cards):
        sheet, slot = i // per_sheet + 1, i % per_sheet
        nickname = card.get("fields", {}).get(faces.lang.field("name")) or card.get("fields", {}).get("name", "")
        cards.append(_card(card, nickname, sheet * 100 + slot, {str(sheet): custom[sheet]}))
        rows.append([sheet * 100 + slot, sheet, slot, card["id"], card.get("kind", ""), nickname])
    saved_object = f"{name}.json"
    files[saved_object] = (json.dumps(saved(title, cards, custom), indent=2, ensure_ascii=False) + "\n").encode()
    files["decklist.csv"] = base.csv_bytes(["CardID", "sheet", "slot", "id", "kind", "name"], rows)
    files["README.txt"] = _readme(title, faces, service, custom, unique_back, saved_object, name).encode()
    base.write_zip(path, files)
    backs = len(custom) if unique_back else 1
    sheets = f"{len(custom)} {'sheet' if len(custom) == 1 else 'sheets'}"
    summary = f"{count} cards on {sheets} and {f'{sheets} of backs' if unique_back else 'one back'} for {service.title}"
    return base.ExportResult(path, count, backs, [count], [], path.stat().st_size, summary)


def grid_of(faces: int, across: int) -> tuple[int, int]:
    """(across, down) of a sheet of `faces` faces: full rows of `across`, fewer across for fewer faces."""
    wide = min(across, faces)
    return wide, math.ceil(faces / wide)


def saved(title: str, cards: list[dict], custom: dict[int, dict]) -> dict:
    """TTS's saved-object file: a save whose `ObjectStates` is the one deck, face down."""
    return {
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": [
            {
                **_object("DeckCustom", title, title, face_down=True),
                "SidewaysCard": False,
                "DeckIDs": [card["CardID"] for card in cards],
                "CustomDeck": {str(sheet): entry for sheet, entry in custom.items()},
                "ContainedObjects": cards,
            }
        ],
    }


def _card(card: dict, name: str, card_id: int, custom: dict) -> dict:
    return {
        **_object("Card", card["id"], name, face_down=True),
        "Description": card["id"],
        "CardID": card_id,
        "SidewaysCard": False,
        "CustomDeck": custom,
    }


def _object(kind: str, key: str, nickname: str, face_down: bool) -> dict:
    """The fields every TTS object has; its GUID (6 hex digits) derived from `key`, so exports are the same."""
    return {
        "GUID": hashlib.sha256(f"{kind}:{key}".encode()).hexdigest()[:6],
        "Name": kind,
        "Transform": {
            "posX": 0.0,
            "posY": 1.0,
            "posZ": 0.0,
            "rotX": 0.0,
            "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0,
            "scaleX": 1.0,
            "scaleY": 1.0,
            "scaleZ": 1.0,
        },
        "Nickname": nickname,
        "Description": "",
        "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "HideWhenFaceDown": True,
        "Hands": kind == "Card",
    }


def _sheet(faces: list[base.Face], grid: tuple[int, int], service: base.Service) -> bytes:
    """The faces on one image of `grid` (across, down) slots, row by row from the top left."""
    from PIL import Image

    width, height = service.width_px, service.height_px
    sheet = Image.new("RGB", (grid[0] * width, grid[1] * height), "white")
    for i, face in enumerate(faces):
        image = Image.open(io.BytesIO(face.png))
        sheet.paste(image, ((i % grid[0]) * width, (i // grid[0]) * height))
    return base.png(sheet, service)


def _readme(
    title: str,
    faces: base.Rendered,
    service: base.Service,
    custom: dict[int, dict],
    unique_back: bool,
    saved_object: str,
    folder: str,
) -> str:
    def named(sheet: int, entry: dict) -> str:
        first = (sheet - 1) * service.sheet[0] * service.sheet[1]
        cards = min(len(faces.cards) - first, entry["NumWidth"] * entry["NumHeight"])
        return f"sheet-{sheet}.png: cards {first + 1}-{first + cards}, {entry['NumWidth']} × {entry['NumHeight']}"

    backs = (
        "back-sheet-N.png: the backs of sheet-N.png, each in its card's slot (UniqueBack)."
        if unique_back
        else "back.png: the back every card shares."
    )
    return README.format(
        title=title,
        cards=len(faces.cards),
        sheets="\n".join(named(sheet, entry) for sheet, entry in custom.items()),
        backs=backs,
        saved_object=saved_object,
        lang=faces.lang.code,
        folder=folder,
        across=service.sheet[0],
        down=service.sheet[1],
        width=service.width_px,
        height=service.height_px,
    )
