"""Issue 34, second pass: a Länder toppen card's hierarchy (its fact lines at one dark size), every small
country enlarged in an inset, Deutschland's states filling their picture, region maps filling the page and
the accessories' secondary text legible. Read back from the PDFs (the tests skip without the mirror)."""

import pdftext
import pytest
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.i18n.catalogue import labelled
from pipeline.render import contrast, fonts, layouts, printing, text
from pipeline.render.maps import TINY_MM, world
from pipeline.render.pages import new_canvas
from pipeline.render.printing import PrintOptions

LT = games.get("laender-toppen")


@pytest.mark.mirror
@pytest.mark.parametrize("lang", ["de", "en"])
def test_laender_toppen_fact_lines_take_one_size_whole_and_in_dark_ink(store, lang):
    """The capital and mountain lines under the name: one size on every card, the largest at which every
    line of the deck is whole, at least 7 pt (text.CARD_PT), and dark (7:1 on white), so they read as one quiet
    block below the name. A line wider than the box even at 7 pt ("Highest mountain: Piton de la Petite Rivière
    Noire", 61 mm of 56) wraps to a second line, whole (issue 45)."""
    deck = published.deck(LT)[1]
    countries = [card for card in deck["cards"] if card["kind"] == "country"]
    suffix = f"_{lang}"

    def length(field: str):
        return lambda card: len(card["fields"].get(field + suffix) or "")

    longest = [max(countries, key=length(field)) for field in ("capital", "highest_mountain")]
    chosen = {**deck, "cards": [*countries[:4], *longest]}
    data = printing.render(LT, chosen, PrintOptions(layout="one-up", lang=languages.language(lang)), store)
    layout, mm = layouts.load(LT), 72 / 25.4
    facts, bleed, h = layout.box("facts"), layout.bleed_mm, layout.card_mm[1]
    top, bottom = (h + bleed - facts.y - facts.h) * mm, (h + bleed - facts.y) * mm
    chars = pdftext.chars(data)
    lines = [ch for ch in chars if ch.page % 2 == 0 and ch.text.strip() and top <= ch.top <= bottom]
    assert len({ch.page for ch in lines}) == len(chosen["cards"])
    assert len({round(ch.size, 2) for ch in lines}) == 1
    assert lines[0].size >= text.CARD_PT
    regular, words = fonts.register()[0], layout.localised(languages.language(lang)).data["words"]
    card = longest[1]
    whole = labelled(lang, words["mountain"], card["fields"]["highest_mountain" + suffix])
    assert stringWidth(whole, regular, text.CARD_PT * text.PT_MM) > facts.w  # wider than its line at 7 pt
    printed = "".join(ch.text for ch in chars if ch.page == 2 * chosen["cards"].index(card))
    assert "".join(whole.split()) in "".join(printed.split()) and "…" not in printed  # wrapped, whole
    assert all(contrast.ratio(Color(*ch.ink), Color(1, 1, 1)) >= 7 for ch in lines)


@pytest.mark.mirror
def test_every_circled_country_is_enlarged_in_an_inset_and_marked_at_least_tiny_mm(store):
    """Every country the world map can only circle (the deck's and the issue's six) is drawn again in a disc
    on the open sea, its red at least TINY_MM wide there or ringed; Luxembourg (2,586 km²), a dot on the
    world map, is at least 3 mm wide in its inset."""
    from pipeline.games.laender_toppen.cards import inset_disc

    cards = published.deck(LT, None)[1]["cards"]
    layout = layouts.load(LT)
    box, red, land = layout.box("map"), layout.colour("red"), layout.colour("land")
    canvas, _ = new_canvas()
    maps = world(store)
    countries = [c["fields"]["iso3"] for c in cards if c["kind"] != "joker"]
    marked = {}
    for iso3 in dict.fromkeys([*countries, "KIR", "FJI", "SLB", "NLD", "PRT", "CUB", "VAT", "LUX"]):
        circle = maps.draw_country(canvas, box, iso3, red, iso3).circle
        if circle is not None:
            disc = inset_disc(circle, layout)
            assert box.x <= disc.x and disc.x + disc.w <= box.x + box.w and disc.y >= box.y, iso3
            marked[iso3] = maps.draw_inset(canvas, disc, iso3, red, land, land, land)
    assert {"KIR", "FJI", "VAT", "LUX"} <= set(marked)
    assert min(marked.values()) >= TINY_MM
    assert marked["LUX"] >= 3


