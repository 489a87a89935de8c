"""Issue 43: no card value rests on a page an editor does not cite. A value whose citation is a travel, blog,
news or mirror page (`[source_classes.pages]` of pipeline/fields.toml, by host) is never chosen, and a deck
whose provenance still cites one is refused when it is published; no committed deck cites one."""

import copy

import pandas as pd
import pytest

from pipeline import source_classes
from pipeline.decks import published
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.transform.observations import frame
from pipeline.validate import schema
from pipeline.validate.choose import choose


def _published():
    for name in games.names():
        game = games.get(name)
        try:
            yield game, published.deck(game)[1]
        except GeodeckError:  # a game without a committed deck (a custom one)
            continue


def test_no_committed_deck_cites_a_travel_blog_news_or_mirror_page():
    decks = list(_published())
    assert {game.name for game, _ in decks} >= {"laender-toppen", "world-game", "deutschland"}
    refused = [
        row | {"game": game.name} for game, deck in decks for row in source_classes.refused(deck, load_spec(game))
    ]
    assert refused == []
    lt = next(deck for game, deck in decks if game.name == "laender-toppen")
    usa = next(c for c in lt["cards"] if c["id"] == "lt-USA")["provenance"]["temperature_c"]
    assert usa["source"] == "wikipedia-city-temperatures"  # no longer the news site's "station normal"


def test_a_value_citing_such_a_page_is_never_chosen_and_the_field_falls_back():
    travel = "source class: other; station: Brasilia; https://www.travelguide-en.org/brasilia-climate/"
    news = "source class: station normal; station: DCA; http://reston.patch.com/p/2012-warmest-year"
    rows = [
        ("BRA", 21.2, "reviewed", "period not stated", travel),  # the only candidate: none is chosen
        ("USA", 14.6, "reviewed", "1981-2010", news),  # the preferred period, yet a news site
        ("USA", 14.6, "wikipedia-city-temperatures", "period not stated (Wikipedia list, 2023-12)", "city"),
    ]
    table = frame(
        [
            {"iso3": i, "field": "capital_temp_c", "value": v, "source": s, "vintage": p, "note": n}
            for i, v, s, p, n in rows
        ]
    )
    master, report = choose(table, ["BRA", "USA"], {})
    master = master.set_index("iso3")
    assert pd.isna(master.loc["BRA", "capital_temp_c"])
    assert master.loc["USA", "capital_temp_c__source"] == "wikipedia-city-temperatures"
    refused = {(r["iso3"], r["reason"]) for r in report["refused"]}
    assert refused == {
        ("BRA", "cites a travel page (www.travelguide-en.org), not a source an editor cites"),
        ("USA", "cites a news page (reston.patch.com), not a source an editor cites"),
    }
    assert schema.refusal("capital", "Brasília", travel) is None  # a field without source classes


def test_a_new_value_citing_a_travel_page_is_refused_in_one_line():
    game = games.get("laender-toppen")
    deck, spec = copy.deepcopy(published.deck(game)[1]), load_spec(game)
    source_classes.check_deck(deck, spec, game.name)  # the committed deck cites no such page
    card = next(c for c in deck["cards"] if c["id"] == "lt-FRA")
    card["provenance"]["temperature_c"] = {"source": "reviewed", "citation": "https://www.climatestotravel.com/x"}
    with pytest.raises(
        GeodeckError, match=r"card lt-FRA temperature_c cites a travel page .*sources/reviewed/"
    ) as error:
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
