"""Card designs read back from the PDFs: the legibility floor and text contrast on every card of the fixture
decks in both languages, the locator map of every Länder toppen card, the Deutschland backs and guess cards.

Flags and maps come from the snapshot mirror through the store (these tests skip without it).
"""

import io
from functools import cache

import pdfplumber
import pdftext
import pytest
from conformance import cases
from reportlab.lib.colors import Color

from pipeline.decks import published
from pipeline.decks.spec import load_spec
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import contrast, layouts, pictograms, printing, text
from pipeline.render.maps import CARD_PLANE, CIRCLE_MM, FULL_PLANE, TINY_MM2, visible_bounds, world
from pipeline.render.pages import new_canvas
from pipeline.render.printing import PrintOptions
from pipeline.render.text import Box

CASES = {param.values[0].name: param.values[0] for param in cases("cards")}  # every game's cards (conformance.py)
GAMES = tuple(CASES)


def deck(game: str) -> dict:
    return CASES[game].print_deck


class Printed(dict):
    """Each fixture deck printed in a language, (game, lang) -> PDF bytes, when a test first asks for it."""

    def __init__(self, store):
        super().__init__()
        self.store = store

    def __missing__(self, key: tuple[str, str]) -> bytes:
        game, lang = key
        self[key] = data = printing.render(
            games.get(game), deck(game), PrintOptions(lang=languages.language(lang)), self.store
        )
        return data


@pytest.fixture(scope="module")
def printed(store) -> Printed:
    return Printed(store)


@pytest.fixture(scope="module")
def read_back(printed):
    """Each printed PDF's characters read once (with PDFium, as pdfminer reads them: pdftext.chars), for the
    size and contrast tests: (game, lang) -> (their sizes, (page, char, its ink, the colour under it) rows)."""

    @cache
    def parse(game: str, lang: str) -> tuple[list[float], list]:
        chars = pdftext.chars(printed[game, lang])
        return [c.size for c in chars], [(c.page, c.text, Color(*c.ink), Color(*c.under)) for c in chars]

    return parse


