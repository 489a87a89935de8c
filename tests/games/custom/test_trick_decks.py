"""Länder toppen! decks from recipes (issue 32): a German-states trick game from a CSV, and a category no
built-in deck has, added by one recipe table, compared by the engine, printed on the cards and the strips."""

import random
import tomllib
from collections import Counter
from pathlib import Path

from fixtures.tiny.games.decks import laender_toppen as synthetic_deck
from pdftext import pages, words

from pipeline import paths
from pipeline.decks import published
from pipeline.framework import core
from pipeline.games import registry
from pipeline.games.custom import build, recipe, table
from pipeline.games.laender_toppen import GAME
from pipeline.games.laender_toppen import engine as lt

STATES = Path(__file__).parents[2] / "fixtures" / "recipes" / "german-states.csv"
RECIPES = paths.TEMPLATES_DIR / "recipes"

EUROPE = """
[recipe]
name = "europe"
game = "laender-toppen"
title = "Europa toppen!"
lang = "de"
cards = 80
[items]
continents = ["Europe", "Africa"]
[[categories]]
field = "area_km2"
words = { label = "Fläche", unit = "{n} km²" }
[[categories]]
field = "population"
words = { label = "Einwohner", unit = "{n}" }
[[categories]]
field = "life_expectancy"
words = { label = "Lebenserwartung", unit = "{n} Jahre" }
"""
LATITUDE = """
[[categories]]
field = "capital_lat"
direction = "lower"
decimals = 2
words = { label = "Breite der Hauptstadt", unit = "{n} °" }
"""


def test_the_german_states_are_a_trick_game_from_a_table(geodeck, workshop):
    code, output = geodeck(["deck", "new", str(RECIPES / "german-states.toml"), "--jobs", "1"])  # as a teacher runs it
    assert code == 0 and "published: 20 cards" in output, output
    game = registry.get("custom-german-states")
    deck = published.deck(game)[1]
    assert deck["groups"] == ["Süd", "Ost", "Nord", "West"]
    assert [c["field"] for c in deck["categories"]] == [
        "fläche_km2",
        "einwohner_mio",
        "hauptstadt_tsd_einw",
        "hauptstadt_breite_n",
        "hauptstadt_länge_o",
    ]
    bremen = next(c for c in deck["cards"] if c["fields"].get("name") == "Bremen")
    assert bremen["fields"]["fläche_km2"] == 419 and bremen["fields"]["continents"] == ["Nord"]
    assert bremen["provenance"]["fläche_km2"]["citation"].startswith("Destatis")
    assert "german-states.csv (sha256 " in bremen["provenance"]["fläche_km2"]["source"]
    engine = lt.Game.from_deck(deck, players=2)
    hand = lt.hand(2, 10)  # five categories: the rulebook's share of free places kept (8 of 10 places)
    assert (engine.slots, engine.groups, engine.hand_size, engine.rounds) == (
        10,
        ("Süd", "Ost", "Nord", "West"),
        hand,
        1,
    )
    state = engine.new_initial_state(random.Random(1))
    core.playout(state, [core.random_policy] * 2, random.Random(1))
    assert state.terminal and sum(len(p) for own in state.piles for p in own) + len(state.removed) == 2 * hand
    out = workshop / "print"
    code, output = geodeck(["print", "custom-german-states", "--what", "all", "--out", str(out)])
    assert code == 0, output
    cards, strips = sorted(out.glob("*cards*.pdf")), sorted(out.glob("*accessories*.pdf"))
    text = " ".join(pages(cards[0].read_bytes()))
    assert "Bremen" in text and "Breite (Hauptstadt)" in text and "53,08° N" in text and "Bundesländer toppen!" in text
    strip = words(" ".join(pages(strips[0].read_bytes())))  # a label may take two lines beside its pictogram
    assert "Länge (Hauptstadt) ° O" in strip  # the card's label and unit, translated (one source: issue 45)
    for lang in ("de", "en", "fr"):  # the shipped recipe's kit prints in every language asked of it (issue 42)
        code, output = geodeck(
            ["print", "custom-german-states", "--kit", "--lang", lang, "--out", str(out / f"{lang}.pdf")]
        )
        assert code == 0 and "Bundesländer toppen!" in " ".join(pages((out / f"{lang}.pdf").read_bytes())), output
    code, output = geodeck(["play-check", "custom-german-states", "--games", "20", "--jobs", "1"])
    assert code in (0, 3), output  # decided or undecided at 20 games, never a traceback


