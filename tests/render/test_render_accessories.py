"""Accessory PDFs read back with pdfplumber: the Deutschland map on the game's grid, the numbered world map,
the Länder toppen strips; and the state-only Deutschland fronts and the legibility of Länder toppen fronts.

Maps come from the snapshot mirror through the store (these tests skip without it).
"""

import io
from pathlib import Path

import pdfplumber
import pdftext
import pypdf
import pytest
from click.testing import CliRunner
from fixtures.rulebook import DEUTSCHLAND_TOWNS
from fixtures.tiny.games.decks import print_deck

from pipeline.cli import cli
from pipeline.decks import published
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.games.deutschland.states import germany
from pipeline.games.grid.decks import deck_grid
from pipeline.games.laender_toppen import accessories as lt_accessories
from pipeline.i18n import registry as languages
from pipeline.paths import DECKS_DIR
from pipeline.render import accessories, layouts, printing
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
MM = 72 / 25.4
# cards.md / rulebook review: the strip's first categories (the rulebook's six), in order
STRIP_LABELS = ["Fläche", "Höchster", "Hauptstadttemperatur", "Einwohner", "Lebenserwartung", "BIP"]
ORANGE, GREY, RED = (0.702, 0.29, 0.0), (0.431, 0.431, 0.431), (0.843, 0.098, 0.11)


def deck(game: str) -> dict:
    return print_deck(game)


def colour_is(value, rgb, tol=0.01) -> bool:
    return value is not None and len(value) == 3 and all(abs(a - b) < tol for a, b in zip(value, rgb))


def words_by_colour(page, rgb) -> list[dict]:
    return [
        w
        for w in page.extract_words(x_tolerance=0.5, extra_attrs=["non_stroking_color"])
        if colour_is(w["non_stroking_color"], rgb)
    ]


@pytest.fixture(scope="module")
def germany_map(store):
    data, pages = accessories.render(games.get("deutschland"), deck("deutschland"), AccessoryOptions(), store)
    assert pages == 1
    return pdfplumber.open(io.BytesIO(data)).pages[0].dedupe_chars()  # a label's halo is a stroked copy


def test_deutschland_map_is_a4_portrait_with_every_grid_number(germany_map):
    assert (germany_map.width, germany_map.height) == pytest.approx((210 * MM, 297 * MM), abs=0.1)
    orange = {w["text"] for w in words_by_colour(germany_map, ORANGE)}
    grey = {w["text"] for w in words_by_colour(germany_map, GREY)}
    assert {str(k) for k in range(151)} <= orange
    assert {str(k) for k in range(91)} <= grey
    assert min(ch["size"] for ch in germany_map.chars) >= 6 - 0.01  # the legibility floor, names and numbers too