def test_pdftext_reads_each_chars_size_ink_and_the_fill_drawn_under_it_before():
    """The reader behind read_back, on a page made for it: sizes through a scaled drawing, a fill inside a
    form, a path of two squares (bounded one by one, as pdfminer does: a char between them is not on it) and a
    fill drawn after a char (not under it)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(200, 200))
    c.setFillColorRGB(1, 0, 0)
    c.rect(10, 10, 40, 40, stroke=0, fill=1)
    c.beginForm("blue")
    c.setFillColorRGB(0, 0, 1)
    c.rect(0, 0, 30, 30, stroke=0, fill=1)
    c.endForm()
    c.saveState()
    c.translate(100, 10)
    c.doForm("blue")
    c.restoreState()
    squares = c.beginPath()
    for x in (10, 60):
        squares.rect(x, 120, 20, 20)
    c.setFillColorRGB(0, 0.5, 0)
    c.drawPath(squares, stroke=0, fill=1)
    c.setFillGray(1)
    c.setFont("Helvetica", 10)
    c.drawString(25, 25, "A")
    c.drawString(110, 20, "B")
    c.setFillGray(0)
    c.drawString(45, 125, "C")  # between the two squares
    c.saveState()
    c.scale(2, 2)
    c.setFont("Helvetica", 4)
    c.drawString(75, 40, "D")
    c.restoreState()
    c.setFillColorRGB(1, 1, 0)
    c.rect(140, 70, 30, 30, stroke=0, fill=1)  # over D, drawn after it
    c.save()
    read = {ch.text: ch for ch in pdftext.chars(buffer.getvalue())}
    assert {t: (round(ch.size, 3), ch.ink, ch.under) for t, ch in read.items()} == {
        "A": (10, (1, 1, 1), (1, 0, 0)),
        "B": (10, (1, 1, 1), (0, 0, 1)),
        "C": (10, (0, 0, 0), (1, 1, 1)),
        "D": (8, (0, 0, 0), (1, 1, 1)),
    }
    a = read["A"]  # set at x 25, baseline 25 on a page 200 high: its box's top lies less than 10 pt above
    assert a.font == "Helvetica" and a.x0 == pytest.approx(25, abs=0.01) and 200 - 25 - 10 < a.top < 200 - 25


def _colour(value) -> Color | None:
    if not isinstance(value, tuple) or len(value) not in (1, 3):
        return None
    return Color(*(value * 3 if len(value) == 1 else value))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_text_is_at_least_7_pt(read_back, game, lang):
    """Every character on every card (issue 45: nothing a print shop would call too small to read)."""
    sizes, _ = read_back(game, lang)
    assert sizes and min(sizes) >= text.CARD_PT - 0.01 and text.CARD_PT == 7


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_text_has_a_contrast_of_4_5_to_1(read_back, game, lang):
    low = [
        (page, char, round(contrast.ratio(ink, under), 2))
        for page, char, ink, under in read_back(game, lang)[1]
        if contrast.ratio(ink, under) < contrast.MIN_RATIO
    ]
    assert not low


@pytest.mark.parametrize("game", GAMES)
def test_inks_on_the_palette_reach_4_5_to_1(game):
    """Every continent and player colour gets an ink that reads on it (from the layouts' colours)."""
    layout = layouts.load(games.get(game))
    backgrounds = [layout.continent(name, languages.language("en"))[1] for name in layout.common["continents"]]
    backgrounds += [
        Color(*(int(p["colour"][i : i + 2], 16) / 255 for i in (1, 3, 5)))
        for p in layout.data.get("players", {}).values()
    ]
    for background in backgrounds:
        assert contrast.ratio(layout.ink_on(background), background) >= contrast.MIN_RATIO


def test_contrast_follows_wcag():
    assert contrast.ratio(Color(0, 0, 0), Color(1, 1, 1)) == pytest.approx(21)
    assert contrast.ratio(Color(0.5, 0.5, 0.5), Color(0.5, 0.5, 0.5)) == pytest.approx(1)


@pytest.mark.mirror
def test_every_laender_toppen_country_is_visible_on_its_locator_map(store):
    """Every country of the published deck, and the issue's six cases whether in the deck or not: each fills
    at least TINY_MM2 of its map, or a whole circle on the map marks it."""
    cards = published.deck(games.get("laender-toppen"), None)[1]["cards"]
    layout = layouts.load(games.get("laender-toppen"))
    box = layout.box("map")
    canvas, _ = new_canvas()
    canvas.scale(72 / 25.4, 72 / 25.4)
    maps = world(store)
    circled = set()
    issue_cases = ["KIR", "FJI", "SLB", "NLD", "PRT", "CUB"]  # invisible on 2026.11.0, in or out of later decks
    countries = [c["fields"]["iso3"] for c in cards if c["kind"] != "joker"]
    for iso3 in dict.fromkeys([*countries, *issue_cases]):
        marker = maps.draw_country(canvas, box, iso3, layout.colour("red"), iso3)
        if marker.circle is None:
            assert marker.area_mm2 >= TINY_MM2, iso3
        else:
            x, y = marker.circle
            assert (
                box.x + CIRCLE_MM <= x <= box.x + box.w - CIRCLE_MM
                and box.y + CIRCLE_MM <= y <= box.y + box.h - CIRCLE_MM
            )
            circled.add(iso3)
    assert set(issue_cases) <= circled
    ata = maps.draw_country(canvas, box, "ATA", layout.colour("red"), "ata")
    assert ata.circle is None and ata.area_mm2 >= TINY_MM2  # Antarctica on the same map as every other card


@pytest.mark.parametrize(
    ("plane", "box"),
    [(CARD_PLANE, layouts.load(games.get("laender-toppen")).box("map")), (FULL_PLANE, Box(20, 150, 170, 90))],
)
def test_locator_maps_are_centred_on_their_visible_land(store, plane, box):
    """The card's map, and the whole world as the kit's cover draws it."""
    maps = world(store)
    scale, dx, _ = maps.planes[plane].frame(box)
    x0, _, x1, _ = visible_bounds([g for c, g in maps.base if plane == FULL_PLANE or c != "Antarctica"])
    assert (x0 * scale + dx + x1 * scale + dx) / 2 == pytest.approx(box.x + box.w / 2, abs=0.05)


def _chars(data: bytes, page: int) -> list[dict]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [ch for ch in pdf.pages[page].chars if ch["text"].strip()]


def test_deutschland_backs_set_both_numbers_at_one_size_on_one_baseline(printed):
    """The fixture's backs page: on each card the orange and the grey number share size and baseline, and
    every card uses the same size (102 beside 49 as 3 beside 35)."""
    layout = layouts.load(games.get("deutschland"))
    chars = _chars(printed["deutschland", "de"], 1)
    value_pt = layout.font("value")[0]
    numbers = [ch for ch in chars if ch["size"] > 21 and ch["text"].isdigit() and ch["size"] <= value_pt + 0.01]
    by_baseline: dict[float, set[float]] = {}
    for ch in numbers:
        by_baseline.setdefault(round(ch["bottom"], 1), set()).add(round(ch["size"], 2))
    sizes = {size for group in by_baseline.values() for size in group}
    assert len(sizes) == 1
    assert len(by_baseline) == 3  # three rows of cards, one baseline each
    colours = {tuple(round(v, 2) for v in ch["non_stroking_color"]) for ch in numbers}
    assert len(colours) == 2  # orange and grey


@pytest.mark.parametrize(("lang", "east"), [("de", "O"), ("en", "E")])
def test_guess_cards_carry_their_symbol_in_all_four_corners(printed, lang, east):
    """Fronts page 2 of the fixture (a place card, guess cards rot N S W O most fewest, gelb N S): the big
    symbol plus four corner indices; the W card names its other side M; English east is E."""
    chars = _chars(printed["deutschland", lang], 2)
    layout = layouts.load(games.get("deutschland"))
    corner_pt = layout.font("guess_corner")[0]
    corners = [ch["text"] for ch in chars if abs(ch["size"] - corner_pt) < 0.01]
    for symbol, count in (("N", 8), ("S", 8), ("W", 4), (east, 4), ("▲", 4), ("▼", 4)):
        assert corners.count(symbol) == count, symbol
    at_corners = [ch for ch in chars if abs(ch["size"] - corner_pt) < 0.01]
    turned = [ch for ch in at_corners if ch["matrix"][0] < 0]
    assert len(turned) * 2 == len(corners)  # the foot's two indices turned 180°, as on playing cards
    sheet = printing.sheet_for(PrintOptions(lang=languages.language(lang)), layout.card_mm, layout.bleed_mm)
    page_h = 297 * 72 / 25.4
    for ch in at_corners:  # turned exactly when it stands in the lower half of its card
        y = (page_h - ch["top"]) * 25.4 / 72
        slot = next(sheet.slot(i) for i in range(9) if sheet.slot(i).y <= y <= sheet.slot(i).y + sheet.slot(i).h)
        assert (ch["matrix"][0] < 0) == (y < slot.y + slot.h / 2), (ch["text"], y)
    text = "".join(ch["text"] for ch in chars)
    flip = {"de": "Rückseite:M=Mitte", "en": "otherside:M=middle"}[lang]
    assert text.count(flip) == 1
    if lang == "en":
        assert "O" not in corners


def test_every_laender_toppen_category_has_a_pictogram():
    categories = layouts.load(games.get("laender-toppen")).data["categories"]
    icons = [c["icon"] for c in categories]  # one of its own per category of the deck spec, each drawn
    assert len(categories) == len(load_spec(games.get("laender-toppen")).categories) == len(set(icons))
    assert set(icons) <= set(pictograms.PICTOGRAMS)


def test_laender_toppen_rows_draw_their_pictogram_left_of_the_label(printed):
    """Six filled pictograms per country card row block: filled shapes in the muted colour left of each label."""
    layout = layouts.load(games.get("laender-toppen"))
    muted = layout.colour("muted")
    with pdfplumber.open(io.BytesIO(printed["laender-toppen", "en"])) as pdf:
        page = pdf.pages[0]
        labels = [w for w in page.extract_words() if w["text"] in ("Area", "Temperature", "Inhabitants", "Life", "GDP")]
        icons = [
            o
            for o in page.curves + page.rects
            if o.get("fill")
            and _colour(o["non_stroking_color"]) is not None
            and contrast.ratio(_colour(o["non_stroking_color"]), muted) < 1.01
        ]
        for label in labels:
            assert any(
                i["x1"] <= label["x0"]
                and label["x0"] - i["x1"] < 4 * 72 / 25.4
                and i["top"] < label["bottom"]
                and i["bottom"] > label["top"]
                for i in icons
            ), label["text"]


def test_flags_are_cached_as_drawings_and_print_the_same(store, tmp_path):
    """The first print converts the SVGs and caches them in the store; a fresh process (here: a fresh
    Flags) loads the cache and prints byte-identical cards."""
    from pipeline.extract.store import SnapshotStore
    from pipeline.render import maps

    fresh = SnapshotStore(tmp_path / "store", store.mirror, online=False)
    first = printing.render(games.get("world-game"), deck("world-game"), PrintOptions(), fresh)
    cached = list((tmp_path / "store" / ".drawings" / "flag-icons").glob("*.json"))
    assert len(cached) == len({c["fields"]["flag"] for c in deck("world-game")["cards"]})
    maps._LOADED.clear()
    assert printing.render(games.get("world-game"), deck("world-game"), PrintOptions(), fresh) == first
