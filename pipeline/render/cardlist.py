"""Images and a spreadsheet for digital tables that build a deck from them (Screentop, PlayingCards.io …;
`geodeck export GAME --service csv`, docs/printing.md "Digital tables"): one PNG per face cut to the card,
and `cards.csv`, a row per card with its images' names and its values in the export language."""

from pathlib import Path

from pipeline.i18n import registry
from pipeline.i18n.language import Language
from pipeline.render import faces as base

README = """{title}: {cards} cards for a digital table (Screentop, PlayingCards.io …)

fronts/NNN-<id>.png: each card's front, {width} × {height} px, in deck order.
{backs}
cards.csv: a row per card: number, id, kind, name, front, back (the image files) and the card's values,
in the export language ({lang}).

Upload the images to the table's project, then create the cards from cards.csv, matching its front and
back columns to the uploaded images (or build one card per front image and take the values from the CSV).
"""


def write(deck: dict, faces: base.Rendered, service: base.Service, path: Path) -> base.ExportResult:
    """The zip of face images, cards.csv and README.txt at `path`."""
    files: dict[str, bytes] = {}
    rows = []
    for i, (card, front, back) in enumerate(zip(faces.cards, faces.fronts, faces.backs), 1):
        front_name = f"fronts/{i:03d}-{card['id']}.png"
        back_name = "back.png" if faces.shared_back else f"backs/{i:03d}-{card['id']}.png"
        files[front_name] = front.png
        files.setdefault(back_name, back.png)
        rows.append(({"number": i, "id": card["id"], "kind": card.get("kind", "")}, front_name, back_name, card))
    values = [localised(card.get("fields", {}), faces.lang) for *_, card in rows]
    columns = list(dict.fromkeys(key for fields in values for key in fields if key != "name"))
    files["cards.csv"] = base.csv_bytes(
        ["number", "id", "kind", "name", "front", "back", *columns],
        [
            [*head.values(), fields.get("name", ""), front, back, *(fields.get(key, "") for key in columns)]
            for (head, front, back, _), fields in zip(rows, values)
        ],
    )
    backs = "back.png: the back every card shares." if faces.shared_back else "backs/NNN-<id>.png: each card's back."
    files["README.txt"] = README.format(
        title=f"{deck.get('title', deck['game'])} {faces.version}",
        cards=len(rows),
        width=service.width_px,
        height=service.height_px,
        backs=backs,
        lang=faces.lang.code,
    ).encode()
    base.write_zip(path, files)
    count = 1 if faces.shared_back else len(rows)
    summary = f"{len(rows)} fronts and {count} {'back' if count == 1 else 'backs'} with cards.csv for a digital table"
    return base.ExportResult(path, len(rows), count, [len(rows)], [], path.stat().st_size, summary)


def localised(fields: dict, lang: Language) -> dict[str, str]:
    """A card's values as text for one language: `name_<lang>` becomes `name`, the other languages' values
    are left out, a list is joined with "; "."""
    suffixes = tuple(f"_{code}" for code in registry.codes())
    out: dict[str, str] = {}
    for key, value in fields.items():
        if key.endswith(suffixes) and not key.endswith(f"_{lang.code}"):
            continue
        base = key.removesuffix(f"_{lang.code}")
        if base != key or base not in out:
            out[base] = "; ".join(map(str, value)) if isinstance(value, list) else "" if value is None else str(value)
    return out