def test_rulebook_towns_sit_at_their_grid_numbers(germany_map):
    """Grid coordinates recovered from the printed 0/150 and 0/90 labels; each town's red dot within ±0.5."""
    orange, grey = words_by_colour(germany_map, ORANGE), words_by_colour(germany_map, GREY)

    def centre_y(text):  # the label left of the map
        return next(
            (w["top"] + w["bottom"]) / 2 for w in orange if w["text"] == text and w["x1"] < germany_map.width / 2
        )

    def centre_x(text):
        return next((w["x0"] + w["x1"]) / 2 for w in grey if w["text"] == text)

    y0, y150, x0, x90 = centre_y("0"), centre_y("150"), centre_x("0"), centre_x("90")
    dots = [
        ((c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2)
        for c in germany_map.curves
        if c.get("fill") and colour_is(c.get("non_stroking_color"), RED) and c["bottom"] < y150 + 5
    ]
    assert len(dots) == sum(card["kind"] == "place" for card in deck("deutschland")["cards"])
    grid_points = [((y - y0) / (y150 - y0) * 150, (x - x0) / (x90 - x0) * 90) for x, y in dots]
    names = germany_map.extract_text()
    for town, (ns, we) in DEUTSCHLAND_TOWNS.items():
        assert town in names
        assert any(abs(gns - ns) <= 0.5 and abs(gwe - we) <= 0.5 for gns, gwe in grid_points), town


def test_a_card_from_another_grid_is_refused(store):
    bad = deck("deutschland")
    bamberg = next(c for c in bad["cards"] if c["fields"].get("name") == "Bamberg")
    bamberg["fields"]["ns"] = 104
    with pytest.raises(GeodeckError, match="de-bamberg.*rebuild the deck"):
        accessories.render(games.get(bad["game"]), bad, AccessoryOptions(), store)


def test_missing_grid_and_bad_paper_are_user_errors():
    old = {k: v for k, v in deck("deutschland").items() if k != "grid"}
    with pytest.raises(GeodeckError, match=r"deutschland 2026\.11\.0 has no `grid`.*geodeck build"):
        deck_grid(old)
    broken = {**old, "grid": {"crs": "EPSG:3857", "affine": [[1, 2, 3]]}}
    with pytest.raises(GeodeckError, match="has a bad `grid`.*2 rows of 3"):
        deck_grid(broken)
    with pytest.raises(GeodeckError, match="--paper 'b5'"):
        AccessoryOptions(paper="b5").validate()


def test_committed_deutschland_map_prints_without_a_build_folder(store, tmp_path, monkeypatch):
    """A fresh clone: the committed deck (its own grid) and the pinned map layers suffice; build/ is empty."""
    empty = tmp_path / "build"
    empty.mkdir()
    monkeypatch.setenv("GEODECK_BUILD", str(empty))
    monkeypatch.setenv("GEODECK_STORE", str(store.root))
    out = tmp_path / "map.pdf"
    result = CliRunner().invoke(
        cli,
        [
            "print",
            "deutschland",
            "--what",
            "accessories",
            "--offline",
            "--mirror",
            str(store.mirror),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output or repr(result.exception)
    assert not any(empty.iterdir())
    places = [c["fields"]["name"] for c in published.deck(games.get("deutschland"))[1]["cards"] if c["kind"] == "place"]
    assert len(places) == 96 and set(places) <= {run.text for run in pdftext.runs(out.read_bytes())}


@pytest.fixture(scope="module")
def world_deck() -> dict:
    return published.deck(games.get("world-game"), decks_dir=DECKS_DIR)[1]


def test_world_map_a3_numbers_every_country_exactly_once(store, world_deck):
    data, pages = accessories.render(games.get(world_deck["game"]), world_deck, AccessoryOptions(paper="a3"), store)
    box = pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert pages == 1 and (box.width, box.height) == pytest.approx((420 * MM, 297 * MM), abs=0.1)
    numbers = [run.text for run in pdftext.runs(data) if run.text.isdigit()]
    expected = sorted(str(c["fields"]["map_number"]) for c in world_deck["cards"])
    assert sorted(numbers) == expected == sorted(str(n) for n in range(1, 195))


def test_world_map_on_a4_is_two_portrait_pages_with_glue_flap(store, world_deck):
    data, pages = accessories.render(games.get(world_deck["game"]), world_deck, AccessoryOptions(paper="a4"), store)
    sizes = [(p.mediabox.width, p.mediabox.height) for p in pypdf.PdfReader(io.BytesIO(data)).pages]
    assert pages == 2 and all(size == pytest.approx((210 * MM, 297 * MM), abs=0.1) for size in sizes)
    flap, cut = pdftext.turned(data)  # the hints run upwards along the seam, the only text not upright
    assert "glue the right half here" in flap and "cut along this line" in cut
    again, _ = accessories.render(games.get(world_deck["game"]), world_deck, AccessoryOptions(paper="a4"), store)
    assert again == data


@pytest.mark.parametrize(("paper", "pieces"), [("a4", 2), ("letter", 2), ("a3", 1)])
def test_the_rulebook_s_six_categories_come_in_pieces_where_the_paper_is_narrow(paper, pieces):
    """On A4 and Letter a strip of six categories comes in two pieces (three categories each, the first with a
    glue flap), on A3 in one."""
    assert len(strip_pieces(6, paper)) == pieces


def strip_pieces(categories: int, paper: str) -> list[tuple[int, int]]:
    """The pieces (first category, count) of a strip of `categories` on `paper`, as its layout says."""
    cfg = layouts.load(games.get("laender-toppen")).data["accessories"]
    room = max(accessories.PAPERS_MM[paper]) - 2 * float(cfg["side_mm"])
    return lt_accessories.pieces(categories, float(cfg["field_mm"]), float(cfg["glue_mm"]), room)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_strips_show_card_wide_categories_in_order(store, paper):
    """Each field is one card wide plus room (66 mm between field centres), every category of the deck spec on
    each of the six strips, in pieces where the paper is narrow."""
    data, _pages = accessories.render(
        games.get("laender-toppen"), deck("laender-toppen"), AccessoryOptions(paper=paper), store
    )
    pdf = pdfplumber.open(io.BytesIO(data))
    first = pdf.pages[0]
    assert first.width > first.height
    words = first.extract_words()
    labels = sorted(
        (w for w in words if w["text"] in STRIP_LABELS),
        key=lambda w: (round(w["top"] / MM / 10), w["x0"]),
    )[: len(STRIP_LABELS)]
    assert [w["text"][:8] for w in labels] == [label[:8] for label in STRIP_LABELS]
    panels = [r for p in pdf.pages for r in p.rects if r["fill"] and r["height"] == pytest.approx(22 * MM, abs=0.1)]
    categories = len(load_spec(games.get("laender-toppen")).categories)  # the deck spec's, on each of 6 strips
    parts = strip_pieces(categories, paper)
    assert len(panels) == 6 * (categories + len(parts))  # a field per category and a title panel per piece
    fields = [r for r in panels if r["width"] < 100 * MM]  # the title panels span a whole piece (but one field's)
    assert len(fields) == 6 * (categories + sum(count == 1 for _, count in parts))
    assert all(r["width"] == pytest.approx(66 * MM, abs=0.1) for r in fields)
    flaps = [r for p in pdf.pages for r in p.rects if r["stroke"] and r["width"] == pytest.approx(10 * MM, abs=0.1)]
    assert len(flaps) == 6 * (len(parts) - 1)  # the glue flaps
    strips = sum(sum(w["text"] == "Fläche" for w in p.extract_words()) for p in pdf.pages)
    assert strips == 6
    text = first.extract_text()
    assert "höchster Wert oben" in text and "niedrigster Wert unten" in text
    every = "\n".join(p.extract_text() for p in pdf.pages[:-1])
    assert every.count("Länder toppen!") == 6 and "Faltstreifen" not in every  # the title once per glued strip
    assert every.count("Aufdecken:") == 6  # the turn-over order once per strip too
    scoring = pdf.pages[-1].extract_text()
    assert "Wertung" in scoring and all(f"Spiel {n}" in scoring for n in range(1, 5))  # a sheet for four games
    english, _pages = accessories.render(
        games.get("laender-toppen"),
        deck("laender-toppen"),
        AccessoryOptions(paper=paper, lang=languages.language("en")),
        store,
    )
    assert "North America" in " ".join(pdftext.words(pdftext.pages(english)[-1]).split())  # its longest header


def _state_fills(page, box_mm, card_origin):
    """Filled paths inside a card's state-picture box: (colours, bbox in points)."""
    x0 = card_origin[0] + box_mm[0] * MM
    bottom = card_origin[1] - box_mm[1] * MM  # pdfplumber y grows downwards
    top = bottom - box_mm[3] * MM
    inside = [
        c
        for c in page.curves + page.rects
        if c.get("fill")
        and x0 - 1 <= c["x0"]
        and c["x1"] <= x0 + box_mm[2] * MM + 1
        and top - 1 <= c["top"]
        and c["bottom"] <= bottom + 1
    ]
    return inside


def test_place_fronts_show_their_state_alone_filling_its_picture_without_the_place(store):
    """Bamberg (Bayern) and Emden (Niedersachsen): one light-orange shape each, with its state's aspect,
    filling the picture's box (its width or its height: no quarter of the front left empty); no other state,
    and nothing else in the picture: no dot where the place lies (the rulebook's front is the place's name and
    its region's picture; where it lies is on the back)."""
    from pipeline.render import layouts

    layout = layouts.load(games.get("deutschland"))
    data = printing.render(games.get("deutschland"), deck("deutschland"), PrintOptions(gutter=0), store)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    block_x = (210 - 3 * 63) / 2 * MM
    block_top = (297 - (297 - 3 * 88) / 2) * MM
    box = layout.data["boxes"]["state_picture"]
    state = layout.data["colours"]["state_fill"].lstrip("#")
    rgb = tuple(int(state[i : i + 2], 16) / 255 for i in (0, 2, 4))
    states = germany(store)
    for slot, name in ((0, "Bayern"), (1, "Niedersachsen")):
        card_origin = (block_x + slot * 63 * MM, page.height - (block_top - 88 * MM))  # bottom-left corner
        shapes = _state_fills(page, box, card_origin)
        fills = [s for s in shapes if colour_is(s["non_stroking_color"], rgb)]
        assert fills and len(shapes) == len(fills)  # the state's parts and nothing else: no dot, no ring
        w = max(s["x1"] for s in fills) - min(s["x0"] for s in fills)
        h = max(s["bottom"] for s in fills) - min(s["top"] for s in fills)
        bx0, by0, bx1, by1 = states.states[name].bounds
        assert w / h == pytest.approx((bx1 - bx0) / (by1 - by0), rel=0.02)
        assert max(w / (box[2] * MM), h / (box[3] * MM)) == pytest.approx(1, abs=0.02)


def test_laender_toppen_fronts_wrap_long_facts_at_their_one_size(store):
    data = printing.render(games.get("laender-toppen"), deck("laender-toppen"), PrintOptions(), store)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    assert min(ch["size"] for ch in page.chars) >= 6 - 0.01
    text = page.extract_text()
    assert "0,44 km²" in text  # a small area keeps the deck's decimals, German style
    assert "Liberia" in text and "…" not in text  # too long for a line at the facts' one size: wrapped, whole
