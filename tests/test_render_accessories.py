"""Accessory PDFs read back with pdfplumber: the Deutschland map on the game's grid, the numbered world map,
the Länder toppen strips; and the state-only Deutschland fronts and the legibility of Länder toppen fronts.

Maps come from the snapshot mirror through the store (these tests skip without it).
"""

import io
import json
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.games.deutschland import deck as deutschland
from pipeline.games.deutschland.states import germany
from pipeline.paths import DECKS_DIR
from pipeline.render import accessories, printing
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parent / "fixtures" / "tiny" / "render"
MM = 72 / 25.4
# Rulebook (deutschland-kartenspiel): the example card and scoring example 2
RULEBOOK_TOWNS = {
    "Bamberg": (102, 49),
    "Emden": (33, 12),
    "Wismar": (22, 55),
    "Cottbus": (65, 83),
    "Jena": (82, 56),
    "Koblenz": (93, 16),
}
# cards.md / rulebook review: the strip's categories, in order
STRIP_LABELS = ["Fläche", "Höchster", "Durchschnittstemperatur", "Einwohner", "Lebenserwartung", "BIP"]
ORANGE, GREY, RED = (0.902, 0.38, 0.0), (0.431, 0.431, 0.431), (0.843, 0.098, 0.11)


def deck(game: str) -> dict:
    return json.loads((FIXTURES / f"{game}.deck.json").read_text(encoding="utf-8"))


def colour_is(value, rgb, tol=0.01) -> bool:
    return value is not None and len(value) == 3 and all(abs(a - b) < tol for a, b in zip(value, rgb))


def words_by_colour(page, rgb) -> list[dict]:
    return [
        w
        for w in page.extract_words(x_tolerance=0.5, extra_attrs=["non_stroking_color"])
        if colour_is(w["non_stroking_color"], rgb)
    ]


def set_strings(page) -> list[str]:
    """The strings as drawn: runs of characters on one baseline that follow each other without a gap
    (pdfplumber's word grouping splits labels that sit close above one another)."""
    chars = sorted(page.chars, key=lambda ch: (round(ch["top"], 2), ch["x0"]))
    runs: list[list[dict]] = []
    for ch in chars:
        last = runs[-1][-1] if runs else None
        if last and abs(last["top"] - ch["top"]) < 0.01 and abs(last["x1"] - ch["x0"]) < 0.05:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    return ["".join(ch["text"] for ch in run) for run in runs]


@pytest.fixture(scope="module")
def germany_map(store):
    data, pages = accessories.render(deck("deutschland"), AccessoryOptions(), store)
    assert pages == 1
    return pdfplumber.open(io.BytesIO(data)).pages[0]


def test_deutschland_map_is_a4_portrait_with_every_grid_number(germany_map):
    assert (germany_map.width, germany_map.height) == pytest.approx((210 * MM, 297 * MM), abs=0.1)
    orange = {w["text"] for w in words_by_colour(germany_map, ORANGE)}
    grey = {w["text"] for w in words_by_colour(germany_map, GREY)}
    assert {str(k) for k in range(151)} <= orange
    assert {str(k) for k in range(91)} <= grey
    assert min(ch["size"] for ch in germany_map.chars) >= 5 - 0.01  # the legibility floor, names and numbers too


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
    for town, (ns, we) in RULEBOOK_TOWNS.items():
        assert town in names
        assert any(abs(gns - ns) <= 0.5 and abs(gwe - we) <= 0.5 for gns, gwe in grid_points), town


def test_a_card_from_another_grid_is_refused(store):
    bad = deck("deutschland")
    bamberg = next(c for c in bad["cards"] if c["fields"].get("name") == "Bamberg")
    bamberg["fields"]["ns"] = 104
    with pytest.raises(GeodeckError, match="de-bamberg.*rebuild the deck"):
        accessories.render(bad, AccessoryOptions(), store)


def test_missing_grid_and_bad_paper_are_user_errors():
    old = {k: v for k, v in deck("deutschland").items() if k != "grid"}
    with pytest.raises(GeodeckError, match=r"deutschland 2026\.11\.0 has no `grid`.*geodeck build"):
        deutschland.deck_grid(old)
    broken = {**old, "grid": {"crs": "EPSG:3857", "affine": [[1, 2, 3]]}}
    with pytest.raises(GeodeckError, match="has a bad `grid`.*2 rows of 3"):
        deutschland.deck_grid(broken)
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
    places = [c["fields"]["name"] for c in published.deck("deutschland")[1]["cards"] if c["kind"] == "place"]
    assert len(places) == 96 and set(places) <= set(set_strings(pdfplumber.open(out).pages[0]))


