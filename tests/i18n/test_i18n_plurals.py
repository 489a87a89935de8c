"""Where a number precedes a noun the noun takes the language's form for it (gettext plurals, each catalogue's
Plural-Forms): the kit cover's card counts, the review page's build gate."""

from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.i18n.catalogue import form
from pipeline.render import layouts
from pipeline.review import model, page


def _kinds(name: str, lang: str) -> dict:
    return layouts.load(games.get(name)).localised(languages.language(lang)).data["kit"]["words"]["kinds"]


def test_a_card_count_takes_the_nouns_form_for_its_number():
    country = _kinds("laender-toppen", "pl")["country"]
    assert [form("pl", country, n).format(n=n) for n in (1, 24, 119, 22)] == [
        "1 karta kraju",
        "24 karty krajów",
        "119 kart krajów",
        "22 karty krajów",
    ]
    assert form("de", _kinds("deutschland", "de")["place"], 96).format(n=96) == "96 Ortskarten"  # as before
    assert form("de", _kinds("laender-toppen", "de")["antarctica"], 1).format(n=1) == "1 Antarktis-Karte"
    assert form("fr", _kinds("deutschland", "fr")["guess"], 24).format(n=24) == "24 cartes Pronostic"
    assert form("en", _kinds("laender-toppen", "en")["joker"], 1).format(n=1) == "1 joker"


def test_the_build_gate_counts_its_changes_in_the_languages_form():
    gate = model._verdict(1)
    assert "1 suspicious change until an editor has reviewed it" in page._said(
        languages.language("en"), gate["text"], gate["fields"]
    )
    assert "3 suspicious changes" in page._said(languages.language("en"), model._verdict(3)["text"], {"count": 3})
    assert "1 podejrzanej zmiany" in page._said(languages.language("pl"), gate["text"], gate["fields"])
    assert "5 podejrzanych zmian" in page._said(languages.language("pl"), model._verdict(5)["text"], {"count": 5})
