"""Render building blocks without a PDF: geometry, number formats, text fitting, fonts, layouts."""

import pytest
from reportlab.pdfbase import pdfmetrics

from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import fonts, geometry, layouts, numbers, text

NASTY = [
    "São Tomé und Príncipe",
    "Sao Tome and Principe",
    "Côte d'Ivoire",
    "Nukuʻalofa",
    "Türkiye",
    "Bosnien und Herzegowina",
    "St. Vincent und die Grenadinen",
    "Weißenfels",
    "Ağrı Dağı",
    "Maglić",
]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_is_three_by_three_cards_centred(paper):
    sheet = geometry.Sheet(paper, 63, 88, 3).validate()
    pw, ph = geometry.PAPERS_MM[paper]
    slots = [sheet.slot(i) for i in range(9)]
    assert all((s.w, s.h) == (63, 88) for s in slots)
    assert min(s.x for s in slots) == pytest.approx(pw - max(s.right for s in slots))
    assert min(s.y for s in slots) == pytest.approx(ph - max(s.top for s in slots))
    assert slots[1].x - slots[0].x == pytest.approx(63) and slots[0].y - slots[3].y == pytest.approx(88)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_slots_mirror_the_fronts(duplex):
    sheet = geometry.Sheet("a4", 63, 88, 3)
    pw, ph = sheet.page
    for i in range(9):
        front, back = sheet.slot(i), sheet.back_slot(i, duplex, (1.5, -2.0))
        if duplex == "long":  # flipping over the long (vertical) edge mirrors x
            assert back.x - 1.5 == pytest.approx(pw - front.right) and back.y + 2.0 == pytest.approx(front.y)
        else:
            assert back.y + 2.0 == pytest.approx(ph - front.top) and back.x - 1.5 == pytest.approx(front.x)


def test_paint_area_has_bleed_only_towards_the_margin():
    sheet = geometry.Sheet("a4", 63, 88, 3)
    corner, middle, last = sheet.paint_area(0), sheet.paint_area(4), sheet.paint_area(8)
    seam = geometry.SEAM_MM
    assert (corner.w, corner.h) == (66 + seam, 91 + seam) and (last.w, last.h) == (66, 91)
    assert middle == geometry.Rect(sheet.slot(4).x, sheet.slot(4).y - seam, 63 + seam, 88 + seam)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_partial_sheet_bleeds_into_its_empty_slots(duplex):
    """Five cards: fronts fill slots 0-4, so card 4 bleeds right and down; each back bleeds wherever its
    neighbour on the backs page is empty, and keeps the seam or no bleed where a back is drawn next to it."""
    sheet = geometry.Sheet("a4", 63, 88, 3)
    seam, cards = geometry.SEAM_MM, range(5)
    assert sheet.paint_area(4, cards) == sheet.slot(4).grow(left=0, right=3, top=0, bottom=3)
    assert sheet.paint_area(3, cards) == sheet.slot(3).grow(left=3, right=seam, top=0, bottom=3)
    backs = {sheet.mirrored(i, duplex) for i in cards}
    for i in cards:
        area, slot = sheet.back_paint_area(i, duplex, (0, 0), len(cards)), sheet.back_slot(i, duplex, (0, 0))
        b = sheet.mirrored(i, duplex)
        col, row = b % 3, b // 3
        left = 0 if col > 0 and b - 1 in backs else 3
        right = seam if col < 2 and b + 1 in backs else 3
        top = 0 if row > 0 and b - 3 in backs else 3
        bottom = seam if row < 2 and b + 3 in backs else 3
        assert area == slot.grow(left=left, right=right, top=top, bottom=bottom), (i, b)
    expected = {
        "long": {"left": 3, "right": seam, "top": 0, "bottom": 3},
        "short": {"left": 0, "right": 3, "top": 3, "bottom": seam},
    }
    assert sheet.back_paint_area(4, duplex, (0, 0), 5) == sheet.back_slot(4, duplex, (0, 0)).grow(**expected[duplex])
    assert sheet.paint_area(4) == sheet.slot(4).grow(right=seam, bottom=seam)  # a full sheet as before