@pytest.fixture(scope="module")
def world_deck() -> dict:
    return published.deck("world-game", decks_dir=DECKS_DIR)[1]


def test_world_map_a3_numbers_every_country_exactly_once(store, world_deck):
    data, pages = accessories.render(world_deck, AccessoryOptions(paper="a3"), store)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    assert pages == 1 and (page.width, page.height) == pytest.approx((420 * MM, 297 * MM), abs=0.1)
    numbers = [n for n in set_strings(page) if n.isdigit()]
    expected = sorted(str(c["fields"]["map_number"]) for c in world_deck["cards"])
    assert sorted(numbers) == expected == sorted(str(n) for n in range(1, 195))


def test_world_map_on_a4_is_two_portrait_pages_with_glue_flap(store, world_deck):
    data, pages = accessories.render(world_deck, AccessoryOptions(paper="a4"), store)
    pdf = pdfplumber.open(io.BytesIO(data))
    assert pages == 2 and all((p.width, p.height) == pytest.approx((210 * MM, 297 * MM), abs=0.1) for p in pdf.pages)
    flap, cut = (
        "".join(ch["text"] for ch in sorted((c for c in p.chars if not c["upright"]), key=lambda c: -c["top"]))
        for p in pdf.pages
    )  # the hints run upwards along the seam
    assert "glue the right half here" in flap and "cut along this line" in cut
    again, _ = accessories.render(world_deck, AccessoryOptions(paper="a4"), store)
    assert again == data


def test_strips_show_six_categories_in_order(store):
    data, _pages = accessories.render(deck("laender-toppen"), AccessoryOptions(), store)
    pdf = pdfplumber.open(io.BytesIO(data))
    first = pdf.pages[0]
    assert (first.width, first.height) == pytest.approx((297 * MM, 210 * MM), abs=0.1)
    words = first.extract_words()
    top_strip = min(w["top"] for w in words if w["text"] == "Fläche")
    xs = [
        min(w["x0"] for w in words if w["text"] == label and abs(w["top"] - top_strip) < 12 * MM)
        for label in STRIP_LABELS
    ]
    assert xs == sorted(xs)
    strips = sum(sum(w["text"] == "Fläche" for w in p.extract_words()) for p in pdf.pages)
    assert strips == 6
    text = first.extract_text()
    assert "höchster Wert oben" in text and "niedrigster Wert unten" in text
    assert "Wertung" in pdf.pages[-1].extract_text()


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


def test_place_front_shows_the_state_alone(store):
    """Bamberg's front: one orange shape with Bayern's aspect, filling the picture box; no other state."""
    from pipeline.render import layouts

    layout = layouts.load("deutschland")
    data = printing.render(deck("deutschland"), PrintOptions(), store)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    block_x = (210 - 3 * 63) / 2 * MM
    block_top = (297 - (297 - 3 * 88) / 2) * MM
    card_origin = (block_x, page.height - (block_top - 88 * MM))  # Bamberg: slot 0, its bottom-left corner
    box = layout.data["boxes"]["state_picture"]
    shapes = _state_fills(page, box, card_origin)
    state = layout.data["colours"]["state_fill"].lstrip("#")
    rgb = tuple(int(state[i : i + 2], 16) / 255 for i in (0, 2, 4))
    assert shapes and all(colour_is(s["non_stroking_color"], rgb) for s in shapes)
    w = max(s["x1"] for s in shapes) - min(s["x0"] for s in shapes)
    h = max(s["bottom"] for s in shapes) - min(s["top"] for s in shapes)
    bx0, by0, bx1, by1 = germany(store).states["Bayern"].bounds
    assert w / h == pytest.approx((bx1 - bx0) / (by1 - by0), rel=0.02)
    assert max(w / (box[2] * MM), h / (box[3] * MM)) == pytest.approx(1, abs=0.02)


def test_laender_toppen_fronts_print_nothing_below_5_5_pt(store):
    data = printing.render(deck("laender-toppen"), PrintOptions(), store)
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    assert min(ch["size"] for ch in page.chars) >= 5.5 - 0.01
    text = page.extract_text()
    assert "0,44 km²" in text  # a small area keeps the deck's decimals, German style
    assert "Mont Nimba, on the tripoint of" in text and "…" in text  # too long at 5.5 pt: cut, not shrunk
