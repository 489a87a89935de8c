"""What the cards print fits and reads alike: map numbers of every digit count lie inside their ring (measured
with reportlab's stringWidth), one size for every card; one number format per Länder toppen category, with
the typographic minus."""

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.games.world_game import cards as world_cards
from pipeline.i18n import registry as languages
from pipeline.render import layouts, text
from pipeline.render.context import CardContext
from pipeline.render.numbers import MINUS, number, with_unit


@pytest.fixture(scope="module")
def world(store):
    layout = layouts.load(games.get("world-game"))
    return published.deck(games.get("world-game"))[1], CardContext(layout, languages.language("en"), 0.0, store)


def test_map_numbers_of_every_digit_count_lie_inside_their_ring(world):
    deck, ctx = world
    circle = ctx.layout.box("number")
    size = world_cards.number_size(ctx)
    assert size >= text.SMALLEST_PT * text.PT_MM
    for card in deck["cards"]:
        fields = card["fields"]
        label = number(fields["map_number"], languages.language("en"))
        radius = circle.w / 2 * (world_cards.INNER if len(fields["continents"]) > 1 else 1.0)
        half_w, half_h = stringWidth(label, ctx.bold, size) / 2, size * text.DIGIT_HEIGHT / 2
        assert (half_w**2 + half_h**2) ** 0.5 <= radius, (card["id"], label)
    assert {len(str(c["fields"]["map_number"])) for c in deck["cards"]} == {1, 2, 3}
    two = [c for c in deck["cards"] if len(c["fields"]["continents"]) > 1 and c["fields"]["map_number"] >= 100]
    assert two  # Egypt, Kazakhstan, ... : three digits on the white disc


def test_the_old_fit_to_the_discs_square_overflowed_it(world):
    """The number used to fit the square around the white disc: "173" then reached past the disc."""
    _deck, ctx = world
    inner = ctx.layout.box("number").w / 2 * world_cards.INNER
    size = text.fit("173", ctx.bold, text.Box(0, 0, 2 * inner, 2 * inner), *ctx.layout.font("number")).size_mm
    half_w, half_h = stringWidth("173", ctx.bold, size) / 2, size * text.DIGIT_HEIGHT / 2
    assert (half_w**2 + half_h**2) ** 0.5 > inner


def test_negative_numbers_print_a_typographic_minus():
    assert number(-49.4, languages.language("de"), "#,##0.0") == f"{MINUS}49,4"
    assert with_unit(-49.4, languages.language("en"), "#,##0.0", "{n} °C") == f"{MINUS}49.4 °C"
    assert "-" not in number(-3, languages.language("de"))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_laender_toppen_category_prints_one_format_that_keeps_the_decks_order(lang):
    """Every value of a category has the same number of decimals, and two different deck values never
    print alike (the players compare what is printed)."""
    deck = published.deck(games.get("laender-toppen"))[1]
    layout = layouts.load(games.get("laender-toppen"))
    decimal = {"de": ",", "en": "."}[lang]
    for category in layout.data["categories"]:
        values = {
            c["fields"][category["field"]] for c in deck["cards"] if c["fields"].get(category["field"]) is not None
        }
        printed = {value: number(value, languages.language(lang), category["pattern"]) for value in values}
        decimals = {p.split(decimal)[1] if decimal in p else "" for p in printed.values()}
        assert len({len(d) for d in decimals}) == 1, (category["field"], sorted(printed.values())[:5])
        assert len(set(printed.values())) == len(values), category["field"]


@pytest.mark.mirror
def test_no_world_map_number_or_dot_within_3_mm_of_the_cut_line(store):
    """A4 and Letter cut the poster at its middle: every dot, number and leader keeps 3 mm (on the paper, at
    the halves' scale) from it; Mali's dot used to sit on the line."""
    from pipeline.games.world_game import accessories as world_map
    from pipeline.render.accessories import words
    from pipeline.render.pages import new_canvas

    layout = layouts.load(games.get("world-game"))
    ctx = CardContext(layout, languages.language("en"), 0.0, store)
    canvas, _ = new_canvas()
    poster = world_map.draw_poster(
        canvas, published.deck(games.get("world-game"))[1], ctx, words(layout, languages.language("en"))
    )
    middle = float(layout.data["accessories"]["poster_mm"][0]) / 2
    clear = 3.0 / 0.95  # poster mm of 3 mm on the A4 halves (scale 0.95; Letter's is larger)
    assert clear <= world_map.SEAM_MM
    for panel in poster.panels:
        for x, _y, r in panel.dots:
            assert abs(x - middle) >= clear + r - 1e-6 or not panel.bounds[0] < middle < panel.bounds[2]
        boxes = [box for _, box in panel.inside] + [p.box for p in panel.placed]
        for x0, _y0, x1, _y1 in boxes:
            assert x1 <= middle - clear or x0 >= middle + clear or not panel.bounds[0] < middle < panel.bounds[2]


