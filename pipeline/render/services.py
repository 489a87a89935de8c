"""Card-service exports (`geodeck export GAME --service NAME`): one image per card face at the service's exact
pixel size (pipeline/render/faces.py), for print-on-demand card services (MakePlayingCards, The Game Crafter
...; templates/services/), in the files each service asks for; Tabletop Simulator's deck sheets are
`pipeline/render/tts.py`, images and a CSV for other digital tables `pipeline/render/cardlist.py`.

Fronts are numbered in deck order; backs that are all equal are one shared `back.png`. PNGs are sRGB with the
profile embedded. The decks to order have a fixed number of slots: slots the cards leave empty get blank
filler faces, and a service that sells at most `per_deck` cards a deck gets a folder per deck. A service
that asks for one PDF (`format = "pdf"`) gets the same faces in `cards.pdf`, each front followed by its back.
With them go a deck list (CSV) and, in one zip written atomically, what to order: the decks, and a warning
for each card whose text crosses the service's safe zone.
"""

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths, readers
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import cardlist, printing, tts
from pipeline.render.faces import (
    ExportResult,
    Face,
    Rendered,
    Service,
    blank,
    csv_bytes,
    ordered,
    png,
    rendered,
    write_zip,
)

__all__ = ["ExportResult", "Face", "Rendered", "Service", "export", "load", "names", "ordered", "slots"]

SERVICES_FILE = TEMPLATES_DIR / "services" / "services.toml"


def names() -> list[str]:
    return list(_table())


def load(name: str) -> Service:
    table = _table()
    if name not in table:
        raise GeodeckError(f"--service {name!r} is not one of: {', '.join(table)} (templates/services/services.toml)")
    data = table[name]
    tuples = {key: tuple(data[key]) for key in ("trim_px", "deck_sizes", "sheet", "notes") if key in data}
    return Service(name=name, **{**data, **tuples})


def _table() -> dict:
    return readers.read_input("toml", SERVICES_FILE)


def default_output(
    deck: dict, service: Service, lang: Language, options: printing.PrintOptions, folder: Path | None = None
) -> Path:
    """`<game>-<version>-<service>[-for-sale][-subset-…]-<lang>.zip` (a draft's version `draft[-<version>]`)."""
    details = [service.name, *(["for-sale"] if options.for_sale else []), *printing.subset_details(options)]
    return (folder or paths.OUTPUT_DIR / "export") / "-".join(
        [deck["game"], published.label(deck.get("version"), options.draft), *details, f"{lang.code}.zip"]
    )


def export(
    game: GameDefinition,
    deck: dict,
    service: Service,
    store,
    lang: Language | None = None,
    out: Path | None = None,
    jobs: int | None = None,
    for_sale: bool = False,
    only: tuple[str, ...] | None = None,
    draft: bool = False,
) -> ExportResult:
    """Rasterise every card face (or those of the cards `only` names) for `service` and write the zip
    (images or PDF, deck list, order notes) atomically; `for_sale`: the layers that may not be sold replaced,
    as `geodeck print --for-sale`; `draft`: the deck is a draft, and its file and order notes say so."""
    faces = rendered(game, deck, service, store, lang, jobs, for_sale, only, draft)
    path = out or default_output(deck, service, faces.lang, faces.options)
    if service.format == "tts":
        name = default_output(deck, service, faces.lang, faces.options).stem  # not --out's: the same bytes
        return tts.write(deck, faces, service, path, name)
    if service.format == "csv":
        return cardlist.write(deck, faces, service, path)
    return _write_print(deck, faces, service, path)


@dataclass(frozen=True)
class Slot:
    """One card of a deck ordered from a service: a card of ours or a blank filler."""

    number: int  # 1, 2 … across all decks
    deck: int  # 1, 2 …
    card: dict | None  # None: a filler
    front: bytes
    back: bytes


def slots(faces: Rendered, service: Service, decks: list[int]) -> list[Slot]:
    """The decks' slots in order: the cards, then blank fillers in the slots they leave empty."""
    white = png(blank(service), service)
    cards = [(card, front.png, back.png) for card, front, back in zip(faces.cards, faces.fronts, faces.backs)]
    empty = sum(decks) - len(cards)
    filler_back = faces.backs[0].png if faces.shared_back else white
    chosen = cards + [(None, white, filler_back)] * empty
    numbers = [deck for deck, size in enumerate(decks, 1) for _ in range(size)]
    return [Slot(i, numbers[i - 1], card, front, back) for i, (card, front, back) in enumerate(chosen, 1)]


