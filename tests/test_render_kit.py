"""The print-and-play kit read back: its bookmarks and their pages, one duplex job (every sheet's back is
its own or blank), page numbers, the rules in the chosen language, the calibration sheet, the cards, the
accessories and an attribution page naming every source with producer, licence and vintage, the deck
version and its content hash; deterministic."""

import io

import pypdf
import pytest
from click.testing import CliRunner

from pipeline import games
from pipeline.cli import cli
from pipeline.decks import published
from pipeline.extract import load_sources
from pipeline.render import kit
from pipeline.render.printing import PrintOptions

pytestmark = pytest.mark.mirror


@pytest.fixture(scope="module")
def kits(store):
    out = {}
    for game, lang, paper in (
        ("deutschland", "de", "a4"),
        ("deutschland", "en", "letter"),
        ("laender-toppen", "en", "a4"),
    ):
        path, deck = published.deck(game, None)
        manifest = kit.manifest_of(path)
        data, roles = kit.render(deck, manifest, PrintOptions(paper=paper, lang=lang), store)
        out[game, lang] = (deck, manifest, data, roles)
    return out


def _outline(reader: pypdf.PdfReader) -> list[tuple[str, int]]:
    entries: list = list(reader.outline)
    return [(str(entry.title), int(reader.get_destination_page_number(entry) or 0)) for entry in entries]


@pytest.mark.parametrize(("game", "lang"), [("deutschland", "de"), ("deutschland", "en"), ("laender-toppen", "en")])
def test_kit_has_six_bookmarked_sections_in_order(kits, game, lang):
    deck, _manifest, data, roles = kits[game, lang]
    reader = pypdf.PdfReader(io.BytesIO(data))
    outline = _outline(reader)
    assert len(reader.pages) == len(roles)
    titles = {
        "de": ["Titelseite", "Spielregeln", "Testblatt", "Karten", "Zubehör", "Quellen"],
        "en": ["Cover", "Rules", "Duplex", "Cards", "Accessories", "Sources"],
    }[lang]
    assert [t.split()[0].split("(")[0] for t, _ in outline] == titles
    starts = [page for _, page in outline]
    assert starts == [roles.index(key) for key in kit.SECTIONS]
    sheets = -(-len(deck["cards"]) // 9)
    assert roles.count("cards") == 2 * sheets and roles.count("calibration") == 2
    first = deck["cards"][0]["fields"]
    assert (first.get("name") or first["name_en"]) in reader.pages[starts[3]].extract_text()
    assert {"de": "Kalibrierung", "en": "calibration"}[lang] in reader.pages[starts[2]].extract_text()


@pytest.mark.parametrize(("game", "lang"), [("deutschland", "de"), ("deutschland", "en"), ("laender-toppen", "en")])
def test_kit_prints_as_one_duplex_job(kits, game, lang):
    """Pages pair into sheets (1/2, 3/4 ...): a calibration or card sheet has its own back, an accessory page a
    blank one; every page shows its number, a blank page nothing else but the words saying so."""
    _deck, _manifest, data, roles = kits[game, lang]
    sheets = [*roles, "blank"][: len(roles) + len(roles) % 2]  # an odd last page has nothing on its back
    for front, back in zip(sheets[::2], sheets[1::2], strict=True):
        if front in ("calibration", "cards"):
            assert back == front
        if front == "accessories" or back == "accessories":
            assert (front, back) == ("accessories", "blank")
        assert front != "blank"
    assert "accessories" in roles and roles[-1] in ("attribution", "blank")
    reader = pypdf.PdfReader(io.BytesIO(data))
    page_word = {"de": "Seite", "en": "page"}[lang]
    for n, (page, role) in enumerate(zip(reader.pages, roles, strict=True), start=1):
        words = " ".join(page.extract_text().split())
        assert f"{page_word} {n}" in words, (n, role)
        if role == "blank":
            assert words.replace(f"{page_word} {n}", "").strip(" ·") in (
                "Diese Seite bleibt leer",
                "This page is intentionally blank",
            )


def test_kit_cover_states_players_components_and_the_one_print_setting(kits):
    deck, _manifest, data, _roles = kits["deutschland", "en"]
    cover = " ".join(pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    low, high = games.get("deutschland").player_counts(deck)
    assert f"Players: {low}–{high}" in cover
    assert "96 place cards, 24 guess cards" in cover and "map of Germany" in cover
    assert "duplex, long edge" in cover


@pytest.mark.parametrize(
    ("game", "lang", "words"), [("deutschland", "de", "Tippkarte"), ("deutschland", "en", "guess card")]
)
def test_kit_rules_are_in_the_chosen_language(kits, game, lang, words):
    data = kits[game, lang][2]
    rules = pypdf.PdfReader(io.BytesIO(data)).pages[1].extract_text()
    assert words in rules and ("W-Karte" in rules) == (lang == "de")


@pytest.mark.parametrize(("game", "lang"), [("deutschland", "de"), ("laender-toppen", "en")])
def test_attribution_names_every_source_with_producer_licence_vintage_and_the_content_hash(kits, game, lang):
    deck, manifest, data, _ = kits[game, lang]
    page = " ".join(pypdf.PdfReader(io.BytesIO(data)).pages[-1].extract_text().split())
    defined = load_sources()
    names = kit.sources(deck, manifest)
    assert set(manifest["sources"]) <= set(names)
    drawn = {"deutschland": {"germany-boundaries"}, "laender-toppen": {"natural-earth", "flag-icons"}}[game]
    assert drawn <= set(names)
    for name in names:
        source = defined[name]
        assert name in page and source.producer.split()[0] in page and source.license.split()[0] in page
        vintage = manifest["sources"].get(name, {}).get("vintage") or source.vintage
        assert vintage.split()[0] in page
    assert manifest["content_hash"] in page.replace(" ", "") and deck["version"] in page
    assert "DejaVu" in page


def test_kit_is_deterministic_and_written_by_the_cli(kits, store, tmp_path):
    path, deck = published.deck("deutschland", None)
    again, _roles = kit.render(deck, kit.manifest_of(path), PrintOptions(paper="a4", lang="de"), store)
    assert again == kits["deutschland", "de"][2]
    out = tmp_path / "kit.pdf"
    result = CliRunner().invoke(
        cli,
        [
            "print",
            "deutschland",
            "--kit",
            "--lang",
            "de",
            "--offline",
            "--mirror",
            str(store.mirror),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == again
