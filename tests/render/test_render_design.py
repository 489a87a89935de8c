"""Each game's design system (issue 34): backs of their own that look the same either way up, read back by
rendering the PDF with PDFium."""

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from fixtures.tiny.games.decks import print_deck

from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import printing
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
BACKED = ("laender-toppen", "world-game")  # the games whose cards have a back of their own
PX_PER_MM = 4  # the one-up page, 69 × 94 mm, is a whole number of pixels: turning it moves no pixel


def _back(game: str, store, lang: str = "de") -> np.ndarray:
    """The first card's back, one-up with its bleed, as an RGB image of exactly 69 × 94 mm (the scale a hair
    under PX_PER_MM, so that PDFium does not round the page up by a pixel and stretch it)."""
    deck = print_deck(game)
    deck = {**deck, "cards": deck["cards"][:1]}
    data = printing.render(
        games.get(deck["game"]), deck, PrintOptions(layout="one-up", lang=languages.language(lang)), store
    )
    page = pdfium.PdfDocument(data)[1]
    image = np.asarray(page.render(scale=PX_PER_MM * 25.4 / 72 * (1 - 1e-6)).to_pil().convert("RGB"), dtype=np.int16)
    assert image.shape == (94 * PX_PER_MM, 69 * PX_PER_MM, 3)
    return image


def _differ(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels whose colour differs by more than a quarter of the range in some channel, both
    images averaged over blocks of 2 × 2 pixels (text is hinted to the pixel grid, so turned glyphs differ
    in single pixels)."""

    def blocks(image: np.ndarray) -> np.ndarray:
        h, w, _ = image.shape
        return image.reshape(h // 2, 2, w // 2, 2, 3).mean(axis=(1, 3))

    return float(np.mean(np.abs(blocks(a) - blocks(b)).max(axis=2) > 64))


@pytest.mark.mirror
@pytest.mark.parametrize("game", BACKED)
def test_a_back_turned_180_degrees_looks_the_same(store, game):
    """A shuffled card shows no orientation: the back and the back turned half round differ only in the
    hinting of single pixels (under 0.5 % of 2 × 2 blocks by more than a quarter of the range)."""
    back = _back(game, store)
    differ = _differ(back, np.rot90(back, 2))
    assert differ < 0.005, f"{game}: {differ:.1%} of the back's pixels change when it is turned"


@pytest.mark.mirror
@pytest.mark.parametrize("lang", ["de", "en"])
def test_laender_toppen_sets_each_field_at_one_size_and_no_repeated_name(store, lang):
    """Read back from the PDF: every category label at one size (no "Temperatur (Hauptstadt)" smaller than its
    siblings), every value at one size, and no second name that repeats the first (Costa Rica / Costa Rica)."""
    import pdftext

    from pipeline.decks import published
    from pipeline.render import layouts

    deck = published.deck(games.get("laender-toppen"))[1]
    countries = [card for card in deck["cards"] if card["kind"] == "country"]
    same = next(card for card in countries if card["fields"]["name_de"] == card["fields"]["name_en"])
    chosen = {**deck, "cards": [*countries[:5], same]}
    data = printing.render(
        games.get(chosen["game"]), chosen, PrintOptions(layout="one-up", lang=languages.language(lang)), store
    )
    layout, mm = layouts.load(games.get("laender-toppen")), 72 / 25.4
    rows, bleed, h = layout.box("rows"), layout.bleed_mm, layout.card_mm[1]
    top, bottom = (h + bleed - rows.y - rows.h) * mm, (h + bleed - rows.y) * mm
    chars = [ch for ch in pdftext.chars(data) if ch.page % 2 == 0 and ch.text.strip()]
    in_rows = [ch for ch in chars if top <= ch.top <= bottom]
    for bold in (False, True):  # labels, values
        assert len({round(ch.size, 2) for ch in in_rows if ("Bold" in ch.font) == bold}) == 1
    last = "".join(ch.text for ch in chars if ch.page == 2 * (len(chosen["cards"]) - 1))
    assert last.count(same["fields"]["name_de"].replace(" ", "")) == 1
