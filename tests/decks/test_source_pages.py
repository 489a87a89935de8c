"""Issue 43: no card value rests on a page an editor does not cite. A value whose provenance cites a travel,
blog, news or mirror page (`[source_classes.pages]` of pipeline/fields.toml, by host) is refused when a deck
is published, unless it is one of the reviewed pending values, each naming the source that would replace
it; over the committed decks the two lists agree exactly."""

import copy

import pytest

from pipeline import source_classes
from pipeline.decks import published
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games


def _published():
    for name in games.names():
        game = games.get(name)
        try:
            yield game, published.deck(game)[1]
        except GeodeckError:  # a game without a committed deck (a custom one)
            continue


def test_the_committed_decks_cite_no_such_page_but_the_pending_values():
    refused = {
        (row["iso3"], row["column"]): row
        for game, deck in _published()
        for row in source_classes.refused(deck, load_spec(game))
    }
    pending = source_classes.pending()
    assert set(refused) == set(pending), (
        f"refused but not pending: {sorted(set(refused) - set(pending))}; "
        f"pending but no longer refused (remove them): {sorted(set(pending) - set(refused))}"
    )
    assert {row["kind"] for row in refused.values()} == {"travel", "blog", "news", "mirror"}
    assert refused["USA", "capital_temp_c"]["host"] == "reston.patch.com"  # the "station normal" of a news site
    assert all(needs.strip() for needs in pending.values())


def test_a_new_value_citing_a_travel_page_is_refused_in_one_line():
    game = games.get("laender-toppen")
    deck, spec = copy.deepcopy(published.deck(game)[1]), load_spec(game)
    source_classes.check_deck(deck, spec, game.name)  # the committed deck: only pending values
    card = next(c for c in deck["cards"] if c["id"] == "lt-FRA")
    card["provenance"]["temperature_c"] = {"source": "reviewed", "citation": "https://www.climatestotravel.com/x"}
    with pytest.raises(GeodeckError, match=r"card lt-FRA temperature_c cites a travel page .*pending") as error:
        source_classes.check_deck(deck, spec, game.name)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("citation", "kind"),
    [
        ("station: Pyinmana; https://soft.lk/key/Pyinmana", "mirror"),
        ("https://m.reston.patch.com/a", "news"),
        ("https://www.meteoschweiz.admin.ch/klima", None),
        ("no page at all", None),
        ("https://notpatch.com/a", None),
    ],
)
def test_a_page_is_classed_by_its_host_and_the_domains_above_it(citation, kind):
    found = source_classes.page_kind(citation)
    assert (found[1] if found else None) == kind