def test_a_category_no_built_in_deck_has_is_one_recipe_table(geodeck, workshop):
    recipe = workshop / "europe.toml"
    recipe.write_text(EUROPE, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "30", "--jobs", "1"])
    assert code == 0, output
    recipe.write_text(EUROPE + LATITUDE, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "30", "--jobs", "1"])
    assert code == 0 and "published" in output, output
    game = registry.get("custom-europe")
    deck = published.deck(game)[1]
    engine = lt.Game.from_deck(deck, players=2)
    assert engine.fields == ("area_km2", "population", "life_expectancy", "capital_lat")
    south = min((c for c in deck["cards"] if c["kind"] == "country"), key=lambda c: c["fields"]["capital_lat"])
    slot = engine.slot_names.index("capital_lat above")  # lower: the southernmost capital wins above
    ranks = engine.ranks[slot]
    assert max(range(len(ranks)), key=lambda i: (ranks[i], -i)) == engine.ids.index(south["id"])
    layout = (game.templates / "cards" / "custom-europe.toml").read_text(encoding="utf-8")
    assert "Breite der Hauptstadt" in layout
    report = (paths.DECKS_DIR / "custom-europe").glob("*/CHANGELOG.md")
    assert any("capital_lat" in path.read_text(encoding="utf-8") for path in report)


def test_no_item_of_a_shipped_table_recipe_is_the_extreme_of_more_slots_than_play_check_allows():
    """Play-check's "categories one card always wins", read off the table: the one item with a category's highest
    value wins every trick of one of its slots, the one with the lowest the other's (Bremen, the lowest in area,
    inhabitants and highest point, always won all three "below" slots, and `deck new` refused the deck)."""
    limits = tomllib.loads((paths.TEMPLATES_DIR / "playcheck" / "laender-toppen.toml").read_text(encoding="utf-8"))
    shipped = [recipe.load(path) for path in sorted(RECIPES.glob("*.toml")) if path.name != "games.toml"]
    tables = [made for made in shipped if made.items.table is not None]
    assert tables
    for made in tables:
        rows = table.read(made).rows
        always: Counter[str] = Counter()
        for category in made.categories:
            values = rows[recipe.table_field(category.field)]
            for extreme in (values.max(), values.min()):
                if (values == extreme).sum() == 1:  # a tie for the extreme is no sure win
                    always[rows.loc[values == extreme, "name"].item()] += 1
        name, slots = always.most_common(1)[0]
        assert slots <= limits["cards"]["max_always_categories"], (made.name, name, always)


def test_play_check_judges_a_recipe_deck_at_the_count_that_plays_the_most_cards():
    """docs/recipes.md, "How many cards": the count playing the most cards (players × hand × rounds), of equals the
    game's default, else the fewest players. 48 cards of six categories: 2 players play 2 rounds of 10 (40 cards),
    6 players one of 7 (42): 6 (the count with the most rounds, 2, was judged before, issue 48 item 5)."""
    deck = synthetic_deck()
    for size, judged in ((48, 6), (40, 2), (100, 2), (64, 4)):
        count, dealt = build.players(GAME, GAME, {**deck, "cards": deck["cards"][:size]}, None)  # type: ignore[arg-type]
        plays = {players: players * hand * rounds for players, hand, rounds in dealt}
        assert count == judged and plays[count] == max(plays.values()), (size, dealt)
    assert dealt == [[2, 10, 3], [3, 10, 2], [4, 8, 2], [5, 8, 1], [6, 7, 1]]  # 64 cards: 60, 60, 64, 40, 42