def _write_print(deck: dict, faces: Rendered, service: Service, path: Path) -> ExportResult:
    """The zip for a print-on-demand service: faces (PNGs, or one PDF), decklist.csv and ORDER.txt."""
    decks, warnings = service.order(len(faces.cards))
    crossing = [c["id"] for c, f, b in zip(faces.cards, faces.fronts, faces.backs) if f.crosses_safe or b.crosses_safe]
    if crossing:
        warnings.append(
            f"{len(crossing)} cards have text within {service.title}'s safe zone ({service.safe_px} px inside the "
            f"cut): {', '.join(crossing[:5])}{' …' if len(crossing) > 5 else ''}"
        )
    ordered_slots = slots(faces, service, decks)
    files: dict[str, bytes] = {}
    rows = []
    pages: list[bytes] = []
    for slot in ordered_slots:
        folder = f"deck-{slot.deck}/" if len(decks) > 1 else ""
        name = slot.card["id"] if slot.card else "filler"
        if service.format == "pdf":
            pages += [slot.front, slot.back]
            front_name, back_name = f"cards.pdf#page={len(pages) - 1}", f"cards.pdf#page={len(pages)}"
        else:
            front_name = f"{folder}fronts/{slot.number:03d}-{name}.png"
            back_name = f"{folder}back.png" if faces.shared_back else f"{folder}backs/{slot.number:03d}-{name}.png"
            files[front_name] = slot.front
            files.setdefault(back_name, slot.back)
        card = slot.card or {}
        fields = card.get("fields", {})
        card_name = fields.get(faces.lang.field("name")) or fields.get("name", "")
        rows.append(
            [slot.number, slot.deck, front_name, back_name, card.get("id", ""), card.get("kind", "filler"), card_name]
        )
    if pages:
        files["cards.pdf"] = _pdf(pages, service)
    files["decklist.csv"] = csv_bytes(["number", "deck", "front", "back", "id", "kind", "name"], rows)
    files["ORDER.txt"] = _order_text(deck, faces.version, service, len(faces.cards), decks, warnings).encode("utf-8")
    write_zip(path, files)
    backs = 1 if faces.shared_back else len(faces.backs)
    summary = (
        f"{len(faces.fronts)} fronts and {backs} {'back' if backs == 1 else 'backs'} for {service.title}"
        f"{' in one PDF' if pages else ''}, order {ordered(decks)}"
    )
    return ExportResult(path, len(faces.fronts), backs, decks, warnings, path.stat().st_size, summary)


def _pdf(pages: list[bytes], service: Service) -> bytes:
    """The PNGs as one PDF, a page each at the service's dpi (the image's size: 2.75 × 3.75 in for 825 × 1125 px
    at 300 dpi), TrimBox the card after the cut, BleedBox the page; the PNGs' data taken over unchanged
    (img2pdf) and stored once however many pages show it (the shared back, the fillers); no dates, so the
    same faces give the same bytes."""
    import img2pdf
    import pikepdf

    bleed_pt = service.bleed_px / service.dpi * 72
    document = pikepdf.open(
        io.BytesIO(
            img2pdf.convert(
                pages,
                layout_fun=img2pdf.get_fixed_dpi_layout_fun((service.dpi, service.dpi)),
                trimborder=(bleed_pt, bleed_pt),
                bleedborder=(0, 0),
                nodate=True,
            )
        )
    )
    first: dict[str, pikepdf.Object] = {}
    for page in document.pages:
        for name, image in page.Resources.XObject.items():
            page.Resources.XObject[name] = first.setdefault(hashlib.sha256(image.read_raw_bytes()).hexdigest(), image)
    del document.trailer["/ID"]  # img2pdf's first half varies: made from the content alone it does not
    out = io.BytesIO()
    document.save(out, deterministic_id=True)
    return out.getvalue()


def _order_text(deck: dict, version: str, service: Service, cards: int, decks: list[int], warnings: list[str]) -> str:
    width, height = service.trim_px
    lines = [
        f"{deck.get('title', deck['game'])} {version} for {service.title} ({service.url})",
        f"{service.product}: {service.width_px} × {service.height_px} px at {service.dpi} dpi, "
        f"cut to {width} × {height} px ({service.bleed_px:g} px off each edge)",
        f"{cards} cards: order {ordered(decks)}",
        *warnings,
        *service.notes,
    ]
    return "\n".join(lines) + "\n"
