"""Print PDFs read back with pdfplumber and pypdf: geometry, duplex, fonts, safe zone, one-up boxes.

The fixture decks under tests/fixtures/tiny/render/ hold the awkward names; flags and maps come from the
snapshot mirror through the store (these tests skip without it).
"""

import io
import itertools
from pathlib import Path
from typing import cast

import pdfplumber
import pdftext
import pypdf
import pytest
from click.testing import CliRunner
from fixtures.tiny.games.decks import print_deck

from pipeline.cli import cli
from pipeline.decks import published
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.paths import DECKS_DIR
from pipeline.render import calibration, printing
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
MM = 72 / 25.4
TOL = 0.1 * MM
SAFE_MM = 3.0


def deck(game: str) -> dict:
    return print_deck(game)


@pytest.fixture(scope="module")
def pdfs(store):
    """Each fixture deck printed once per option set used below."""
    cases = {
        "lt-a4-long": ("laender-toppen", PrintOptions(paper="a4", duplex="long")),
        "de-letter-short": ("deutschland", PrintOptions(paper="letter", duplex="short", back_offset=(1.5, -1.0))),
        "de-a4-long": ("deutschland", PrintOptions(paper="a4", duplex="long", back_offset=(-2.0, 0.5))),
        "wg-letter-long": ("world-game", PrintOptions(paper="letter", duplex="long", lang=languages.language("en"))),
        "wg-one-up": ("world-game", PrintOptions(layout="one-up")),
    }
    return {key: printing.render(games.get(game), deck(game), options, store) for key, (game, options) in cases.items()}


@pytest.fixture(scope="module")
def plumbed(pdfs):
    """Each printed PDF opened once with pdfplumber: a page is parsed when a test first reads it, once for all."""
    opened = {key: pdfplumber.open(io.BytesIO(data)) for key, data in pdfs.items()}
    yield opened
    for pdf in opened.values():
        pdf.close()


def marks(page) -> list[dict]:
    """The crop marks: straight lines that touch the page edge (card content is clipped to its card)."""

    def at_edge(line):
        return (
            min(line["x0"], line["top"]) <= 0.01
            or line["x1"] >= page.width - 0.01
            or line["bottom"] >= page.height - 0.01
        )

    def black(line):
        colour = line["stroking_color"]
        return all(v == 0 for v in (colour if isinstance(colour, tuple | list) else (colour or 0,)))

    return [line for line in page.lines if at_edge(line) and black(line)]


def grid(page) -> tuple[list[float], list[float]]:
    """Trim lines (in PDF points, y upwards) recovered from the crop marks on a sheet page."""
    xs = sorted({round(line["x0"], 2) for line in marks(page) if abs(line["x0"] - line["x1"]) < 0.01})
    ys = sorted(
        {round(page.height - line["top"], 2) for line in marks(page) if abs(line["top"] - line["bottom"]) < 0.01}
    )
    return xs, ys


def cell_of(x: float, y: float, xs: list[float], ys: list[float]) -> tuple[float, float, float, float]:
    """The card (x0, y0, x1, y1) of the sheet grid that contains a point."""
    col = next(i for i in range(len(xs) - 1) if xs[i] <= x <= xs[i + 1])
    row = next(i for i in range(len(ys) - 1) if ys[i] <= y <= ys[i + 1])
    return xs[col], ys[row], xs[col + 1], ys[row + 1]


@pytest.mark.parametrize(("key", "size_mm"), [("lt-a4-long", (210, 297)), ("de-letter-short", (215.9, 279.4))])
def test_page_sizes(pdfs, key, size_mm):
    for page in pypdf.PdfReader(io.BytesIO(pdfs[key])).pages:
        assert float(page.mediabox.width) == pytest.approx(size_mm[0] * MM, abs=0.05)
        assert float(page.mediabox.height) == pytest.approx(size_mm[1] * MM, abs=0.05)


