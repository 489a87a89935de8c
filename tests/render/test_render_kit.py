"""The print-and-play kit read back: its bookmarks and their pages, one duplex job (every sheet's back is
its own or blank), page numbers, the rules in the chosen language, the calibration sheet, the cards, the
accessories and an attribution page naming every source with producer, licence and vintage, the deck
version and its content hash; deterministic."""

import io
import re

import pdftext
import pypdf
import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from pipeline.decks import published
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import kit, layouts, licences
from pipeline.render import ports as render_ports
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
        path, deck = published.deck(games.get(game), None)
        manifest = kit.manifest_of(path)
        data, roles = kit.render(
            games.get(deck["game"]), deck, manifest, PrintOptions(paper=paper, lang=languages.language(lang)), store
        )
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
    texts = pdftext.pages(data)
    assert (first.get("name") or first["name_en"]) in pdftext.words(texts[starts[3]])
    assert {"de": "Kalibrierung", "en": "calibration"}[lang] in texts[starts[2]]


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
    page_word = {"de": "Seite", "en": "page"}[lang]
    for n, (page, role) in enumerate(zip(pdftext.pages(data), roles, strict=True), start=1):
        words = pdftext.words(page)
        assert f"{page_word} {n}" in words, (n, role)
        if role == "blank":
            assert words.replace(f"{page_word} {n}", "").strip(" ·") in (
                "Diese Seite bleibt leer",
                "This page is intentionally blank",
            )


def test_kit_cover_states_players_components_and_the_one_print_setting(kits):
    deck, _manifest, data, _roles = kits["deutschland", "en"]
    cover = pdftext.words(pdftext.pages(data)[0])
    low, high = games.get("deutschland").player_counts(deck)
    assert f"Players: {low}–{high}" in cover
    assert "96 place cards and 24 guess cards" in cover and "map of Germany" in cover  # a CLDR list (issue 43)
    assert "duplex, long edge" in cover
    cover_words = layouts.load(games.get("deutschland")).design_section("cover")
    assert f"Age: {cover_words['age']}+" in cover  # issue 34: what a buyer asks, and issue 33's print advice
    assert "Playing time: {}–{} minutes".format(*cover_words["minutes"]) in cover
    assert "Card size: 63 × 88 mm" in cover and "Card stock:" in cover and "Cutting:" in cover


@pytest.mark.parametrize(
    ("game", "lang", "shown"),
    [
        ("laender-toppen", "en", ["How to play", "The country card", "Colombia", "Sweden", "Kazakhstan", "Morocco"]),
        ("deutschland", "de", ["Spielregeln", "Die Ortskarte", "Wismar", "Emden", "Cottbus", "Jena", "Koblenz"]),
    ],
)
def test_the_rules_page_draws_a_card_its_parts_the_rulebook_example_and_a_table(kits, game, lang, shown):
    """Issue 34: the first rules page shows the deck's own card with its parts numbered and their legend, the
    rulebook's worked example drawn with the deck's cards, and the players table set as a table (its header
    row, not "2 players 10 cards, 6 rounds" in the text); its heading is not "Title: Rules"."""
    deck, _manifest, data, roles = kits[game, lang]
    page = roles.index("rules")
    words = pdftext.words(pdftext.pages(data)[page])
    for word in shown:
        assert word in words, word
    header = layouts.load(games.get(game), languages.language(lang)).data["kit"]["words"]["table_header"]
    pages = " ".join(pdftext.words(p) for p, role in zip(pdftext.pages(data), roles, strict=True) if role == "rules")
    assert " ".join(header) in pages
    assert f"{deck['title']}: " not in words


@pytest.mark.parametrize(
    ("game", "lang", "words"), [("deutschland", "de", "Tippkarte"), ("deutschland", "en", "guess card")]
)
def test_kit_rules_are_in_the_chosen_language(kits, game, lang, words):
    data, roles = kits[game, lang][2:]
    rules = " ".join(p for p, role in zip(pdftext.pages(data), roles, strict=True) if role == "rules")
    assert words in rules and ("W-Karte" in rules) == (lang == "de")


@pytest.mark.parametrize(("game", "lang"), [("deutschland", "de"), ("laender-toppen", "en")])
def test_attribution_names_every_source_with_title_year_producer_and_licence_in_plain_words(kits, game, lang):
    deck, manifest, data, _ = kits[game, lang]
    page = pdftext.words(pdftext.pages(data)[-1])
    defined = load_sources()
    names = kit.sources(games.get(deck["game"]), manifest)
    assert set(manifest["sources"]) <= set(names)
    drawn = {"deutschland": {"germany-boundaries"}, "laender-toppen": {"natural-earth", "flag-icons"}}[game]
    assert drawn <= set(names)
    words = layouts.common_in(languages.language(lang))["kit"]["words"]
    for name in names:
        source = defined[name]
        assert source.title in page and source.year in page and source.producer in page, name
        assert words["licences"][source.license_class] in page, name
    assert deck["version"] in page and "DejaVu" in page
    assert "sha256" not in page and "sources/" not in page and manifest["content_hash"] not in page  # no build log
    personal = {"de": "Nur für den privaten Gebrauch", "en": "For personal use only"}[lang]
    assert (personal in page) == (game == "deutschland")  # its states are GADM-derived, non-commercial
    assert "Zum Verkauf freigegeben" not in page and "Cleared for sale" not in page  # not a kit for sale


def test_every_source_declares_its_licence_class_title_and_year():
    import tomllib

    from pipeline.extract.sources import LICENSE_CLASSES
    from pipeline.paths import SOURCES_DIR

    for path in sorted(SOURCES_DIR.glob("*.toml")):
        meta = tomllib.loads(path.read_text(encoding="utf-8"))["source"]
        assert meta.get("license_class") in LICENSE_CLASSES and meta.get("title") and meta.get("year"), path.name
    assert load_sources()["germany-boundaries"].license_class == "non-commercial"


