"""Flags from the pinned `flag-icons` SVGs, converted with svglib once per process and cached as drawings in
plain JSON (`pipeline.render.drawings`: data only, never code) in the snapshot store
(`<store>/.drawings/flag-icons/<svglib version>-<reportlab version>-<sha256>.json`), so a print parses no
SVG that an earlier print converted (194 SVGs: ~5.6 s of svglib). The cache file is named by the sha256 of
the SVG it was made from and the versions that made it, and written atomically; one that does not load as
a drawing (damaged, crafted, an older format) is converted again and replaced. Each process also keeps the
SVGs it converted (keyed by the sha256 of the bytes read, with the drawing's JSON), so a second store, empty,
is filled without converting again (every test has a store of its own).

Each flag appears once per deck, so it is drawn in place (a form XObject would lose the ExtGState
resources that flags with transparency need)."""

import hashlib
import io
from contextlib import suppress
from functools import cache
from importlib.metadata import version
from typing import Any

from reportlab.graphics import renderPDF
from svglib.svglib import svg2rlg

from pipeline import atomic, readers
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, names
from pipeline.jsonfile import Unreadable
from pipeline.render import drawings, fonts
from pipeline.render.pages import clipped
from pipeline.render.text import Box

SOURCE = names.FLAG_ICONS


def _drawing(data: bytes) -> Any:
    """A cached drawing (`drawings.loads`: data only); `Unreadable` for anything else."""
    try:
        return drawings.loads(data)
    except ValueError as exc:
        raise Unreadable(f"is not a drawing ({str(exc).splitlines()[0][:120]})") from exc


DRAWING = readers.register(  # the cache of a converted flag (pipeline.readers)
    readers.Kind(
        "drawing", "flag drawing cache", 64 * readers.MB, _drawing, cache=True, rebuilt="the flag is converted again"
    )
)

CONVERTER = f"{version('svglib')}-{version('reportlab')}"  # what makes the drawings, part of their cache key


_CONVERTED: dict[str, tuple[Any, bytes]] = {}  # sha256 of an SVG's bytes -> (its drawing, as JSON)


def _converted(data: bytes, path: str) -> tuple[Any, bytes]:
    """The drawing svglib makes of an SVG's bytes, and its JSON for the cache, converted once per process."""
    key = hashlib.sha256(data).hexdigest()
    if key not in _CONVERTED:
        drawing = svg2rlg(io.BytesIO(data))
        if drawing is None:
            raise GeodeckError(f"{SOURCE}/{path}: svglib cannot read this SVG")
        drawing.initialFontName = fonts.REGULAR  # renderPDF would otherwise add an unembedded Helvetica
        _CONVERTED[key] = (drawing, drawings.dumps(drawing))
    return _CONVERTED[key]


class Flags:
    def __init__(self, store):
        self.store = store
        self.source = load_sources()[SOURCE]

    def check(self, path: str, card_id: str) -> None:
        """A clear error naming the card when its flag is not a file of the pinned source."""
        if not path or path not in {f.path for f in self.source.files}:
            raise GeodeckError(
                f"card {card_id}: flag {path!r} is not a file of the {SOURCE} source; "
                f"fix the card's flag field (see sources/{SOURCE}.toml)"
            )

    @cache  # noqa: B019 (one Flags per store and process: the cache lives as long as the store)
    def drawing(self, path: str):
        entry = self.source.file(path)
        cached = self.store.root / ".drawings" / SOURCE / f"{CONVERTER}-{entry.sha256}.json"
        kept = readers.read_cache("drawing", cached)  # absent, damaged or crafted: converted again
        if kept is not None:
            return kept
        svg = self.store.resolve(entry)
        try:
            with readers.opened("svg", svg) as handle:
                data = handle.read()
        except Unreadable as exc:
            raise readers.failure("svg", svg, exc) from exc
        drawing, dumped = _converted(data, path)
        with suppress(OSError, atomic.OutputError):  # a read-only store, a folder in the way: convert next time
            atomic.write_bytes(cached, dumped)
        return drawing

    def draw(self, canvas, path: str, box: Box, card_id: str, outline=None) -> Box:
        """The flag fitted into `box` (centred, aspect kept); returns where it landed."""
        self.check(path, card_id)
        drawing = self.drawing(path)
        scale = min(box.w / drawing.width, box.h / drawing.height)
        w, h = drawing.width * scale, drawing.height * scale
        placed = Box(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)
        with clipped(canvas, placed):
            canvas.translate(placed.x, placed.y)
            canvas.scale(scale, scale)
            renderPDF.draw(drawing, canvas, 0, 0)
        if outline is not None:
            canvas.setStrokeColor(outline)
            canvas.setLineWidth(0.1)
            canvas.rect(placed.x, placed.y, placed.w, placed.h, stroke=1, fill=0)
        return placed

    def image(self, path: str, width: int):
        """The flag as an RGB picture `width` pixels wide (aspect kept): its drawing on a PDF page, rasterised
        (pipeline.render.raster), for a terminal that draws pictures (pipeline.play.pictures)."""
        from PIL import Image

        from pipeline.render import raster

        self.check(path, "a flag shown at the terminal")
        fonts.register()  # the drawings name the project's font
        drawing = self.drawing(path)
        png = raster.png(renderPDF.drawToString(drawing), 0, dpi=72 * width / drawing.width)
        return Image.open(io.BytesIO(png)).convert("RGB")


def flags(store) -> Flags:
    from pipeline.render.maps import per_store

    return per_store(Flags, store)
