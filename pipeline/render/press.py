"""Print-shop PDFs (PDF/X-4): every colour a renderer sets is turned into CMYK through an ICC output profile
as it is drawn, so whatever colours the templates choose print as designed.

`Press.canvas_class(kind)` is a canvas that converts each fill and stroke colour (`Press.cmyk`): a neutral
grey becomes black ink alone (text and hairlines in 100 % K where they are darker than the profile's solid
black, no rich black), any other colour goes through the profile (relative colorimetric); alpha is dropped
(the flags' `/ca` states cover nothing visible); solid black (100 % K alone) is filled with overprint on
(`/op true`, `/OPM 1`), so black text over a colour prints without a white gap if the plates shift.
Spot colours (`CMYKColorSep`: a tuck box's `CutContour` and `Fold`) pass through as `/Separation`.
`Press.finish` then adds what PDF/X-4 asks of the file: the output intent with the embedded profile (the
default's registered condition, FOGRA39, by name), the version keys, real dates (the deck version's),
XMP metadata with title and version, the shop's subject and a TrimBox and BleedBox on every page (the
MediaBox where a page sets none). The default profile and its licence: templates/icc/README.md.
"""

import hashlib
import io
import zlib
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfgen.textobject import PDFTextObject

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.jsonfile import Unreadable
from pipeline.paths import TEMPLATES_DIR

DEFAULT_PROFILE = TEMPLATES_DIR / "icc" / "FOGRA39L-geodeck.icc"
PDFX_VERSION = "PDF/X-4"
NEUTRAL = 2 / 255  # an RGB colour whose channels differ by at most this is a grey: black ink alone
REGISTRY = "http://www.color.org"
# the default profile's printing condition as the ICC's registry of characterization data names it
# (https://registry.color.org/profile-registry/chardata/FOGRA39.txt): a shop's RIP knows it by this name
REGISTERED = {
    DEFAULT_PROFILE.name: (
        "FOGRA39",
        "Offset printing, according to ISO 12647-2:2004/Amd 1, OFCOM, paper type 1 or 2 = coated art, 115 g/m2, "
        "tone value increase curves A (CMY) and B (K)",
    )
}


