"""The pictures of a table's items (docs/recipes.md, `items.columns.picture`): each cell a PNG or JPEG file,
its path relative to the table, read through the guarded reader (`picture`: at most 4 MB), at most
`MAX_PIXELS`, made a PNG of at most `SIDE` pixels a side (the same file gives the same bytes), named by its
sha256 and pinned with the deck's templates as base64 text (`pictures/<name>.b64`, pipeline/decks/pinned.py),
so a published version prints its pictures whatever becomes of the files. A missing file, one that is no PNG
or JPEG, or too large a one is one line naming the row and the fix."""

import base64
import io
import shutil
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from pipeline import atomic, readers
from pipeline.decks.pinned import PICTURES
from pipeline.hashing import sha256
from pipeline.jsonfile import Missing, Unreadable

FORMATS = ("PNG", "JPEG")
MAX_PIXELS = 40_000_000  # a 40-megapixel photo; larger is refused before it is decoded
SIDE = 480  # pixels: a card's picture box (40 mm) at 300 dpi
NAME = 16  # hex digits of the sha256 naming a picture


def prepared(path: Path) -> bytes:
    """The picture in `path` as the cards print it (module docstring); `Unreadable` says why not."""
    data = readers.read("picture", path)
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in FORMATS:
                raise Unreadable(f"is a {image.format} image, not a PNG or JPEG")
            if image.width * image.height > MAX_PIXELS:
                raise Unreadable(f"has {image.width} × {image.height} pixels, more than {MAX_PIXELS:,}")
            image.load()
            shown = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise Unreadable("is no PNG or JPEG image") from exc
    shown.thumbnail((SIDE, SIDE))
    out = io.BytesIO()
    shown.save(out, "PNG")
    return out.getvalue()


def problem(cell: str, table: Path) -> tuple[str | None, bytes | None]:
    """(the problem, None) of a picture cell of `table`, or (None, its prepared bytes)."""
    relative = Path(cell)
    if relative.is_absolute():
        return f"picture {cell!r}: a path relative to {table.name}, e.g. pictures/bayern.png", None
    try:
        return None, prepared(table.parent / relative)
    except Missing:
        return f"picture {cell!r} is missing beside {table.name}; put the file there or fix the path", None
    except Unreadable as exc:
        return f"picture {cell!r} {exc}; save it as a PNG or JPEG of at most 4 MB", None


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