@pytest.mark.parametrize(("paper", "gutter", "bleed"), [("a4", 0, 3), ("a4", 2, 0.5), ("letter", 0, 3)])
def test_crop_marks_print_outside_the_bleed_and_reach_the_page_edge(paper, gutter, bleed):
    """Every cut line (two per gutter) has a mark on both sides of the block, starting at least
    MARK_MIN_GAP_MM outside the bleed (on A4 they began 0.5 mm from the trim, over the bleed), at least
    MIN_MARK_MM of it PRINTABLE_MM inside the page edge; on Letter, whose 7.7 mm above and below the block
    leave no room for that, the sheet says so."""
    sheet = geometry.Sheet(paper, 63, 88, bleed, gutter).validate()
    block = sheet.block.grow(*[bleed + geometry.MARK_MIN_GAP_MM - 1e-9] * 4)
    pw, ph = sheet.page
    marks = sheet.crop_marks()
    assert len(marks) == (24 if gutter else 16)
    for mark in marks:
        x0, y0, x1, y1 = mark
        assert not (block.x < x0 < block.right and block.y < y0 < block.top)
        assert not (block.x < x1 < block.right and block.y < y1 < block.top)
        assert {x0, x1} & {0.0, pw} or {y0, y1} & {0.0, ph}
        vertical = x0 == x1
        if paper == "letter" and vertical:
            assert geometry.printable_length(mark, sheet.page) == 0
        else:
            assert geometry.printable_length(mark, sheet.page) >= geometry.MIN_MARK_MM - 1e-9
    cramped = sheet.cramped() or ""
    assert bool(cramped) == (paper == "letter")
    assert paper != "letter" or "leave 7.7 mm above and below them: the 3 mm bleed reaches 4.7 mm from" in cramped


@pytest.mark.parametrize(("paper", "gutter"), [("a4", 0.0), ("letter", 0.0)])
def test_the_gutter_is_the_default_where_the_paper_allows_it(paper, gutter):
    assert geometry.default_gutter(paper, 63, 88, 3) == gutter
    sheet = geometry.Sheet(paper, 63, 88, 3, gutter).validate()
    assert min(sheet.block.x, sheet.block.y) >= geometry.PRINTABLE_MM  # every trim line prints


def test_with_a_gutter_each_card_bleeds_into_its_half_of_the_gutter():
    sheet = geometry.Sheet("a4", 63, 88, 3, 3)
    assert sheet.slot(1).x - sheet.slot(0).right == pytest.approx(3)
    assert sheet.slot(0).y - sheet.slot(3).top == pytest.approx(3)
    middle = sheet.paint_area(4)
    assert middle == sheet.slot(4).grow(1.5, 1.5, 1.5, 1.5)
    assert sheet.paint_area(0) == sheet.slot(0).grow(left=3, bottom=1.5, right=1.5, top=3)
    assert sheet.paint_area(4, range(5)) == sheet.slot(4).grow(left=1.5, bottom=3, right=3, top=1.5)


def test_gutters_that_do_not_fit_are_user_errors():
    with pytest.raises(GeodeckError, match="use a smaller --gutter"):
        geometry.Sheet("letter", 63, 88, 3, 3).validate()
    with pytest.raises(GeodeckError, match="no room on a4 for crop marks outside the bleed"):
        geometry.Sheet("a4", 63, 88, 3, 3).validate()  # A4's former default gutter put its marks on the bleed
    with pytest.raises(GeodeckError, match="--gutter -1 mm is negative"):
        geometry.Sheet("a4", 63, 88, 3, -1).validate()


def test_bad_paper_and_bleed_are_user_errors():
    with pytest.raises(GeodeckError, match="unknown paper size 'b5'"):
        geometry.Sheet("b5", 63, 88, 3).validate()
    with pytest.raises(GeodeckError, match="--bleed 6 mm is larger than the margin allows on letter"):
        geometry.Sheet("letter", 63, 88, 6).validate()
    assert geometry.Sheet("a4", 63, 88, 6).validate()
    with pytest.raises(GeodeckError, match="--back-offset"):
        geometry.parse_offset("1;2")
    assert geometry.parse_offset("1.5,-0.5") == (1.5, -0.5)


@pytest.mark.parametrize(
    ("lang", "value", "pattern", "unit", "expected"),
    [
        ("de", 1098581, "#,##0", "{n} km²", "1.098.581 km²"),
        ("de", 11.3, "#,##0.0##", "{n} Mio.", "11,3 Mio."),
        ("de", 28.4, "#,##0.0", "{n} °C", "28,4 °C"),
        ("de", 82.9, "#,##0.0", "{n} Jahre", "82,9 Jahre"),
        ("de", 47300, "#,##0", "{n} US$", "47.300 US$"),
        ("en", 1098581, "#,##0", "{n} km²", "1,098,581 km²"),
        ("en", 11.3, "#,##0.0##", "{n} M", "11.3 M"),
        ("en", 82.9, "#,##0.0", "{n} years", "82.9 years"),
        ("en", 47300, "#,##0", "US${n}", "US$47,300"),
        ("de", None, "#,##0", "{n} km²", "–"),
        ("de", 0.44, "as-deck", "{n} km²", "0,44 km²"),  # Vatican: the deck's two significant digits
        ("en", 0.44, "as-deck", "{n} km²", "0.44 km²"),
        ("de", 2.0, "as-deck", "{n} km²", "2,0 km²"),  # a float keeps the deck's decimal
        ("de", 1098581, "as-deck", "{n} km²", "1.098.581 km²"),
    ],
)
def test_numbers_follow_the_design_notes(lang, value, pattern, unit, expected):
    assert numbers.with_unit(value, languages.language(lang), pattern, unit) == expected


