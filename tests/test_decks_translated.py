"""Translated deck fields (issue 30 items 2 and 4): each name from a reviewed table, else CLDR (or the ISO
3166-2 translations), else the local name flagged as a fallback, never another language's; a deck published
before a language was registered is refused in that language with the command that fixes it."""

import pytest

from pipeline.decks import published, translated, versions
from pipeline.decks.spec import FieldSpec, load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n.names import version as names_version
from pipeline.paths import DECKS_DIR


def test_a_language_the_deck_predates_is_one_error_naming_the_build():
    game = games.get("world-game")
    version = versions.latest(DECKS_DIR / game.name)
    if version is None:
        pytest.skip("no committed world-game deck")
    deck = published.read(DECKS_DIR / game.name / version / "deck.json", game)
    spec = load_spec(game)
    translated.require(deck, spec, "fr", game.made_by)  # the committed deck has French names
    for card in deck["cards"]:  # as if published before French was registered
        card["fields"] = {k: v for k, v in card["fields"].items() if not k.endswith("_fr")}
    assert "fr" not in translated.languages(deck, spec) and "de" in translated.languages(deck, spec)
    with pytest.raises(GeodeckError, match=r"has no names in fr .*run `geodeck build`"):
        translated.require(deck, spec, "fr", game.made_by)


def _field(name: str, kind: str, column: str, lang: str, type_: str = "string", column_lang: str | None = None):
    return FieldSpec(
        name=f"{name}_{lang}", type=type_, column=column, translated=kind, lang=lang, column_lang=column_lang
    )


def _value(field, row) -> tuple[object, dict]:
    """A translated field's name and provenance (every test row has a value)."""
    name, origin = translated.value(field, row)
    assert origin is not None
    return name, origin


def test_names_come_from_reviewed_tables_then_cldr_then_the_local_name_never_another_language():
    poland = {"iso3": "POL", "iso2": "PL", "capital_en": "Warsaw", "capital_en__source": "factbook"}
    capital = {
        lang: _value(_field("capital", "capital", "capital_en", lang, column_lang="en"), poland)
        for lang in ("de", "en", "fr", "pl")
    }
    assert {lang: name for lang, (name, _) in capital.items()} == {
        "de": "Warschau",
        "en": "Warsaw",
        "fr": "Varsovie",
        "pl": "Warszawa",
    }
    assert capital["de"][1]["source"] == "reviewed" and "capitals_de.csv" in capital["de"][1]["citation"]
    assert capital["fr"][1]["source"] == "cldr" and capital["en"][1] == {"source": "factbook", "vintage": None}
    mexico = {"iso3": "MEX", "iso2": "MX", "capital_en": "Mexico City"}  # CLDR's Polish adds "(miasto)"
    assert _value(_field("capital", "capital", "capital_en", "pl", column_lang="en"), mexico)[0] == "Meksyk"
    kenya = {"iso3": "KEN", "iso2": "KE", "capital_en": "Nairobi", "capital_en__source": "factbook"}
    name, origin = _value(_field("capital", "capital", "capital_en", "it", column_lang="en"), kenya)
    assert name == "Nairobi" and origin["citation"].startswith(translated.FALLBACK) and origin["source"] == "factbook"
    congo = {"iso3": "COG", "iso2": "CG"}
    names = {lang: _value(_field("name", "country", "iso2", lang), congo)[0] for lang in ("de", "en", "fr")}
    assert names == {"de": "Republik Kongo", "en": "Republic of the Congo", "fr": "République du Congo"}
    assert _value(_field("name", "country", "iso2", "it"), {"iso3": "AUT", "iso2": "AT"}) == (
        "Austria",
        {"source": "cldr", "vintage": names_version()},
    )


def test_division_names_from_iso_3166_2_with_reviewed_corrections():
    state = {lang: _field("state", "division", "state", lang) for lang in ("de", "en", "es", "fr", "pl")}
    bavaria = {"state": "Bayern", "country": "DEU"}
    assert {lang: _value(f, bavaria)[0] for lang, f in state.items()} == {
        "de": "Bayern", "en": "Bavaria", "es": "Baviera", "fr": "Bavière", "pl": "Bawaria"
    }  # fmt: skip
    assert _value(state["fr"], bavaria)[1]["source"] == "pycountry"
    assert _value(state["fr"], {"state": "Thüringen", "country": "DEU"})[0] == "Thuringe"  # iso-codes: Turinge
    assert _value(state["de"], bavaria)[1] == {"source": "local", "vintage": None}  # its own language
    name, origin = _value(state["fr"], {"state": "Berlin", "country": "DEU"})
    assert name == "Berlin" and origin["citation"] == f"{translated.FALLBACK}fr"


@pytest.mark.parametrize("command", ["print", "play"])
def test_a_version_without_the_language_s_names_is_refused_by_print_and_play(geodeck, tmp_path, command):
    """World Game 2026.12.4 predates `<field>_<lang>` (its English names were `capitals`, ...): printing or
    playing it in English is one line naming the fix, exit 2, nothing written (never German names instead)."""
    if not (DECKS_DIR / "world-game" / "2026.12.4").is_dir():
        pytest.skip("no committed world-game 2026.12.4")
    out = tmp_path / "cards.pdf"
    args = [command, "world-game", "--version", "2026.12.4", "--lang", "en"]
    code, output = geodeck(args + (["--out", out] if command == "print" else ["--record", tmp_path / "r.json"]))
    assert code == 2 and "has no names in en (it has de)" in output and "`geodeck build`" in output
    assert "Traceback" not in output and not out.exists() and not (tmp_path / "r.json").exists()
