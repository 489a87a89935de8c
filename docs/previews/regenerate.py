"""Regenerate docs/previews/*.png (`make previews`) from the latest published decks: for every game of the
registry, the front and back of the first card of each card kind in its deck (one-up at 80 dpi, cropped to
the trim), the first page of its accessories (60 dpi; the World Game poster on A3) and its kit's cover and
first rules page (60 dpi, A4). Rendered with
pypdfium2, so no system package is needed; the same decks give the same PNGs. Then review.png: the top of
the `geodeck review` page of the README's example command (`readme_review`), a screenshot by headless
Chromium (kept as it is, with a note, where Chromium is missing).

    python docs/previews/regenerate.py   (needs the snapshot mirror, $GEODECK_MIRROR, or a warm store)
"""

import tempfile
from pathlib import Path

from pipeline import atomic
from pipeline.decks import published
from pipeline.extract import open_store
from pipeline.games import registry
from pipeline.render import accessories, kit, layouts, printing, raster
from pipeline.review import browser, page

HERE = Path(__file__).resolve().parent
CARD_DPI, ACCESSORY_DPI = 80, 60
BLEED_MM = 3.0
ACCESSORY_PAPER = {"world-game": "a3"}  # the poster reads best on one page


def _png(pdf: bytes, page: int, dpi: int, out: Path, crop_mm: float = 0.0) -> None:
    atomic.write_bytes(out, raster.png(pdf, page, dpi, crop_mm))
    print(out.relative_to(HERE.parent.parent))


def previews(store) -> list[Path]:
    written = []
    for game, definition in registry.registered().items():
        deck = published.deck(definition)[1]
        options = printing.PrintOptions(layout="one-up", bleed=BLEED_MM)
        firsts: dict[str, int] = {}
        for i, card in enumerate(deck["cards"]):
            firsts.setdefault(card["kind"], i)
        pdf = printing.render(definition, deck, options, store)  # the whole deck: sizes fixed across it as printed
        for kind, i in firsts.items():
            for offset, side in enumerate(("front", "back")):
                out = HERE / f"{game}-{kind}-{side}.png"
                _png(pdf, 2 * i + offset, CARD_DPI, out, BLEED_MM)
                written.append(out)
        paper = ACCESSORY_PAPER.get(game, "a4")
        pdf, _ = accessories.render(definition, deck, accessories.AccessoryOptions(paper=paper), store)
        out = HERE / f"{game}-accessories.png"
        _png(pdf, 0, ACCESSORY_DPI, out)
        written.append(out)
        path, deck = published.deck(definition, None)
        pdf, roles = kit.render(definition, deck, kit.manifest_of(path), printing.PrintOptions(), store)
        for section in ("cover", "rules"):
            out = HERE / f"{game}-{section}.png"
            _png(pdf, roles.index(section), ACCESSORY_DPI, out)
            written.append(out)
        layouts.load(definition)  # every game with a deck has a layout: fail here, not in the README
    return written


def readme_review() -> tuple[str, str, str]:
    """(game, old, new) of the README's example `geodeck review GAME OLD NEW --out DIR`: the command its picture
    captions, so the picture shows what the command writes."""
    for line in (HERE.parent.parent / "README.md").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:2] == ["geodeck", "review"] and words[5:6] == ["--out"]:
            return words[2], words[3], words[4]
    raise SystemExit("README.md has no example `geodeck review GAME OLD NEW --out DIR` for review.png")


def review(store) -> Path:
    out = HERE / "review.png"
    if browser.executable() is None:
        print(f"kept {out.name}: no Chromium to take its screenshot (apt-get install chromium)")
        return out
    game, old, new = readme_review()
    with tempfile.TemporaryDirectory() as folder:
        written = page.write(registry.get(game), old, new, Path(folder) / "review", store)
        browser.screenshot(written.path, Path(folder) / out.name, 1280, 1000)
        atomic.write_bytes(out, (Path(folder) / out.name).read_bytes())
    print(out.relative_to(HERE.parent.parent))
    return out


if __name__ == "__main__":
    store = open_store(online=False)
    kept = {*previews(store), review(store)}
    for stale in HERE.glob("*.png"):
        if stale not in kept:
            stale.unlink()
            print(f"removed {stale.name}")
