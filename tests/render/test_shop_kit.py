"""The kit for a print shop (`print GAME --kit --for print-shop`, issue 45): rules booklet, cards, accessories
and tuck box as PDF/X-4, each passing the project's preflight and checkers that did not write it
(tests/checkers.py: Ghostscript, qpdf, pikepdf), for the built-in games and a region deck (a recipe's deck:
tests/games/custom/test_print_shop_kit.py); black text and die lines overprinting as Ghostscript separates
them."""

from pathlib import Path

import checkers
import pytest
from reportlab.lib.colors import CMYKColor
from reportlab.lib.styles import ParagraphStyle

from pipeline import markup
from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.render import fonts, kit, shop, text, tuckbox
from pipeline.render.pages import Canvas, new_canvas
from pipeline.render.press import Press
from pipeline.render.printing import PrintOptions

PARTS = ("booklet", "cards", "accessories", "tuckbox", "note")


def _kit(game: str, folder: Path, store) -> tuple[dict, dict[str, Path]]:
    """(the deck, the kit's files by part) of the game's published deck, written into `folder`; its card file
    holds the first three cards (the press's cards of every kind: tests/render/test_press.py), the box is the
    whole deck's."""
    path, deck = published.deck(games.get(game))
    options = PrintOptions(layout="one-up", press=Press(), only=tuple(card["id"] for card in deck["cards"][:3]))
    written = shop.print_kit(games.get(game), deck, kit.manifest_of(path), options, store, folder)
    return deck, {part: w.path for part, w in zip(PARTS, written, strict=True)}


@pytest.mark.mirror
@pytest.mark.parametrize("game", ["deutschland", "world-game", "laender-toppen", "region-aut"])
def test_the_kits_of_the_built_in_games_and_a_region_pass_both_checkers(game, store, tmp_path):
    deck, files = _kit(game, tmp_path, store)
    checkers.shop_kit(files, deck)
    assert files["tuckbox"].name.startswith(f"{game}-{deck['version']}-tuckbox-")


def test_black_text_overprints_as_ghostscript_separates_it(tmp_path):
    """Black text (a line and a paragraph) over cyan: the cyan plate stays whole under it; grey text (not
    100 % K) knocks out."""
    regular, _ = fonts.register()
    canvas, buffer = new_canvas(Press().canvas_class(Canvas))
    canvas.setPageSize((300, 200))
    canvas.setFillColor(CMYKColor(1, 0, 0, 0))
    canvas.rect(0, 0, 300, 200, stroke=0, fill=1)
    canvas.setFillColor("#000000")
    canvas.setFont(regular, 40)
    canvas.drawString(10, 150, "HHHHHH")
    style = ParagraphStyle("t", fontName=regular, fontSize=40, leading=44, textColor="#000000")
    para = text.paragraph(markup.text("HHHHHH"), style)
    para.wrap(290, 100)
    para.drawOn(canvas, 10, 60)
    canvas.setFillColor("#808080")
    canvas.drawString(10, 10, "HHHHHH")
    canvas.save()
    path = tmp_path / "black.pdf"
    path.write_bytes(Press().finish(buffer.getvalue(), "t", "1", "t"))
    plates = checkers.separations(path, 72)
    cyan, black = plates["Cyan"], plates["Black"]
    for top in (150, 60):  # the line and the paragraph: inked in black, the cyan beneath untouched
        band = (10, 200 - top - 28, 290, 200 - top)
        assert black.crop(band).getextrema()[0] < 40
        assert cyan.crop(band).getextrema()[1] < 40
    assert cyan.crop((10, 200 - 10 - 28, 290, 200 - 10)).getextrema()[1] > 200  # grey knocks the cyan out


@pytest.mark.mirror
def test_the_die_lines_overprint_the_art(store, tmp_path):
    """Ghostscript's plates of the tuck box: the art's inks run on unbroken under the fold line between the
    back and the side, which is on its own plate, Fold, and nowhere on CutContour's."""
    deck, files = _kit("deutschland", tmp_path, store)
    dpi = 100
    plates = checkers.separations(files["tuckbox"], dpi)
    settings = shop.settings()
    box = tuckbox.TuckBox.for_deck((63.0, 88.0), len(deck["cards"]), settings)
    (_, page_h), trim, _ = tuckbox.page(box, settings)
    x = trim[0] + box.xs[1]  # the fold between the back and the first side
    y = trim[1] + sum(box.body) / 2
    px, py = round(x / 25.4 * dpi), round((page_h - y) / 25.4 * dpi)
    column = [plates["Fold"].getpixel((px + dx, py)) for dx in (-1, 0, 1)]
    assert min(column) < 128  # the fold is on its plate
    assert plates["CutContour"].getpixel((px, py)) == 255
    art = [plates["Black"].getpixel((px + dx, py)) for dx in range(-6, 7)]
    assert max(art) - min(art) <= 2 and min(art) < 128  # the dark art unbroken under the fold


def test_the_kit_for_a_shop_is_a_folder(geodeck, tmp_path):
    code, output = geodeck(["print", "deutschland", "--kit", "--for", "print-shop", "--out", tmp_path / "x.pdf"])
    assert code == 2 and "names their folder, not a file" in output and f"--out {tmp_path / 'x'}" in output
    code, output = geodeck(["print", "deutschland", "--kit", "--for", "print-shop", "--paper", "letter"])
    assert code == 2 and "--paper" in output