@pytest.mark.parametrize("game", ["deutschland", "laender-toppen", "world-game"])
def test_a_kit_for_sale_draws_no_layer_that_may_not_be_sold(game):
    defined = load_sources()
    assert all(defined[name].commercial for name in licences.drawn(games.get(game), for_sale=True))
    replaced = licences.for_sale(games.get(game))
    assert replaced == ({"germany-boundaries": "natural-earth"} if game == "deutschland" else {})


def test_the_deutschland_kit_for_sale_replaces_the_gadm_states_and_says_so(kits, store, geodeck, tmp_path):
    out = tmp_path / "sale.pdf"
    code, output = geodeck(
        ["print", "deutschland", "--kit", "--for-sale", "--offline", "--mirror", store.mirror, "--out", out],
        GEODECK_STORE=str(store.root),
    )
    assert code == 0, output
    assert "germany-boundaries (non-commercial) replaced by natural-earth (public-domain)" in output
    data = out.read_bytes()
    forms = set(re.findall(rb"FormXob\.state_\w+", data))
    # each state as the deck's places draw it in Natural Earth's Germany, no GADM state anywhere (cover included)
    assert forms == {f"FormXob.state_drawn_{i}".encode() for i in range(16)}
    assert len(set(re.findall(rb"FormXob\.state_\w+", kits["deutschland", "de"][2]))) == 16
    page = pdftext.words(pdftext.pages(data)[-1])
    assert "Zum Verkauf gedruckt" in page and "Natural Earth" in page and "GADM" in page.split("Gemeindeverzeichnis")[0]
    assert "Bundesländer: Die Umrisse der Bundesländer (GADM) dürfen nicht verkauft werden" in page
    assert "Nur für den privaten Gebrauch" not in page
    assert "Zum Verkauf freigegeben: jede gezeichnete Ebene dieses Sets" in page  # every kit for sale says so


def test_a_layer_that_may_not_be_sold_without_a_stand_in_is_refused(monkeypatch, geodeck, store):
    cards = render_ports.cards(games.get("deutschland"))
    accessories = render_ports.accessories(games.get("deutschland"))
    monkeypatch.setattr(cards, "FOR_SALE", {})
    monkeypatch.setattr(accessories, "FOR_SALE", {})
    with pytest.raises(GeodeckError, match="germany-boundaries .non-commercial licence. and has no stand-in"):
        licences.for_sale(games.get("deutschland"))
    code, output = geodeck(
        ["print", "deutschland", "--kit", "--for-sale", "--offline", "--mirror", store.mirror],
        GEODECK_STORE=str(store.root),
    )
    assert code != 0 and "cannot be printed for sale" in output and "Traceback" not in output


def test_kit_is_deterministic_and_written_by_the_cli(kits, store, tmp_path):
    """The CLI's kit is the fixture's, rendered again: the same bytes."""
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
    assert out.read_bytes() == kits["deutschland", "de"][2]


def test_every_game_s_kit_names_its_card_kinds_components_and_rules():
    for game in games.names():  # region-fra's kit lacked its kinds and components (a KeyError on the cover)
        spec_kinds = set(load_spec(games.get(game)).kinds)
        for lang in ("de", "en"):
            words = layouts.load(games.get(game), languages.language(lang)).data["kit"]["words"]
            assert set(words["kinds"]) >= spec_kinds and words["components"] and words["rules"], (game, lang)


def test_attribution_states_the_deck_s_counting_rules(kits):
    """Issue 36: the rules that shape values, from the deck spec's `counting` (pipeline/decks/counting.py)."""
    page = pdftext.words(pdftext.pages(kits["laender-toppen", "en"][2])[-1])
    words = layouts.common_in(languages.language("en"))["kit"]["words"]["counting"]
    assert all(w in page for w in (words["heading"], "Kashmir", "Jerusalem", "Denali", "Russia", "1981-2010"))
    deutschland = pdftext.words(pdftext.pages(kits["deutschland", "de"][2])[-1])
    assert (
        layouts.common_in(languages.language("de"))["kit"]["words"]["counting"]["heading"] not in deutschland
    )  # its spec declares none


@pytest.mark.parametrize(("game", "lang"), [("deutschland", "de"), ("deutschland", "en"), ("laender-toppen", "en")])
def test_the_rules_pages_draw_the_setup_with_the_decks_cards(kits, game, lang):
    """Issue 34: what lies on the table at the start, drawn with the deck's cards and named under each item
    (Deutschland: the stack, the open place cards, a player's guess cards; Länder toppen: the reserve, a hand
    and the strip with each category's pictogram and label, cards above and below it)."""
    deck, _manifest, data, roles = kits[game, lang]
    pages = " ".join(pdftext.words(p) for p, role in zip(pdftext.pages(data), roles, strict=True) if role == "rules")
    layout = layouts.load(games.get(game), languages.language(lang))
    kit_words = layout.data["kit"]
    own = render_ports.rules_words(render_ports.accessories(games.get(game)))  # the deck's own words in the captions
    fields = own(deck, layout) if own else {}
    for label in kit_words["words"]["setup"]:
        assert pdftext.words(re.sub(r"<[^>]+>", "", label.format(**fields))) in pages, label
    items = [item for row in kit_words["rules"]["setup"] for item in row]
    assert len(items) == len(kit_words["words"]["setup"]) >= 3
    if game == "laender-toppen":
        for category in layouts.load(games.get(game), languages.language(lang)).data["categories"]:
            assert pdftext.words(category["words"]["label"]) in pages