@pytest.mark.mirror
@pytest.mark.parametrize(("game", "paper"), [("deutschland", "a4"), ("region-fra", "a4"), ("region-fra", "letter")])
def test_a_region_map_fills_its_page(game, paper):
    """The grid fills the page's map area in one direction and in the other as far as a shape true within
    MAX_STRETCH allows (France, square on its 150 × 90 grid, took 58 % of the page's height before)."""
    from pipeline.games.grid import accessories as germany_map
    from pipeline.games.grid.decks import deck_grid
    from pipeline.games.region import accessories as region_map
    from pipeline.render.accessories import PAPERS_MM

    deck = published.deck(games.get(game), None)[1]
    grid = deck_grid(deck)
    page = region_map.page_for(grid, PAPERS_MM[paper]) if "region" in game else PAPERS_MM[paper]
    area = germany_map.map_area(page)
    frame = germany_map.fit_frame(grid, area)
    filled = (germany_map.WE_MAX * frame.ux / area.w, germany_map.NS_MAX * frame.uy / area.h)
    drawn = germany_map.stretch(grid, frame)
    at_limit = min(abs(drawn - germany_map.MAX_STRETCH), abs(drawn - 1 / germany_map.MAX_STRETCH)) < 1e-9
    assert max(filled) == pytest.approx(1) and (min(filled) == pytest.approx(1) or at_limit), filled
    assert min(filled) >= 0.7, filled
    assert 1 / germany_map.MAX_STRETCH - 1e-9 <= drawn <= germany_map.MAX_STRETCH + 1e-9


def _illegible(data: bytes, keep=lambda ch: True) -> list:
    """(page, char, size, contrast) of every char below 7 pt or under 4.5:1 against what it is printed on."""
    return [
        (ch.page, ch.text, round(ch.size, 2), round(contrast.ratio(Color(*ch.ink), Color(*ch.under)), 2))
        for ch in pdftext.chars(data)
        if keep(ch) and (ch.size < 7 - 0.01 or contrast.ratio(Color(*ch.ink), Color(*ch.under)) < contrast.MIN_RATIO)
    ]


@pytest.mark.mirror
@pytest.mark.parametrize("lang", ["de", "en"])
def test_accessories_secondary_text_is_at_least_7_pt_and_4_5_to_1(store, lang):
    """The strips' hints (highest/lowest, fold, glue), the score sheet and the Deutschlandkarte's legend,
    scale and grid numbers: at least 7 pt and 4.5:1 (the map's place names, set among the grid's lines,
    keep their own size and halo)."""
    from pipeline.games.grid import accessories as germany_map
    from pipeline.games.grid.decks import deck_grid
    from pipeline.render import accessories, fonts
    from pipeline.render.accessories import PAPERS_MM, AccessoryOptions, words

    strips = published.deck(LT, None)[1]
    assert _illegible(accessories.render(LT, strips, AccessoryOptions(lang=languages.language(lang)), store)[0]) == []
    deck = published.deck(games.get("deutschland"), None)[1]
    page = PAPERS_MM["a4"]
    w = words(layouts.load(games.get("deutschland")), languages.language(lang))
    model = germany_map.map_model(deck, deck_grid(deck), page, w, fonts.register())
    x0, y0, x1, y1 = (v * 72 / 25.4 for v in model.box)
    top, bottom = page[1] * 72 / 25.4 - y1, page[1] * 72 / 25.4 - y0

    def outside_the_grid(ch) -> bool:
        return not (x0 <= ch.x0 <= x1 and top <= ch.top <= bottom)

    data = accessories.render(games.get("deutschland"), deck, AccessoryOptions(lang=languages.language(lang)), store)[0]
    assert _illegible(data, outside_the_grid) == []
