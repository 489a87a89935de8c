"""Card-service exports (`geodeck export GAME --service NAME`): one image per card face at the service's exact
pixel size, for print-on-demand card services (MakePlayingCards, The Game Crafter ...; templates/services/),
in the files each service asks for; Tabletop Simulator's deck sheets are `pipeline/render/tts.py`.

The deck is printed one-up with a wide bleed and each page rasterised by pdfium at the scale that puts the
card's height on the service's trim height; the image is cut to the service's size around the card's centre.
Fronts are numbered in deck order; backs that are all equal are one shared `back.png`. PNGs are sRGB with the
profile embedded. The decks to order have a fixed number of slots: slots the cards leave empty get blank
filler faces, and a service that sells at most `per_deck` cards a deck gets a folder per deck. A service
that asks for one PDF (`format = "pdf"`) gets the same faces in `cards.pdf`, each front followed by its back.
With them go a deck list (CSV) and, in one zip written atomically, what to order: the decks, and a warning
for each card whose text crosses the service's safe zone.
"""

import csv
import hashlib
import io
import multiprocessing
import os
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pipeline import atomic, readers, workers
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.games.definition import GameDefinition
from pipeline.i18n import registry
from pipeline.paths import OUTPUT_DIR, TEMPLATES_DIR
from pipeline.render import layouts, printing

SERVICES_FILE = TEMPLATES_DIR / "services" / "services.toml"
EXPORT_DIR = OUTPUT_DIR / "export"
RENDER_BLEED_MM = 5.0  # more than any service's bleed, so the image is all card and bleed
ZIP_DATE = (2000, 1, 1, 0, 0, 0)  # fixed, so the same deck gives the same zip
PT_PER_MM = 72 / 25.4
PROFILE_DATE = bytes.fromhex("07d0 0001 0001 0000 0000 0000")  # 2000-01-01 00:00:00, in the ICC header


