"""The pictures of a table's items (docs/recipes.md, `items.columns.picture`): each cell a PNG or JPEG file,
its path relative to the table, read through the guarded reader (`picture`: at most 4 MB), at most
`MAX_PIXELS`, made a PNG of at most `SIDE` pixels a side (the same file gives the same bytes), named by its
sha256 and pinned with the deck's templates as base64 text (`pictures/<name>.b64`, pipeline/decks/pinned.py),
so a published version prints its pictures whatever becomes of the files. A missing file, one that is no PNG
or JPEG, or too large a one is one line naming the row and the fix."""

import base64
import io
import shutil
from pathlib import Path, PurePosixPath, PureWindowsPath

from babel.numbers import format_decimal
from PIL import Image, UnidentifiedImageError

from pipeline import atomic, readers, text
from pipeline.decks.pinned import PICTURES
from pipeline.hashing import sha256
from pipeline.i18n import registry
from pipeline.i18n.catalogue import N_, translate
from pipeline.jsonfile import Missing, Unreadable

FORMATS = ("PNG", "JPEG")
MAX_PIXELS = 40_000_000  # a 40-megapixel photo; larger is refused before it is decoded
SIDE = 480  # pixels: a card's picture box (40 mm) at 300 dpi
NAME = 16  # hex digits of the sha256 naming a picture
RELATIVE = N_("picture {cell}: a path relative to {table} inside its folder, e.g. pictures/bayern.png")
MISSING = N_("picture {cell} is missing beside {table}; put the file there or fix the path")
NO_PICTURE = N_("picture {cell} {problem}; save it as a PNG or JPEG of at most 4 MB")
OTHER_FORMAT = N_("is a {format} image, not a PNG or JPEG")
TOO_MANY_PIXELS = N_("has {width} × {height} pixels, more than {most}")
NO_IMAGE = N_("is no PNG or JPEG image")


def prepared(path: Path, lang: str) -> bytes:
    """The picture in `path` as the cards print it (module docstring); `Unreadable` says why not (in `lang`
    where the picture is the problem, not its file)."""
    data = readers.read("picture", path)
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in FORMATS:
                raise Unreadable(translate(lang, OTHER_FORMAT, format=image.format))
            if image.width * image.height > MAX_PIXELS:
                most = format_decimal(MAX_PIXELS, locale=registry.language(lang).locale)
                raise Unreadable(translate(lang, TOO_MANY_PIXELS, width=image.width, height=image.height, most=most))
            image.load()
            shown = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise Unreadable(translate(lang, NO_IMAGE)) from exc
    shown.thumbnail((SIDE, SIDE))
    out = io.BytesIO()
    shown.save(out, "PNG")
    return out.getvalue()


def relative(cell: str) -> str | None:
    """A picture cell as the path it names inside its table's folder, `/`-separated (`bilder\\frankreich.png`,
    as Excel on Windows writes it, is `bilder/frankreich.png`); None for an absolute path, a drive letter, a
    UNC share or a `..` part."""
    windows = PureWindowsPath(cell)
    if windows.drive or windows.root or PurePosixPath(cell).is_absolute():
        return None
    parts = [part for part in windows.parts if part != "."]
    if not parts or ".." in parts:
        return None
    return PurePosixPath(*parts).as_posix()


def problem(cell: str, table: Path, lang: str) -> tuple[str | None, bytes | None]:
    """(the problem, in `lang`, None) of a picture cell of `table`, or (None, its prepared bytes); the file is
    the cell's `relative` path, refused when it is none or resolves outside the table's folder (a link)."""
    shown, folder = f"'{text.shown(cell)}'", table.parent  # as written (a Windows path's backslashes once)
    inside = relative(cell)
    path = folder / inside if inside is not None else None
    if path is None or not path.resolve().is_relative_to(folder.resolve()):
        return translate(lang, RELATIVE, cell=shown, table=table.name), None
    try:
        return None, prepared(path, lang)
    except Missing:
        return translate(lang, MISSING, cell=shown, table=table.name), None
    except Unreadable as exc:
        return translate(lang, NO_PICTURE, cell=shown, problem=str(exc)), None


def name(data: bytes) -> str:
    """A prepared picture's name: its sha256's first `NAME` digits."""
    return sha256(data)[:NAME]


def write(templates: Path, pictures: dict[str, bytes]) -> None:
    """The deck's pictures into its templates folder (`pictures/<name>.b64`), replacing what a run before left."""
    folder = templates / PICTURES
    shutil.rmtree(folder, ignore_errors=True)
    for key, data in sorted(pictures.items()):
        atomic.write_text(folder / f"{key}.b64", base64.b64encode(data).decode("ascii") + "\n")


def read(layout_path: Path, key: str) -> bytes:
    """A pinned picture of the deck whose card layout is `layout_path` (its templates' cards/<game>.toml)."""
    text = readers.read_input("template", layout_path.parent.parent / PICTURES / f"{key}.b64")
    return base64.b64decode(text)
