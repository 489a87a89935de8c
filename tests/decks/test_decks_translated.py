"""Translated deck fields (issue 30 items 2 and 4): each name from a reviewed table, else CLDR (or the ISO
3166-2 translations), else the local name flagged as a fallback, never another language's; a deck published
before a language was registered is refused in that language by the renderer; print and play take its names
from its cards (pipeline.decks.translated.completed) with a warning naming the command that publishes them."""

import pytest

from pipeline.decks import published, translated, versions
from pipeline.decks.canonical import content_hash
from pipeline.decks.spec import FieldSpec, load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.i18n.names import version as names_version
from pipeline.paths import DECKS_DIR

NO_FLAG = "challenges=continent,location,capital"  # a console that is no terminal shows no flag


def test_a_language_the_deck_predates_is_one_error_naming_the_build():
    game = games.get("world-game")
    version = versions.latest(DECKS_DIR / game.name)
    if version is None:
        pytest.skip("no committed world-game deck")
    deck = published.read(DECKS_DIR / game.name / version / "deck.json", game)
    spec = load_spec(game)
    translated.require(deck, spec, languages.language("fr"), game.made_by)  # the committed deck has French names
    for card in deck["cards"]:  # as if published before French was registered
        card["fields"] = {k: v for k, v in card["fields"].items() if not k.endswith("_fr")}
    assert "fr" not in translated.languages(deck, spec) and "de" in translated.languages(deck, spec)
    with pytest.raises(GeodeckError, match=r"has no names in fr .*run `geodeck build`"):
        translated.require(deck, spec, languages.language("fr"), game.made_by)


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


def test_play_takes_the_names_of_a_language_the_version_predates_from_its_cards_and_says_so(geodeck, tmp_path):
    """World Game 2026.12.4 predates `<field>_<lang>` (its names were German, and `capitals`): playing it in
    English takes CLDR's English names from its cards (one warning line naming `geodeck build`), never German
    ones; the record names the version as published (its content hash)."""
    if not (DECKS_DIR / "world-game" / "2026.12.4").is_dir():
        pytest.skip("no committed world-game 2026.12.4")
    game = games.get("world-game")
    deck = published.deck(game, "2026.12.4")[1]
    shown, note = translated.completed(deck, load_spec(game), languages.language("en"), game.made_by)
    assert note is not None and "predates en" in note and "`geodeck build`" in note
    germany = next(card["fields"] for card in shown["cards"] if card["fields"]["iso3"] == "DEU")
    assert germany["name_en"] == "Germany" and germany["name_de"] == "Deutschland"
    assert translated.completed(shown, load_spec(game), languages.language("en"), game.made_by) == (shown, None)
    record = tmp_path / "r.json"
    args = ["--version", "2026.12.4", "--lang", "en", "--record", record, "--variant", NO_FLAG]
    _, output = geodeck(["play", "world-game", *args])  # no answer: it stops at the first prompt
    assert output.startswith("warning: world-game 2026.12.4 predates en:"), output
    assert "Highest point" in output and "Traceback" not in output and record.is_file()  # the English table
    assert content_hash(deck) in record.read_text(encoding="utf-8")


def test_a_town_keeps_its_bracket_only_at_home_or_where_two_cards_would_print_one_name():
    """Issue 43: Destatis' "Halle (Saale)" is Halle in every other language, but "Frankfurt (Oder)" stays so
    in English, where Frankfurt am Main is Frankfurt; the committed deck follows the rule in every language."""
    game = games.get("deutschland")
    spec, deck = load_spec(game), published.deck(game)[1]
    places = [card["fields"] for card in deck["cards"] if card["kind"] == "place"]
    for lang in translated.languages(deck, spec):
        shown = [fields[f"name_{lang}"] for fields in places]
        for fields in places:
            if lang == "de" or not translated.BRACKET.search(fields["name"]):
                continue
            short = translated.BRACKET.sub("", fields["name"])
            kept = fields[f"name_{lang}"] == fields["name"]
            assert not kept or short in shown, f"{fields['name']} keeps its bracket in {lang} without a namesake"
            assert fields[f"name_{lang}"] != short or shown.count(short) == 1, f"{short} twice in {lang}"
    halle = next(fields for fields in places if fields["name"] == "Halle (Saale)")
    frankfurt = next(fields for fields in places if fields["name"] == "Frankfurt (Oder)")
    assert halle["name_en"] == halle["name_it"] == "Halle" and halle["name_de"] == "Halle (Saale)"
    assert frankfurt["name_en"] == "Frankfurt (Oder)"  # Frankfurt am Main is Frankfurt in English


def test_two_towns_that_would_print_one_name_keep_their_brackets():
    spec = load_spec(games.get("deutschland"))
    english = next(f for f in spec.fields.values() if f.translated == "place" and f.lang == "en")
    rows = [{"short_name": "Frankfurt (Oder)", "country": "DEU"}, {"short_name": "Frankfurt am Main", "country": "DEU"}]
    cards: list[dict] = []
    for i, row in enumerate(rows):
        value, origin = translated.value(english, row)
        cards.append(
            {
                "id": str(i),
                "kind": "place",
                "fields": {"name": row["short_name"], english.name: value},
                "provenance": {english.name: origin},
            }
        )
    assert [c["fields"][english.name] for c in cards] == ["Frankfurt", "Frankfurt"]  # before the deck's check
    translated.distinct(cards, spec)
    assert [c["fields"][english.name] for c in cards] == ["Frankfurt (Oder)", "Frankfurt"]
    assert translated.UNBRACKETED not in cards[0]["provenance"][english.name]["citation"]