@dataclass(frozen=True)
class Service:
    name: str
    title: str
    url: str
    product: str
    width_px: int
    height_px: int
    trim_px: tuple[int, int]  # the card after the cut, centred in the image
    dpi: int
    safe_px: int
    deck_sizes: tuple[int, ...] = ()  # none: any count (a digital table)
    per_deck: int = 0
    format: str = "png"  # png: an image per face; pdf: one PDF of them; tts: TTS's sheets; csv: images and a CSV
    sheet: tuple[int, int] = (1, 1)  # tts: the most faces across and down one deck sheet

    @property
    def bleed_px(self) -> float:
        """What the cut takes off each edge (37.5 px for 1/8 in at 300 dpi)."""
        return (self.height_px - self.trim_px[1]) / 2

    def order(self, cards: int) -> tuple[list[int], list[str]]:
        """(the decks to order, largest first, as their card counts; warnings) for `cards` cards: full decks
        of the largest size while more remain than it holds, then the smallest size that holds the rest;
        warns when blank cards fill them up."""
        if not self.deck_sizes:
            return [cards], []
        decks = [self.per_deck] * ((cards - 1) // self.per_deck)
        rest = cards - sum(decks)
        decks.append(next(size for size in self.deck_sizes if size >= rest))
        warnings = []
        if sum(decks) != cards:
            warnings.append(
                f"{cards} cards do not fill {self.title}'s deck sizes ({', '.join(map(str, self.deck_sizes))}): "
                f"order {ordered(decks)}; the {sum(decks) - cards} empty slots get blank filler faces"
            )
        return decks, warnings


def ordered(decks: list[int]) -> str:
    """`2 × 108 + 1 × 18 cards`: decks of each size, largest first."""
    sizes = sorted(set(decks), reverse=True)
    return " + ".join(f"{decks.count(size)} × {size}" for size in sizes) + " cards"


def names() -> list[str]:
    return list(_table())


def load(name: str) -> Service:
    table = _table()
    if name not in table:
        raise GeodeckError(f"--service {name!r} is not one of: {', '.join(table)} (templates/services/services.toml)")
    data = table[name]
    tuples = {key: tuple(data[key]) for key in ("trim_px", "deck_sizes", "sheet") if key in data}
    return Service(name=name, **{**data, **tuples})


def _table() -> dict:
    return readers.read_input("toml", SERVICES_FILE)


@dataclass(frozen=True)
class ExportResult:
    path: Path
    fronts: int
    backs: int
    decks: list[int]  # the decks to order, as their card counts
    warnings: list[str]
    bytes: int
    summary: str  # what was written, for the terminal


def default_output(
    deck: dict, service: Service, lang: str, options: printing.PrintOptions, folder: Path = EXPORT_DIR
) -> Path:
    """`<game>-<version>-<service>[-for-sale][-subset-…]-<lang>.zip` (a draft's version `draft[-<version>]`)."""
    details = [service.name, *(["for-sale"] if options.for_sale else []), *printing.subset_details(options)]
    return folder / "-".join(
        [deck["game"], published.label(deck.get("version"), options.draft), *details, f"{lang}.zip"]
    )


@dataclass(frozen=True)
class Rendered:
    """A deck's chosen cards rasterised for a service: each card's front and back, in deck order."""

    cards: list[dict]
    fronts: list["Face"]
    backs: list["Face"]
    lang: str
    version: str  # as ORDER.txt and the saved object name it (a draft's says so)
    options: printing.PrintOptions

    @property
    def shared_back(self) -> bool:
        return len({face.digest for face in self.backs}) == 1


def rendered(
    game: GameDefinition,
    deck: dict,
    service: Service,
    store,
    lang: str | None,
    jobs: int | None,
    for_sale: bool,
    only: tuple[str, ...] | None,
    draft: bool,
) -> Rendered:
    """Every card face of the deck (or of the cards `only` names) at `service`'s size: the one-up print
    rasterised at the scale that puts the card's height on the service's trim height."""
    layout = layouts.load(game)
    lang = layout.language(lang)
    options = printing.PrintOptions(
        layout="one-up", bleed=RENDER_BLEED_MM, lang=lang, for_sale=for_sale, only=only, draft=draft
    )
    pdf = printing.render(game, deck, options, store)
    scale = service.trim_px[1] / (layout.card_mm[1] * PT_PER_MM)  # px per pt
    cards = printing.chosen(deck, options)
    faces = _rasterise(pdf, list(range(2 * len(cards))), scale, service, jobs or os.cpu_count() or 1)
    version = layouts.version(deck, registry.source(), draft)  # ORDER.txt is in English
    return Rendered(cards, faces[0::2], faces[1::2], lang, version, options)


def export(
    game: GameDefinition,
    deck: dict,
    service: Service,
    store,
    lang: str | None = None,
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
        from pipeline.render import tts

        return tts.write(deck, faces, service, path)
    if service.format == "csv":
        from pipeline.render import cardlist

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
    blank = png(_blank(service), service)
    cards = [(card, front.png, back.png) for card, front, back in zip(faces.cards, faces.fronts, faces.backs)]
    empty = sum(decks) - len(cards)
    filler_back = faces.backs[0].png if faces.shared_back else blank
    chosen = cards + [(None, blank, filler_back)] * empty
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
        card_name = fields.get(f"name_{faces.lang}") or fields.get("name", "")
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


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """The zip of `files` written atomically, its entries sorted and dated alike, so the same files give the
    same bytes; images and PDFs stored (they are compressed already)."""
    with atomic.writer(path) as f, zipfile.ZipFile(f, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith((".png", ".pdf")) else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])


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
    out = io.BytesIO()
    document.save(out, deterministic_id=True)
    return out.getvalue()


def csv_bytes(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _order_text(deck: dict, version: str, service: Service, cards: int, decks: list[int], warnings: list[str]) -> str:
    width, height = service.trim_px
    lines = [
        f"{deck.get('title', deck['game'])} {version} for {service.title} ({service.url})",
        f"{service.product}: {service.width_px} × {service.height_px} px at {service.dpi} dpi, "
        f"cut to {width} × {height} px ({service.bleed_px:g} px off each edge)",
        f"{cards} cards: order {ordered(decks)}",
        *warnings,
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Face:
    png: bytes
    digest: str
    crosses_safe: bool


def _rasterise(pdf: bytes, pages: list[int], scale: float, service: Service, jobs: int) -> list[Face]:
    """Every page as a `Face`, on up to `jobs` forked processes, each rendering a contiguous share; they end
    with this process (`workers.worker_setup`), also when it is killed."""
    jobs = max(1, min(jobs, len(pages) // 4))  # a process for at least four faces
    shares = [pages[i * len(pages) // jobs : (i + 1) * len(pages) // jobs] for i in range(jobs)]
    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _faces(pdf, pages, scale, service)
    with ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("fork"), initializer=workers.worker_setup, initargs=(os.getpid(),)
    ) as pool:
        results = pool.map(_faces, [pdf] * jobs, shares, [scale] * jobs, [service] * jobs)
        return [face for share in results for face in share]


def _faces(pdf: bytes, pages: list[int], scale: float, service: Service) -> list[Face]:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    faces: list[Face] = []
    encoded: dict[str, bytes] = {}
    try:
        for number in pages:
            page = document[number]
            height_pt = page.get_height()
            image = page.render(scale=scale).to_pil()
            left = round((image.width - service.width_px) / 2)
            top = round((image.height - service.height_px) / 2)
            image = image.crop((left, top, left + service.width_px, top + service.height_px))
            digest = hashlib.sha256(image.tobytes()).hexdigest()
            if digest not in encoded:
                encoded[digest] = png(image, service)
            inset = service.bleed_px + service.safe_px
            safe = (left + inset, top + inset, left + service.width_px - inset, top + service.height_px - inset)
            faces.append(Face(encoded[digest], digest, _text_outside(page, height_pt, scale, safe)))
            page.close()
    finally:
        document.close()
    return faces


def png(image, service: Service) -> bytes:
    """`image` as a PNG in sRGB, the profile embedded, at the service's dpi."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, icc_profile=_srgb(), dpi=(service.dpi, service.dpi))
    return buffer.getvalue()


def _blank(service: Service):
    """A blank (white) face at the service's size: the filler of an empty slot."""
    from PIL import Image

    return Image.new("RGB", (service.width_px, service.height_px), "white")


@cache
def _srgb() -> bytes:
    from PIL import ImageCms

    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return srgb[:24] + PROFILE_DATE + srgb[36:]  # littlecms stamps the time it built the profile


def _text_outside(page, height_pt: float, scale: float, safe: tuple[float, float, float, float]) -> bool:
    """Whether any text of `page` reaches outside `safe` (left, top, right, bottom in rendered pixels)."""
    text = page.get_textpage()
    try:
        for i in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(i)
            x0, x1 = left * scale, right * scale
            y0, y1 = (height_pt - top) * scale, (height_pt - bottom) * scale
            if x0 < safe[0] - 0.5 or y0 < safe[1] - 0.5 or x1 > safe[2] + 0.5 or y1 > safe[3] + 0.5:
                return True
        return False
    finally:
        text.close()
