"""The print-shop PDF (`--for print-shop`): PDF/X-4 by the independent preflight (tests/preflight.py), CMYK
text without rich black, the profile's own checks, and the one-up file names."""

import io
from pathlib import Path

import pdfplumber
import preflight
import pytest
from fixtures.tiny.games.decks import print_deck

from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.render import accessories, printing
from pipeline.render.press import DEFAULT_PROFILE, Press
from pipeline.render.printing import PrintOptions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "tiny" / "render"
GAMES = ("laender-toppen", "deutschland", "world-game")


def deck(game: str) -> dict:
    return print_deck(game)


@pytest.fixture(scope="module")
def press_pdfs(store) -> dict[str, bytes]:
    """Every fixture deck (each card kind of each game) as a print-shop PDF."""
    return {
        game: printing.render(games.get(game), deck(game), PrintOptions(layout="one-up", press=Press()), store)
        for game in GAMES
    }


@pytest.mark.mirror
@pytest.mark.parametrize("game", GAMES)
def test_print_shop_pdf_passes_the_pdfx4_preflight(press_pdfs, game):
    assert preflight.findings(press_pdfs[game]) == []


@pytest.mark.mirror
def test_print_shop_pdf_is_deterministic(press_pdfs, store):
    again = printing.render(
        games.get("deutschland"), deck("deutschland"), PrintOptions(layout="one-up", press=Press()), store
    )
    assert again == press_pdfs["deutschland"]


@pytest.mark.mirror
def test_the_home_pdf_fails_the_preflight(store):
    """What a shop was given before: RGB, alpha from the flags, no output intent, no PDF/X keys."""
    found = "\n".join(
        preflight.findings(
            printing.render(games.get("world-game"), deck("world-game"), PrintOptions(layout="one-up"), store)
        )
    )
    for finding in ("0 GTS_PDFX output intents", "colour operator rg", "alpha /ca", "XMP without pdfxid"):
        assert finding in found


@pytest.mark.mirror
@pytest.mark.parametrize("game", GAMES)
def test_text_is_cmyk_and_dark_text_is_black_ink_alone(press_pdfs, game):
    """No rich black: every character is filled in CMYK, and dark text (the design's #1A1A1A) in 100 % K."""
    with pdfplumber.open(io.BytesIO(press_pdfs[game])) as pdf:
        chars = [c for page in pdf.pages[:6] for c in page.chars]
    assert chars
    colours = {tuple(c["non_stroking_color"]) for c in chars}
    assert all(len(colour) == 4 for colour in colours), colours
    assert (0, 0, 0, 1) in colours
    rich = [c for c in colours if c[3] > 0.7 and sum(c[:3]) > 0]
    assert not rich, rich


@pytest.mark.mirror
def test_every_line_is_at_least_a_quarter_point(store):
    """The Deutschlandkarte's finest grid lines were 0.08 mm (0.23 pt); a scaled-down flag's hairlines less."""
    data, _ = accessories.render(games.get("deutschland"), deck("deutschland"), accessories.AccessoryOptions(), store)
    assert preflight.thinnest_line(data) >= preflight.THINNEST_PT - 0.005


def test_greys_print_in_black_ink_alone_and_colours_through_the_profile():
    press = Press()
    assert press.ink((0x1A, 0x1A, 0x1A)) == (0, 0, 0, 255)  # darker than solid black: solid black
    assert press.ink((255, 255, 255)) == (0, 0, 0, 0)
    c, m, y, k = press.ink((0x6E, 0x6E, 0x6E))
    assert (c, m, y) == (0, 0, 0) and 150 < k < 220
    assert press.delta_e((0x6E, 0x6E, 0x6E)) < 1.5
    assert press.delta_e((0xC8, 0x40, 0x2F)) < 3  # the player red is in gamut


def test_icc_must_be_a_cmyk_output_profile(tmp_path):
    rgb = tmp_path / "rgb.icc"
    rgb.write_bytes(DEFAULT_PROFILE.read_bytes()[:16] + b"RGB " + DEFAULT_PROFILE.read_bytes()[20:])
    with pytest.raises(Exception, match="not a CMYK output"):
        _ = Press(rgb).icc
    with pytest.raises(Exception, match="does not exist"):
        _ = Press(tmp_path / "missing.icc").icc


@pytest.mark.parametrize("kept", [3000, 100_000])
def test_a_truncated_icc_profile_is_refused_before_any_colour(tmp_path, kept):
    truncated = tmp_path / "truncated.icc"
    truncated.write_bytes(DEFAULT_PROFILE.read_bytes()[:kept])  # the header still says CMYK printer profile
    with pytest.raises(GeodeckError, match=r"truncated\.icc is damaged \(truncated\?\)"):
        _ = Press(truncated).icc


@pytest.mark.mirror
def test_print_shop_cli_names_and_refuses(geodeck, decks, mirror, tmp_path):
    out = tmp_path / "shop.pdf"
    shop = ["print", "deutschland", "--for", "print-shop", "--mirror", mirror, "--offline", "--out", out]
    code, text = geodeck(shop, GEODECK_STORE=str(tmp_path / "store"))
    assert code == 0, text
    assert preflight.findings(out.read_bytes()) == []
    code, text = geodeck(["print", "deutschland", "--for", "print-shop", "--layout", "sheet"])
    assert code == 2 and "--for and --layout do not go together" in text
    code, text = geodeck(["print", "deutschland", "--icc", str(DEFAULT_PROFILE)])
    assert code == 2 and "give it with --for print-shop" in text


@pytest.mark.parametrize(
    "options, refused",
    [
        (["--for", "print-shop", "--paper", "letter"], "--for and --paper do not go together"),
        (["--layout", "one-up", "--paper", "letter"], "--paper and --layout do not go together"),
    ],
)
def test_a_paper_size_for_one_card_per_page_is_refused(geodeck, tmp_path, options, refused):
    code, text = geodeck(["print", "deutschland", *options, "--out", tmp_path / "cards.pdf"])
    assert code == 2 and refused in text and "Traceback" not in text
    assert list(tmp_path.iterdir()) == []


def test_one_up_files_are_named_by_their_card_size():
    d = {"game": "world-game", "version": "1"}
    assert (
        printing.default_output(games.get(d["game"]), d, PrintOptions(layout="one-up")).name
        == "world-game-1-cards-63x88mm-one-up-en.pdf"
    )
    shop = printing.default_output(games.get(d["game"]), d, PrintOptions(layout="one-up", press=Press()))
    assert shop.name == "world-game-1-cards-63x88mm-one-up-pdfx4-en.pdf"