@pytest.mark.parametrize(("key", "gutter"), [("lt-a4-long", 0), ("de-letter-short", 0), ("wg-letter-long", 0)])
def test_crop_marks_at_every_cut_line_give_63_by_88_mm_cards_and_print(plumbed, key, gutter):
    """Every cut line has a mark above and below (left and right) the block reaching the page edge, starting
    at least 0.5 mm outside the 3 mm bleed, and (but above and below the block on Letter, whose margin has
    no room: `Sheet.cramped`) at least 2 mm of it 5 mm or more inside the page edge (what home printers
    print). A4 is butted by default: its former 3 mm gutter left room for marks only over the bleed."""
    pdf = plumbed[key]
    for page in pdf.pages[::2]:
        xs, ys = grid(page)
        assert len(xs) == len(ys) == (6 if gutter else 4)
        widths, heights = ({round((b - a) / MM, 1) for a, b in itertools.pairwise(v)} for v in (xs, ys))
        assert widths == ({63.0, gutter} if gutter else {63.0}) and heights == ({88.0, gutter} if gutter else {88.0})
        for x in xs:  # a mark above and below the block, each reaching its page edge
            ends = sorted(
                (page.height - ln["bottom"], page.height - ln["top"])
                for ln in marks(page)
                if abs(ln["x0"] - x) < 0.01 and abs(ln["x0"] - ln["x1"]) < 0.01
            )
            assert len(ends) == 2 and ends[0][0] <= 0.01 and ends[1][1] >= page.height - 0.01
            assert ends[0][1] <= ys[0] - 3.5 * MM + 0.01 and ends[1][0] >= ys[-1] + 3.5 * MM - 0.01  # outside the bleed
            if "letter" not in key:
                assert ends[0][1] - 5 * MM >= 2 * MM - 0.01 and page.height - 5 * MM - ends[1][0] >= 2 * MM - 0.01
        for y in ys:
            ends = sorted(
                (ln["x0"], ln["x1"])
                for ln in marks(page)
                if abs(page.height - ln["top"] - y) < 0.01 and abs(ln["top"] - ln["bottom"]) < 0.01
            )
            assert len(ends) == 2 and ends[0][0] <= 0.01 and ends[1][1] >= page.width - 0.01
            assert ends[0][1] <= xs[0] - 3.5 * MM + 0.01 and ends[1][0] >= xs[-1] + 3.5 * MM - 0.01
            assert ends[0][1] - 5 * MM >= 2 * MM - 0.01 and page.width - 5 * MM - ends[1][0] >= 2 * MM - 0.01


@pytest.mark.parametrize(
    ("key", "duplex", "offset"), [("de-letter-short", "short", (1.5, -1.0)), ("de-a4-long", "long", (-2.0, 0.5))]
)
def test_every_back_lies_behind_its_front(plumbed, key, duplex, offset):
    """Place cards carry their name on both sides: the card holding it on the backs page must be the
    front's card after the flip, moved by the back offset."""
    names = [c["fields"]["name"] for c in deck("deutschland")["cards"] if c["kind"] == "place"]
    checked = 0
    pdf = plumbed[key]
    for front, back in zip(pdf.pages[::2], pdf.pages[1::2]):
        fgrid, bgrid = grid(front), grid(back)
        for name in names:
            first = name.split()[0].split("-")[0]  # a long name may wrap after its hyphen on the front
            fw = [w for w in front.extract_words() if w["text"].split("-")[0] == first]
            bw = [w for w in back.extract_words() if w["text"].split("-")[0] == first]
            if not fw:
                continue
            assert len(bw) == 1, name
            f = cell_of((fw[0]["x0"] + fw[0]["x1"]) / 2, front.height - fw[0]["bottom"], *fgrid)
            b = cell_of((bw[0]["x0"] + bw[0]["x1"]) / 2, back.height - bw[0]["bottom"], *bgrid)
            dx, dy = offset[0] * MM, offset[1] * MM
            if duplex == "long":
                expected = (front.width - f[2] + dx, f[1] + dy, front.width - f[0] + dx, f[3] + dy)
            else:
                expected = (f[0] + dx, front.height - f[3] + dy, f[2] + dx, front.height - f[1] + dy)
            assert b == pytest.approx(expected, abs=TOL), name
            checked += 1
    assert checked == len(names)


@pytest.mark.parametrize("key", ["lt-a4-long", "de-letter-short", "wg-one-up"])
def test_fonts_are_embedded(pdfs, key):
    fonts = {}
    for page in pypdf.PdfReader(io.BytesIO(pdfs[key])).pages:
        for name, ref in (cast(dict, page["/Resources"]).get("/Font") or {}).items():
            fonts[name] = ref.get_object()
    assert fonts
    for font in fonts.values():
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, font["/BaseFont"]


