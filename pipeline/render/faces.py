"""Card faces at a service's pixel size (`geodeck export`): the deck printed one-up with a wide bleed, each
page rasterised by pdfium at the scale that puts the card's height on the service's trim height and cut to
the service's size around the card's centre, on forked processes; PNGs in sRGB with the profile embedded;
a service's figures (`Service`, read from templates/services/services.toml by `services.load`) and the zip
every export writes. What each service is sent: pipeline/render/services.py (print-on-demand), tts.py
(Tabletop Simulator), cardlist.py (images and a CSV).
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

from pipeline import atomic, workers
from pipeline.framework.definition import GameDefinition
from pipeline.i18n import registry
from pipeline.i18n.language import Language
from pipeline.render import layouts, printing

RENDER_BLEED_MM = 5.0  # more than any service's bleed, so the image is all card and bleed
ZIP_DATE = (2000, 1, 1, 0, 0, 0)  # fixed, so the same deck gives the same zip
PT_PER_MM = 72 / 25.4
PROFILE_DATE = bytes.fromhex("07d0 0001 0001 0000 0000 0000")  # 2000-01-01 00:00:00, in the ICC header


@dataclass(frozen=True)
class Service:
    """A card service or digital table as templates/services/services.toml declares it."""

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
    notes: tuple[str, ...] = ()  # what ORDER.txt says besides the figures

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


@dataclass(frozen=True)
class ExportResult:
    path: Path
    fronts: int
    backs: int
    decks: list[int]  # the decks to order, as their card counts
    warnings: list[str]
    bytes: int
    summary: str  # what was written, for the terminal


@dataclass(frozen=True)
class Rendered:
    """A deck's chosen cards rasterised for a service: each card's front and back, in deck order."""

    cards: list[dict]
    fronts: list["Face"]
    backs: list["Face"]
    lang: Language
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
    lang: Language | None,
    jobs: int | None,
    for_sale: bool,
    only: tuple[str, ...] | None,
    draft: bool,
) -> Rendered:
    """Every card face of the deck (or of the cards `only` names) at `service`'s size: the one-up print
    rasterised at the scale that puts the card's height on the service's trim height."""
    layout = layouts.load(game)
    language = layout.language(lang)
    options = printing.PrintOptions(
        layout="one-up", bleed=RENDER_BLEED_MM, lang=language, for_sale=for_sale, only=only, draft=draft
    )
    pdf = printing.render(game, deck, options, store)
    scale = service.trim_px[1] / (layout.card_mm[1] * PT_PER_MM)  # px per pt
    cards = printing.chosen(deck, options)
    faces = _rasterise(pdf, list(range(2 * len(cards))), scale, service, jobs or os.cpu_count() or 1)
    version = layouts.version(deck, registry.language(registry.source()), draft)  # ORDER.txt is in English
    return Rendered(cards, faces[0::2], faces[1::2], language, version, options)


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """The zip of `files` written atomically, its entries sorted and dated alike, so the same files give the
    same bytes; images and PDFs stored (they are compressed already)."""
    with atomic.writer(path) as f, zipfile.ZipFile(f, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith((".png", ".pdf")) else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])


def csv_bytes(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


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


def blank(service: Service):
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