@pytest.mark.parametrize(
    ("lang", "value", "pattern", "expected"),
    [
        ("pl", 2499, "#,##0", "2499"),  # Rysy 2499 m, as Polish and CLDR write it (minimum grouping 2)
        ("pl", 12110, "#,##0", "12\u00a0110"),
        ("es", 3718, "#,##0", "3718"),
        ("es", 12110, "#,##0", "12.110"),
        ("it", 4748, "#,##0", "4748"),
        ("it", 1409.0, "#,##0.00", "1409,00"),
        ("it", -9999.5, "#,##0.0", "\u22129999,5"),
        ("de", 2963, "#,##0", "2.963"),  # German and English group every four digits
        ("en", 2963, "#,##0", "2,963"),
        ("fr", 4810, "#,##0", "4\u202f810"),
    ],
)
def test_four_digits_are_grouped_as_cldr_s_minimum_grouping_says(lang, value, pattern, expected):
    assert numbers.number(value, languages.language(lang), pattern) == expected


def test_the_font_covers_every_nasty_name():
    for font in fonts.register():
        glyphs = pdfmetrics.getFont(font).face.charToGlyph
        for name in NASTY:
            assert not {ch for ch in name if not ch.isspace() and ord(ch) not in glyphs}, (font, name)


@pytest.mark.parametrize("name", [*NASTY, "Zentralafrikanische Republik Zentralafrikanische Republik"])
def test_long_names_shrink_or_wrap_inside_their_box(name):
    _, bold = fonts.register()
    box = text.Box(0, 0, 38, 9.5)
    fitted = text.fit(name, bold, box, 14, 8, max_lines=2)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert all(stringWidth(line, bold, fitted.size_mm) <= box.w for line in fitted.lines)
    assert fitted.height <= box.h and " ".join(fitted.lines).replace("- ", "-") == name


def test_text_never_goes_below_the_legibility_floor():
    _, bold = fonts.register()
    box = text.Box(0, 0, 38, 9.5)
    assert (
        text.fit(" ".join(["Peru"] * 9), bold, box, 14, 3, max_lines=2).size_mm >= 6 * text.PT_MM - 1e-9
    )  # not one line at 4 pt
    with pytest.raises(GeodeckError, match="does not fit its 38.0 × 9.5 mm box even at 6 pt"):
        text.fit("Peru " * 30, bold, box, 14, 3, max_lines=2)


def test_on_a_card_text_never_goes_below_7_pt():
    """A card's face (printing draws each within text.floor(text.CARD_PT)): what fits at 6 pt elsewhere is set
    at 7 pt or more, and what does not fit at 7 pt is an error naming the text, with what its box holds."""
    _, bold = fonts.register()
    box = text.Box(0, 0, 38, 9.5)
    assert text.fit(" ".join(["Peru"] * 11), bold, box, 14, 3, max_lines=2).size_mm < 7 * text.PT_MM
    with text.floor(text.CARD_PT):
        assert text.fit(" ".join(["Peru"] * 10), bold, box, 14, 3, max_lines=2).size_mm >= 7 * text.PT_MM - 1e-9
        with pytest.raises(
            text.DoesNotFit,
            match="'(Peru ){10}Peru' does not fit its 38.0 × 9.5 mm box even at 7 pt",
        ) as raised:
            text.fit(" ".join(["Peru"] * 11), bold, box, 14, 3, max_lines=2)
    assert text.smallest() == text.SMALLEST_PT
    assert 0 < raised.value.holds() < len(raised.value.text)


def test_short_names_keep_the_largest_size():
    _, bold = fonts.register()
    assert text.fit("Peru", bold, text.Box(0, 0, 38, 9.5), 14, 8).size_mm == pytest.approx(14 * text.PT_MM)


@pytest.mark.parametrize("game", ["laender-toppen", "deutschland", "world-game"])
def test_layouts_keep_their_boxes_on_the_card(game):
    layout = layouts.load(games.get(game))
    w, h = layout.card_mm
    assert (w, h) == (63, 88)
    for name in layout.data["boxes"]:
        box = layout.box(name)
        assert box.x >= 0 and box.x + box.w <= w + 1e-9 and box.y >= 0 and box.y + box.h <= h + 1e-9, name


@pytest.mark.parametrize(
    ("room", "expected"), [(400, [(0, 6)]), (275, [(0, 3), (3, 3)]), (150, [(0, 2), (2, 2), (4, 2)])]
)
def test_strips_come_in_pieces_of_card_wide_fields_where_the_paper_is_narrow(room, expected):
    from pipeline.games.laender_toppen.accessories import pieces

    assert pieces(6, 66, 10, room) == expected


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_print_says_when_letter_cannot_keep_bleed_and_marks_printable(geodeck, paper):
    """The note comes before the deck is read (here an unknown version stops the print after it)."""
    code, output = geodeck(["print", "deutschland", "--paper", paper, "--version", "0.0.0"])
    assert code != 0 and "0.0.0" in output
    assert ("note: on letter the cards leave 7.7 mm above and below them" in output) == (paper == "letter")