@pytest.mark.mirror
def test_antarctica_is_shown_whole_in_a_polar_inset_on_its_card_and_its_joker(store):
    import io

    import pypdf
    import shapely

    from pipeline.render import printing

    deck = published.deck(games.get("laender-toppen"))[1]
    polar = [c for c in deck["cards"] if "Antarctica" in c["fields"]["continents"]]
    others = [c for c in deck["cards"] if c["kind"] == "joker" and c not in polar][:2] + deck["cards"][:2]
    assert {c["kind"] for c in polar} == {"antarctica", "joker"}
    data = printing.render(
        games.get(deck["game"]), {**deck, "cards": polar + others}, printing.PrintOptions(layout="one-up"), store
    )
    fronts = pypdf.PdfReader(io.BytesIO(data)).pages[::2]
    has_inset = [any("polar_" in str(name) for name in page["/Resources"]["/XObject"]) for page in fronts]  # type: ignore[index]
    assert has_inset == [True] * len(polar) + [False] * len(others)
    layout = layouts.load(games.get("laender-toppen"))
    ctx = CardContext(layout, languages.language("de"), 0.0, store)
    diameter = layout.box("polar").w
    shape = ctx.world.polar(diameter)
    x0, y0, x1, y1 = shape.bounds
    assert max(x1 - x0, y1 - y0) >= 0.75 * diameter  # the continent fills its disc, no sliver
    assert shapely.Point(diameter / 2, diameter / 2).buffer(diameter / 2).contains(shape)


@pytest.mark.mirror
@pytest.mark.parametrize(
    ("game", "lang", "key", "kind"),
    [
        ("laender-toppen", "de", "name", "country"),
        ("world-game", "en", "name", "country"),
        ("deutschland", "de", "place_name", "place"),
    ],
)
def test_a_decks_names_take_one_size(store, monkeypatch, game, lang, key, kind):
    """Read back from the PDF: every card's name is set at the field's one size across the deck (not
    Braunschweig 15 pt beside Bad Harzburg 20 pt, nor Bahamas 14 pt beside Antigua und Barbuda 12 pt)."""
    import io

    import pdftext
    import pypdf

    from pipeline.render import printing

    deck = published.deck(games.get(game))[1]
    layout = layouts.load(games.get(game))
    size = (
        games.get(game)
        .module("cards")
        .steps(deck["cards"], CardContext(layout, languages.language(lang), 0.0, store))[key]
    )
    box, bleed, mm = layout.box(key), layout.bleed_mm, 72 / 25.4
    named = [i for i, card in enumerate(deck["cards"]) if card["kind"] == kind]
    longest = sorted(
        named, key=lambda i: -len(str(deck["cards"][i]["fields"].get("name_en") or deck["cards"][i]["fields"]["name"]))
    )[:4]
    # only the cards read back are printed, at the sizes the whole deck's names fix (as printing the deck does)
    whole = printing.with_steps
    monkeypatch.setattr(printing, "with_steps", lambda module, _cards, ctx: whole(module, deck["cards"], ctx))
    chosen = {**deck, "cards": [deck["cards"][i] for i in named[:8] + longest]}  # short names and the longest
    data = printing.render(
        games.get(chosen["game"]), chosen, printing.PrintOptions(layout="one-up", lang=languages.language(lang)), store
    )
    height = float(pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox.height)
    top = height - (bleed + box.y + box.h) * mm
    names = [
        ch
        for ch in pdftext.chars(data)
        if ch.page % 2 == 0  # the fronts
        and "Bold" in ch.font
        and top - 1 <= ch.top <= top + box.h * mm
        and (bleed + box.x) * mm - 1 <= ch.x0 <= (bleed + box.x + box.w) * mm
    ]
    seen = {round(ch.size / mm / text.PT_MM, 2) for ch in names}
    assert seen == {size}, (seen, size)