@pytest.mark.parametrize("key", ["lt-a4-long", "de-letter-short", "wg-letter-long"])
def test_no_text_outside_its_cards_safe_zone_and_every_card_printed(plumbed, key):
    game = {"lt": "laender-toppen", "de": "deutschland", "wg": "world-game"}[key[:2]]
    cards_seen = 0
    pdf = plumbed[key]
    for number, page in enumerate(pdf.pages):
        xs, ys = grid(page)
        cells = set()
        for ch in page.chars:
            if not ch["text"].strip():
                continue
            x0, x1 = ch["x0"], ch["x1"]
            y0, y1 = page.height - ch["bottom"], page.height - ch["top"]
            cell = cell_of((x0 + x1) / 2, (y0 + y1) / 2, xs, ys)
            inner = (cell[0] + SAFE_MM * MM, cell[1] + SAFE_MM * MM, cell[2] - SAFE_MM * MM, cell[3] - SAFE_MM * MM)
            assert x0 >= inner[0] - 0.2 and x1 <= inner[2] + 0.2, (number, ch["text"])
            assert y0 >= inner[1] - 0.2 and y1 <= inner[3] + 0.2, (number, ch["text"])
            cells.add(cell)
        if number % 2 == 0:
            cards_seen += len(cells)
    assert cards_seen == len(deck(game)["cards"])
    assert len(pdf.pages) == 2 * -(-len(deck(game)["cards"]) // 9)


def test_one_up_pages_carry_trim_and_bleed_boxes(pdfs):
    pages = pypdf.PdfReader(io.BytesIO(pdfs["wg-one-up"])).pages
    assert len(pages) == 2 * len(deck("world-game")["cards"])
    for page in pages:
        trim, bleed = page.trimbox, page.bleedbox
        assert float(trim.width) == pytest.approx(63 * MM, abs=TOL)
        assert float(trim.height) == pytest.approx(88 * MM, abs=TOL)
        assert float(trim.left) - float(bleed.left) == pytest.approx(3 * MM, abs=TOL)
        assert float(bleed.width) == pytest.approx(69 * MM, abs=TOL)
        assert float(page.mediabox.width) == pytest.approx(float(bleed.width))
        assert "/TrimBox" in page and "/BleedBox" in page


def test_same_deck_gives_byte_identical_pdfs(pdfs, store):
    again = printing.render(
        games.get("laender-toppen"), deck("laender-toppen"), PrintOptions(paper="a4", duplex="long"), store
    )
    assert again == pdfs["lt-a4-long"]


def test_numbers_on_the_cards_follow_the_language(pdfs):
    german, english = pdftext.pages(pdfs["lt-a4-long"])[0], pdftext.pages(pdfs["wg-letter-long"])[0]
    assert "357.022 km²" in german and "83,30 Mio." in german and "Nukuʻalofa" in german
    assert "1,098,581 km²" not in german and "357,022 km²" in english and "Nukuʻalofa" in english


def _broken(game: str, card_id: str, **fields) -> dict:
    data = deck(game)
    for card in data["cards"]:
        if card["id"] == card_id:
            card["fields"].update(fields)
    return data


@pytest.mark.parametrize(
    ("game", "card_id", "fields", "message"),
    [
        ("world-game", "wg-TON", {"flag": "4x3/zz.svg"}, "card wg-TON: flag '4x3/zz.svg'"),
        ("laender-toppen", "lt-DEU", {"iso3": "XXX"}, "card lt-DEU: no map geometry"),
        ("deutschland", "de-bamberg", {"state": "Bavaria-Nord"}, "card de-bamberg: unknown state"),
        ("world-game", "wg-TON", {"name_en": "Tonga" * 40}, "card wg-TON: 'TongaTonga.*does not fit.*world-game.toml"),
    ],
)
def test_bad_cards_fail_with_an_error_naming_the_card(store, game, card_id, fields, message):
    with pytest.raises(GeodeckError, match=message):
        printing.render(
            games.get((_broken(game, card_id, **fields))["game"]),
            _broken(game, card_id, **fields),
            PrintOptions(),
            store,
        )


def test_bad_options_are_user_errors(store):
    with pytest.raises(GeodeckError, match="unknown paper size"):
        printing.render(games.get("deutschland"), deck("deutschland"), PrintOptions(paper="a3"), store)
    with pytest.raises(GeodeckError, match="larger than the margin allows"):
        printing.render(games.get("deutschland"), deck("deutschland"), PrintOptions(paper="letter", bleed=8), store)
    with pytest.raises(GeodeckError, match="--duplex 'both'"):
        printing.render(games.get("deutschland"), deck("deutschland"), PrintOptions(duplex="both"), store)


def test_print_options_list_their_values_on_a_typo():
    result = CliRunner().invoke(cli, ["print", "deutschland", "--duplex", "both"])
    assert result.exit_code == 2 and "'both' is not one of 'long', 'short', 'none'" in result.output
    result = CliRunner().invoke(cli, ["print", "monopoly"])
    assert result.exit_code == 2 and "'monopoly' is not one of 'deutschland', 'laender-toppen'" in result.output


@pytest.mark.parametrize(("duplex", "offset", "lang"), [("long", (1.0, 0.0), "en"), ("short", (-0.5, 2.0), "de")])
def test_calibration_grids_lie_behind_the_front_crosses(duplex, offset, lang):
    """One duplex sheet: each back grid's zero lines cross where a front cross lands after the flip, moved by
    the offset in use (so reading 0,0 means the offset is right); no text below the 5 pt floor."""
    pdf = pdfplumber.open(io.BytesIO(calibration.render("letter", duplex, offset, languages.language(lang))))
    front, back = pdf.pages
    assert len(pdf.pages) == 2 and (front.width, front.height) == pytest.approx((215.9 * MM, 279.4 * MM), abs=0.05)
    crosses = sorted(((c["x0"] + c["x1"]) / 2, front.height - (c["top"] + c["bottom"]) / 2) for c in front.curves)
    assert len(crosses) == 5
    zero = [line for line in back.lines if line["linewidth"] == pytest.approx(0.25 * MM, abs=0.01)]
    xs = sorted({round(ln["x0"], 2) for ln in zero if abs(ln["x0"] - ln["x1"]) < 0.01})
    ys = sorted({round(back.height - ln["top"], 2) for ln in zero if abs(ln["top"] - ln["bottom"]) < 0.01})
    centres = sorted(
        (x, y)
        for x in xs
        for y in ys
        if any(abs(ln["x0"] - x) < 0.01 and ln["top"] <= back.height - y <= ln["bottom"] for ln in zero)
    )
    dx, dy = offset[0] * MM, offset[1] * MM
    flipped = sorted(
        (front.width - x + dx, y + dy) if duplex == "long" else (x + dx, front.height - y + dy) for x, y in crosses
    )
    assert len(centres) == 5 and [v for c in centres for v in c] == pytest.approx(
        [v for c in flipped for v in c], abs=0.05
    )
    assert min(ch["size"] for page in pdf.pages for ch in page.chars) >= 5 - 0.01
    assert ("Rückseite" if lang == "de" else "back") in back.extract_text()


@pytest.mark.parametrize("game", ["world-game"])
def test_full_real_deck_prints_every_card(store, game):
    latest = DECKS_DIR / game / "LATEST"
    if not latest.is_file():
        pytest.skip(f"no real {game} deck yet")
    _, real = published.deck(games.get(game))
    data = printing.render(games.get(real["game"]), real, PrintOptions(), store)
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 2 * -(-len(real["cards"]) // 9)
    assert len(data) <= 15e6


def test_world_game_fact_labels_sit_on_their_values_line(plumbed):
    """A fact without a note (all but the highest point) has its label and its value on one line."""
    pdf = plumbed["wg-letter-long"]
    words = pdf.pages[0].extract_words()
    checked = 0
    for label in (w for w in words if w["text"] in ("Area", "Population", "Neighbouring")):
        row = [
            w
            for w in words
            if w["x0"] > label["x1"] and w["x0"] - label["x1"] < 50 * MM and abs(w["top"] - label["top"]) < 3 * MM
        ]
        value = max(row, key=lambda w: w["x1"])  # the right-aligned value
        assert abs(value["bottom"] - label["bottom"]) < 0.2 * MM, (label["text"], value["text"])
        checked += 1
    assert checked >= 3


def test_print_all_writes_both_pdfs_into_the_out_folder_and_each_path_on_one_line(store, tmp_path, monkeypatch):
    """`--what all --out DIR`: the cards and accessories PDFs under their default names in DIR; in a 40-column
    terminal every written path still stands whole on a line of its own."""
    from rich.console import Console

    import pipeline.cli.common

    log = io.StringIO()
    narrow = Console(file=log, width=40)
    monkeypatch.setattr(pipeline.cli.common, "console", narrow)  # "wrote …:", on stderr
    monkeypatch.setattr(pipeline.cli.common, "out", narrow)  # each path, on stdout
    monkeypatch.setenv("GEODECK_STORE", str(store.root))
    folder = tmp_path / "a very long folder name that does not fit forty columns"
    args = ["print", "deutschland", "--what", "all", "--offline", "--mirror", str(store.mirror), "--out"]
    result = CliRunner().invoke(cli, [*args, str(folder)])
    assert result.exit_code == 0, result.output or repr(result.exception)
    written = sorted(p.name for p in folder.iterdir())
    version = published.deck(games.get("deutschland"))[1]["version"]
    assert written == [
        f"deutschland-{version}-accessories-a4-de.pdf",
        f"deutschland-{version}-cards-a4-sheet-duplex-long-de.pdf",
    ]
    lines = log.getvalue().splitlines()
    assert all(str(folder / name) in lines for name in written)
    refused = CliRunner().invoke(cli, [*args, str(tmp_path / "both.pdf")])
    assert refused.exit_code != 0 and "--out names their folder" in str(refused.exception)


@pytest.mark.parametrize(
    ("lang", "rule"),
    [
        (
            "de",
            "gehört der Joker nicht zum Stich und kann keinen gewinnen: Nimm ihn zurück und lege ihn offen auf "
            "deinen Stapel Südamerika oder Europa",
        ),
        (
            "en",
            "not part of the trick and cannot take one: take it back and put it face up on your South America or "
            "Europe pile",
        ),
    ],
)
def test_joker_front_states_the_rulebook_joker_rule_with_its_continents(store, lang, rule):
    """Rulebook, Joker Cards: a joker is not part of the trick; its player takes it back onto one of the two
    continent piles shown on it."""
    jokers = {**deck("laender-toppen"), "cards": [c for c in deck("laender-toppen")["cards"] if c["kind"] == "joker"]}
    with pdfplumber.open(
        io.BytesIO(
            printing.render(
                games.get(jokers["game"]), jokers, PrintOptions(layout="one-up", lang=languages.language(lang)), store
            )
        )
    ) as pdf:
        front = pdf.pages[0]
        assert rule in " ".join(front.extract_text().split())
        assert min(ch["size"] for ch in front.chars) >= 5.5 - 0.01


def test_file_names_say_what_is_in_them_and_no_two_variants_share_one():
    """Game, what, paper, layout, duplex, language (also the default one) and a gutter or bleed that is not
    the default are in the name; the default language and the same one given explicitly are one file."""
    from pipeline.render import accessories, kit

    deck = {"game": "deutschland", "version": "2026.11.0"}
    variants = [
        PrintOptions(),
        PrintOptions(lang=languages.language("en")),
        PrintOptions(paper="letter"),
        PrintOptions(gutter=2),
        PrintOptions(gutter=5),
        PrintOptions(bleed=2),
        PrintOptions(duplex="short"),
        PrintOptions(layout="one-up"),
        PrintOptions(draft=True),
        PrintOptions(only=("de-a", "de-b")),
        PrintOptions(only=("de-a", "de-c")),
    ]
    names = [printing.default_output(games.get(deck["game"]), deck, options).name for options in variants]
    assert len(set(names)) == len(names)
    assert names[0] == "deutschland-2026.11.0-cards-a4-sheet-duplex-long-de.pdf"
    assert (
        printing.default_output(games.get(deck["game"]), deck, PrintOptions(lang=languages.language("de"))).name
        == names[0]
    )
    assert (
        printing.default_output(games.get(deck["game"]), deck, PrintOptions(gutter=0)).name == names[0]
    )  # the A4 default: butted
    assert names[4] == "deutschland-2026.11.0-cards-a4-sheet-duplex-long-gutter-5mm-de.pdf"
    assert names[8] == "deutschland-draft-2026.11.0-cards-a4-sheet-duplex-long-de.pdf"
    assert names[9].startswith("deutschland-2026.11.0-cards-a4-sheet-duplex-long-subset-2-")
    assert printing.default_output(
        games.get("deutschland"), {**deck, "version": None}, PrintOptions(draft=True)
    ).name == (
        "deutschland-draft-cards-a4-sheet-duplex-long-de.pdf"
    )  # a draft without a version (a build's) is not "unversioned", nor `None` (a TypeError before)
    assert accessories.default_output(games.get(deck["game"]), deck, accessories.AccessoryOptions()).name == (
        "deutschland-2026.11.0-accessories-a4-de.pdf"
    )
    assert kit.default_output(games.get(deck["game"]), deck, PrintOptions(gutter=2), languages.language("en")).name == (
        "deutschland-2026.11.0-kit-a4-duplex-long-gutter-2mm-en.pdf"
    )
    assert kit.default_output(
        games.get(deck["game"]), deck, PrintOptions(draft=True), languages.language("en")
    ).name == ("deutschland-draft-2026.11.0-kit-a4-duplex-long-en.pdf")
    assert accessories.default_output(games.get(deck["game"]), deck, accessories.AccessoryOptions(draft=True)).name == (
        "deutschland-draft-2026.11.0-accessories-a4-de.pdf"
    )
