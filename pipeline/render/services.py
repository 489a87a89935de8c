"""Card-service exports (`geodeck export GAME --service NAME`): one image per card face at the service's exact
pixel size, for print-on-demand card services (MakePlayingCards, The Game Crafter ...; templates/services/).

The deck is printed one-up with a wide bleed and each page rasterised by pdfium at the scale that puts the
card's height on the service's trim height; the image is cut to the service's size around the card's centre.
Fronts are numbered in deck order; backs that are all equal are one shared `back.png`. PNGs are sRGB with the
profile embedded. With them go a deck list (CSV) and, in one zip written atomically, what to order: the deck
sizes that fit the card count, and a warning for each card whose text crosses the service's safe zone.
"""

import csv
import hashlib
import io
import multiprocessing
import os
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pipeline import atomic, paths, readers, workers
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n import registry
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import layouts, printing

SERVICES_FILE = TEMPLATES_DIR / "services" / "services.toml"
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
    dpi: int
    bleed_px: int
    safe_px: int
    deck_sizes: tuple[int, ...]
    per_deck: int

    def order(self, cards: int) -> tuple[list[int], list[str]]:
        """(the decks to order, largest first, as their card counts; warnings) for `cards` cards: full decks
        of the largest size while more remain than it holds, then the smallest size that holds the rest;
        warns when blank cards fill them up."""
        decks = [self.per_deck] * ((cards - 1) // self.per_deck)
        rest = cards - sum(decks)
        decks.append(next(size for size in self.deck_sizes if size >= rest))
        warnings = []
        if sum(decks) != cards:
            warnings.append(
                f"{cards} cards do not fill {self.title}'s deck sizes ({', '.join(map(str, self.deck_sizes))}): "
                f"order {ordered(decks)}; {sum(decks) - cards} stay blank (or repeat cards)"
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
    return Service(name=name, **{**data, "deck_sizes": tuple(data["deck_sizes"])})


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


def default_output(
    deck: dict, service: Service, lang: str, options: printing.PrintOptions, folder: Path | None = None
) -> Path:
    """`<game>-<version>-<service>[-for-sale][-subset-…]-<lang>.zip` (a draft's version `draft[-<version>]`)."""
    details = [service.name, *(["for-sale"] if options.for_sale else []), *printing.subset_details(options)]
    return (folder or paths.OUTPUT_DIR / "export") / "-".join(
        [deck["game"], published.label(deck.get("version"), options.draft), *details, f"{lang}.zip"]
    )


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
    (images, deck list, order notes) atomically; `for_sale`: the layers that may not be sold replaced, as
    `geodeck print --for-sale`; `draft`: the deck is a draft, and its file and order notes say so."""
    layout = layouts.load(game)
    lang = layout.language(lang)
    options = printing.PrintOptions(
        layout="one-up", bleed=RENDER_BLEED_MM, lang=lang, for_sale=for_sale, only=only, draft=draft
    )
    pdf = printing.render(game, deck, options, store)
    scale = (service.height_px - 2 * service.bleed_px) / (layout.card_mm[1] * PT_PER_MM)  # px per pt
    cards = printing.chosen(deck, options)
    pages = list(range(2 * len(cards)))
    faces = _rasterise(pdf, pages, scale, service, jobs or os.cpu_count() or 1)
    fronts, backs = faces[0::2], faces[1::2]
    shared = len({face.digest for face in backs}) == 1
    files: dict[str, bytes] = {}
    rows = []
    for i, (card, front, back) in enumerate(zip(cards, fronts, backs), 1):
        front_name = f"fronts/{i:03d}-{card['id']}.png"
        back_name = "back.png" if shared else f"backs/{i:03d}-{card['id']}.png"
        files[front_name] = front.png
        if back_name not in files:
            files[back_name] = back.png
        fields = card.get("fields", {})
        rows.append(
            [
                i,
                front_name,
                back_name,
                card["id"],
                card.get("kind", ""),
                fields.get(f"name_{lang}") or fields.get("name", ""),
            ]
        )
    crossing = [card["id"] for card, f, b in zip(cards, fronts, backs) if f.crosses_safe or b.crosses_safe]
    decks, warnings = service.order(len(cards))
    if crossing:
        warnings.append(
            f"{len(crossing)} cards have text within {service.title}'s safe zone ({service.safe_px} px inside the "
            f"cut): {', '.join(crossing[:5])}{' …' if len(crossing) > 5 else ''}"
        )
    files["decklist.csv"] = _csv(["number", "front", "back", "id", "kind", "name"], rows)
    version = layouts.version(deck, registry.source(), draft)  # ORDER.txt is in English
    files["ORDER.txt"] = _order_text(deck, version, service, len(cards), decks, warnings).encode("utf-8")
    path = out or default_output(deck, service, lang, options)
    with atomic.writer(path) as f, zipfile.ZipFile(f, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return ExportResult(path, len(fronts), 1 if shared else len(backs), decks, warnings, path.stat().st_size)


def _csv(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _order_text(deck: dict, version: str, service: Service, cards: int, decks: list[int], warnings: list[str]) -> str:
    lines = [
        f"{deck.get('title', deck['game'])} {version} for {service.title} ({service.url})",
        f"{service.product}: {service.width_px} × {service.height_px} px at {service.dpi} dpi, "
        f"cut {service.bleed_px} px in from each edge",
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
    from PIL import ImageCms

    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    srgb = srgb[:24] + PROFILE_DATE + srgb[36:]  # littlecms stamps the time it built the profile
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
                buffer = io.BytesIO()
                image.save(buffer, format="PNG", compress_level=1, icc_profile=srgb, dpi=(service.dpi, service.dpi))
                encoded[digest] = buffer.getvalue()
            inset = service.bleed_px + service.safe_px
            safe = (left + inset, top + inset, left + service.width_px - inset, top + service.height_px - inset)
            faces.append(Face(encoded[digest], digest, _text_outside(page, height_pt, scale, safe)))
            page.close()
    finally:
        document.close()
    return faces


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