@dataclass(frozen=True)
class Press:
    profile: Path = DEFAULT_PROFILE
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def icc(self) -> bytes:
        try:
            data = readers.read("icc", self.profile)
        except Unreadable as exc:
            raise GeodeckError(f"--icc {self.profile}: {exc}; name a CMYK output profile (.icc)") from None
        if data[16:20] != b"CMYK" or data[12:16] != b"prtr":
            raise GeodeckError(
                f"--icc {self.profile} is not a CMYK output (printer) profile; ask the print shop for theirs"
            )
        if not _converts(data):
            raise GeodeckError(
                f"--icc {self.profile} is damaged (truncated?): colours do not convert through it; "
                "ask the print shop for the profile again"
            )
        return data

    @cached_property
    def description(self) -> str:
        from PIL import ImageCms

        return ImageCms.getProfileDescription(self._profile).strip()

    @cached_property
    def _profile(self):
        from PIL import ImageCms

        return ImageCms.ImageCmsProfile(io.BytesIO(self.icc))

    def _transform(self, source, target, modes: tuple[str, str]):
        from PIL import ImageCms

        return ImageCms.buildTransform(source, target, *modes, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)

    @cached_property
    def _to_cmyk(self):
        from PIL import ImageCms

        return self._transform(ImageCms.createProfile("sRGB"), self._profile, ("RGB", "CMYK"))

    @cached_property
    def _cmyk_to_lab(self):
        from PIL import ImageCms

        return self._transform(self._profile, ImageCms.createProfile("LAB"), ("CMYK", "LAB"))

    @cached_property
    def _rgb_to_lab(self):
        from PIL import ImageCms

        return self._transform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), ("RGB", "LAB"))

    @cached_property
    def _black_ramp(self) -> list[float]:
        """L* of black ink alone at 0, 1, … 255 (of 255), as the profile prints it."""
        return [lab[0] for lab in self._labs("CMYK", self._cmyk_to_lab, [(0, 0, 0, k) for k in range(256)])]

    def _labs(self, mode: str, transform, pixels: list[tuple]) -> list[tuple[float, float, float]]:
        raw = _apply(transform, mode, "LAB", pixels)
        return [(raw[i] * 100 / 255, raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]

    def lab_of_rgb(self, rgb: tuple[int, int, int]) -> tuple[float, float, float]:
        return _signed(self._labs("RGB", self._rgb_to_lab, [rgb])[0])

    def lab_of_cmyk(self, cmyk: tuple[int, int, int, int]) -> tuple[float, float, float]:
        return _signed(self._labs("CMYK", self._cmyk_to_lab, [cmyk])[0])

    def cmyk(self, colour) -> CMYKColor:
        """The CMYK colour that prints `colour` (a reportlab colour, an RGB or CMYK tuple, a name or hex)."""
        if isinstance(colour, str):
            colour = toColor(colour)
        if isinstance(colour, CMYKColor):
            return colour
        if isinstance(colour, (tuple, list)) and len(colour) == 4:
            return CMYKColor(*colour)
        r, g, b = (colour.red, colour.green, colour.blue) if isinstance(colour, Color) else colour
        key = tuple(round(v * 255) for v in (r, g, b))
        if key not in self._cache:
            self._cache[key] = CMYKColor(*(v / 255 for v in self.ink(key)))
        return self._cache[key]

    def ink(self, rgb: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The four inks (0-255) for an 8-bit sRGB colour: a grey as black alone, at the lightness the design
        gives it (solid black where it is darker than the profile's solid black)."""
        if max(rgb) - min(rgb) <= NEUTRAL * 255:
            lightness = self.lab_of_rgb((rgb[0], rgb[1], rgb[2]))[0]
            ramp = self._black_ramp
            k = next((k for k, l_star in enumerate(ramp) if l_star <= lightness), 255)
            if k and abs(ramp[k - 1] - lightness) < abs(ramp[k] - lightness):
                k -= 1
            return (0, 0, 0, k)
        c, m, y, k = _apply(self._to_cmyk, "RGB", "CMYK", [tuple(rgb)])
        return (c, m, y, k)

    def delta_e(self, rgb: tuple[int, int, int]) -> float:
        """CIE76 ΔE*ab between the design colour and what the profile prints for it (D50, 8-bit precision)."""
        a = self.lab_of_rgb(rgb)
        b = self.lab_of_cmyk(self.ink(rgb))
        return sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5

    @property
    def condition(self) -> tuple[str, str]:
        """(OutputConditionIdentifier, OutputCondition): the registered name of the default profile's condition,
        else (a shop's own profile) its description, as PDF/X asks of an unregistered condition."""
        return REGISTERED.get(self.profile.name, (self.description, self.description))

    def canvas_class(self, kind: type) -> type:
        """`kind` (a reportlab Canvas class) drawing every colour in this press's CMYK, without alpha, solid
        black overprinting."""
        press = self

        class PressCanvas(kind):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self._enforceColorSpace = press.cmyk  # reportlab's hook on every setFill/StrokeColor

            def setFillColor(self, aColor, alpha=None):
                super().setFillColor(aColor, alpha)
                _overprint(self, self, self._fillColorObj)

            def beginText(self, x=0, y=0, direction=None):
                return PressText(self, x, y, direction=direction)

            def setFillGray(self, gray, alpha=None):
                self.setFillColor((gray, gray, gray))

            def setStrokeGray(self, gray, alpha=None):
                self.setStrokeColor((gray, gray, gray))

            def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
                super().linearGradient(x0, y0, x1, y1, [press.cmyk(c) for c in colors], positions, extend)

            def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
                super().radialGradient(x, y, radius, [press.cmyk(c) for c in colors], positions, extend)

            def _setFillAlpha(self, v):  # PDF/X-1a/X-3 refuse alpha; nothing drawn with it is visible
                pass

            def _setStrokeAlpha(self, v):
                pass

        return PressCanvas

    def finish(self, pdf: bytes, title: str, version: str, subject: str, dated: date | None = None) -> bytes:
        """`pdf` (drawn on a press canvas) as PDF/X-4: output intent, version keys, dates (`dated`, the deck
        version's; reportlab's fixed date without one), subject, XMP, boxes on every page."""
        import pikepdf

        with pikepdf.open(io.BytesIO(pdf)) as doc:
            profile = doc.make_stream(
                zlib.compress(self.icc), Filter=pikepdf.Name.FlateDecode, N=4, Alternate=pikepdf.Name.DeviceCMYK
            )
            doc.Root.OutputIntents = pikepdf.Array(
                [
                    pikepdf.Dictionary(
                        Type=pikepdf.Name.OutputIntent,
                        S=pikepdf.Name.GTS_PDFX,
                        OutputConditionIdentifier=self.condition[0],
                        OutputCondition=self.condition[1],
                        Info=self.description,
                        RegistryName=REGISTRY,
                        DestOutputProfile=profile,
                    )
                ]
            )
            for page in doc.pages:
                media = page.obj.MediaBox
                page.obj.BleedBox = page.obj.get("/BleedBox", media)
                page.obj.TrimBox = page.obj.get("/TrimBox", media)
            info = doc.docinfo
            info.Title = title
            info.Subject = subject
            info.GTS_PDFXVersion = PDFX_VERSION
            info.Trapped = pikepdf.Name("/False")
            if dated is not None:
                info.CreationDate = info.ModDate = f"D:{dated:%Y%m%d}000000+00'00'"
            created = _xmp_date(str(info.get("/CreationDate", "D:20000101000000+00'00'")))
            digest = hashlib.sha256(pdf + self.icc).hexdigest()
            with doc.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
                meta["dc:title"] = title
                meta["dc:description"] = subject
                meta["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION
                meta["pdf:Trapped"] = "False"
                meta["pdf:Producer"] = str(info.get("/Producer", "geodeck"))
                meta["xmp:CreatorTool"] = "geodeck"
                meta["xmp:CreateDate"] = created
                meta["xmp:ModifyDate"] = created
                meta["xmp:MetadataDate"] = created
                meta["xmpMM:DocumentID"] = f"uuid:{_uuid(digest)}"
                meta["xmpMM:InstanceID"] = f"uuid:{_uuid(digest[::-1])}"
                meta["xmpMM:VersionID"] = version
                meta["xmpMM:RenditionClass"] = "default"
            out = io.BytesIO()
            doc.save(  # reportlab's streams as they are: qpdf would recompress every one of them
                out,
                min_version="1.6",
                deterministic_id=True,
                fix_metadata_version=False,
                compress_streams=False,
                stream_decode_level=pikepdf.StreamDecodeLevel.none,
            )
        return out.getvalue()


class PressText(PDFTextObject):
    """A text object (a paragraph's lines) whose solid black overprints, as the press canvas's does."""

    def setFillColor(self, aColor, alpha=None):
        super().setFillColor(aColor, alpha)
        _overprint(self, self._canvas, self._fillColorObj)


def _overprint(target, canvas, colour) -> None:
    """Fill overprint (with OPM 1, so the other inks under it stay) on for solid black (100 % K alone), off for
    every other colour; the graphics state operator goes into `target`'s code (the canvas's or a text
    object's)."""
    black = isinstance(colour, CMYKColor) and not colour.spotName and colour.cmyk() == (0, 0, 0, 1)
    if black:
        canvas._extgstate.set(target, "OPM", 1)
    canvas._extgstate.set(target, "op", black)


def _converts(data: bytes) -> bool:
    """Whether colours convert into the profile and back: a truncated profile keeps a sound header."""
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK")
        ImageCms.buildTransform(profile, ImageCms.createProfile("LAB"), "CMYK", "LAB")
    except (ImageCms.PyCMSError, OSError):
        return False
    return True


def _apply(transform, mode: str, out_mode: str, pixels: list[tuple]) -> bytes:
    """`pixels` through a littlecms transform, as bytes. Pillow's `ImageCmsTransform.apply` also serialises
    the whole output profile into each image it returns: for one colour at a time that is most of the work."""
    from PIL import Image

    image, out = Image.new(mode, (len(pixels), 1)), Image.new(out_mode, (len(pixels), 1))
    image.putdata(pixels)
    transform.transform.apply(image.getim(), out.getim())
    return out.tobytes()


def _signed(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    """Pillow's 8-bit LAB keeps a* and b* as two's-complement bytes."""
    return (lab[0], lab[1] - 256 if lab[1] > 127 else lab[1], lab[2] - 256 if lab[2] > 127 else lab[2])


def _xmp_date(pdf_date: str) -> str:
    """`D:YYYYMMDDHHmmSS…` as XMP's `YYYY-MM-DDTHH:mm:SSZ` (reportlab's invariant dates are UTC)."""
    d = pdf_date.removeprefix("D:")
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}Z"


def _uuid(digest: str) -> str:
    return f"{digest[0:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def design_colours() -> dict[str, set[str]]:
    """Every colour the card templates name (`#RRGGBB`), with the template keys that name it."""
    import re

    found: dict[str, set[str]] = {}

    def walk(value, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}" if path else key)
        elif isinstance(value, list):
            for item in value:
                walk(item, path)
        elif isinstance(value, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
            found.setdefault(value.upper(), set()).add(path)

    for template in sorted((TEMPLATES_DIR / "cards").glob("*.toml")):
        walk(readers.read_input("toml", template), template.stem)
    return found


def main() -> None:
    """`python -m pipeline.render.press [ICC]`: a markdown table of every template colour, its inks and ΔE."""
    import sys

    press = Press(Path(sys.argv[1])) if len(sys.argv) > 1 else Press()
    print("| colour | C M Y K (%) | ΔE*ab | where (template.key) |\n|---|---|---|---|")
    for colour, keys in sorted(design_colours().items()):
        rgb = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
        inks = " ".join(f"{round(v / 2.55)}" for v in press.ink(rgb))
        where = ", ".join(sorted(keys)[:3]) + (f" (+{len(keys) - 3})" if len(keys) > 3 else "")
        print(f"| `{colour}` | {inks} | {press.delta_e(rgb):.1f} | {where} |")


if __name__ == "__main__":
    main()
