"""Deutschland's towns in the print and play language (issue 31 item 3): `name_<lang>` from
sources/reviewed/place_names_<lang>.csv where the language has its own name (Munich, Monaco di Baviera,
Monachium), else Destatis' name flagged as a fallback; each row cited, one name per town and language."""

import pytest

from pipeline.decks import translated
from pipeline.decks.spec import load_spec
from pipeline.games import registry as games
from pipeline.games.deutschland.deck import place_card
from pipeline.games.grid.cards import place_name
from pipeline.i18n import registry

SPEC = load_spec(games.get("deutschland"))


def _town(name: str, ags: str) -> dict:
    """A row of build/geo/places.parquet as the deck takes it (only the columns a place card reads)."""
    return {
        "ags": ags,
        "short_name": name,
        "state": "Bayern",
        "population": 1510378,
        "population_vintage": "2023-12-31",
        "population_source": "destatis-staedte",
        "ns": 133,
        "we": 55,
        "lat": 48.137,
        "lon": 11.575,
        "coord_source": "wikipedia-towns",
        "grid_crs": "EPSG:3857",
    }


def test_a_town_is_printed_in_the_language_s_own_name_with_its_citation():
    card = place_card(_town("München", "09162000"), SPEC)
    shown = {lang: place_name(card.fields, registry.language(lang)) for lang in ("de", "en", "fr", "it", "pl")}
    assert shown == {"de": "München", "en": "Munich", "fr": "Munich", "it": "Monaco di Baviera", "pl": "Monachium"}
    assert card.fields["name"] == "München"  # the engine's and the records' name stays Destatis'
    origin = card.provenance["name_pl"]
    assert (
        origin["source"] == "reviewed"
        and origin["citation"] == "place_names_pl.csv: Polish Wikipedia, article 'Monachium'"
    )
    assert card.provenance["name_de"] == {"source": "destatis-staedte", "vintage": "2023-12-31"}


def test_a_town_without_a_name_of_its_own_prints_destatis_name_flagged_as_a_fallback():
    card = place_card(_town("Bochum", "05911000"), SPEC)
    assert {card.fields[f"name_{lang}"] for lang in registry.codes()} == {"Bochum"}
    origin = card.provenance["name_fr"]
    assert origin == {"source": "destatis-staedte", "vintage": "2023-12-31", "citation": f"{translated.FALLBACK}fr"}
    assert translated.origin_kind(origin) == "local fallback"
    assert translated.origin_kind(card.provenance["name_de"]) == "sources"  # German is the name's own language


@pytest.mark.parametrize(  # a language without a table (a new catalogue alone) prints the towns' own names
    "lang",
    [
        code
        for code in registry.codes()
        if code != "de" and (translated.REVIEWED_DIR / f"place_names_{code}.csv").is_file()
    ],
)
def test_the_reviewed_names_are_cited_one_per_town_and_never_the_local_name(lang):
    table = translated.reviewed("place", lang)  # a row without its citation is refused, naming it
    assert table, f"sources/reviewed/place_names_{lang}.csv has no rows"
    names = [name for name, _ in table.values()]
    assert len(set(names)) == len(names), f"two towns share a name in {lang}: {sorted(names)}"
    assert all(why.split(": ", 1)[1].strip() for _, why in table.values())
    assert not [local for (_, local), (name, _) in table.items() if name == local], "a row only repeats the name"


def test_a_deck_published_before_the_names_takes_them_from_its_cards():
    """The committed deck may predate `name_<lang>`: print and play take them from its cards, as the build does."""
    card = place_card(_town("Köln", "05315000"), SPEC).to_dict()
    before = {**card, "fields": {k: v for k, v in card["fields"].items() if not k.startswith("name_")}}
    deck = {"game": "deutschland", "version": "2026.12.3", "cards": [before]}
    shown, note = translated.completed(deck, SPEC, registry.language("it"), "geodeck build")
    assert shown["cards"][0]["fields"]["name_it"] == "Colonia" and "geodeck build" in str(note)
