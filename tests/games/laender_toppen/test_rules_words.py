"""The kit's rules text states the deck's own categories, groups and cards (issue 32): a custom deck's rules
name its categories and its groups in scoring order, and leave out the Antarctica card and Russia and
Türkiye it does not have; the built-in deck's name them; every language fills every placeholder."""

import dataclasses
from pathlib import Path

import pytest
import tomlkit
from fixtures.tiny.games.decks import print_deck

from pipeline.games import custom
from pipeline.games.custom import recipe, templates
from pipeline.games.laender_toppen import GAME, accessories, engine
from pipeline.i18n import registry
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import layouts
from pipeline.render.rules import FILLED

TINY = Path(__file__).parents[2] / "fixtures" / "tiny" / "render" / "laender-toppen.deck.json"
GROUPS = ["West", "Nord", "Süd", "Ost"]
RULEBOOK = engine.RULEBOOK_SLOTS // 2  # the rulebook's categories: its hands are for as many


def rules(game, deck: dict, lang: str) -> str:
    """The rules text, the setup picture's captions and the card legend, with the deck's words."""
    layout = layouts.load(game, registry.language(lang))
    fields, kit = accessories.rules_words(deck, layout), layout.data["kit"]
    drawn = [key for key in FILLED if key != "anatomy" or kit["rules"].get("anatomy")]  # a legend where drawn
    return " ".join(line.format(**fields) for key in drawn for line in kit["words"][key])


@pytest.fixture(scope="module")
def europe(tmp_path_factory):
    """The game of the Europe recipe (four categories of its own, four regions), its card layout as
    `geodeck deck new` writes it, and a deck of its items and a joker."""
    made = recipe.load(TEMPLATES_DIR / "recipes" / "europe-40.toml")
    folder = tmp_path_factory.mktemp("europe") / "templates"
    game = custom.definition(made.name, GAME, True, folder)  # the recipe's game: Länder toppen
    (folder / "cards").mkdir(parents=True)
    layout = templates.layout(made, GAME, GROUPS, [[2, 10, 2]])
    game.layout_path.write_text(tomlkit.dumps(layout), encoding="utf-8")
    cards = [{"id": "c-1", "kind": "item", "fields": {"continents": [g], "name": g}} for g in GROUPS]
    joker = {"id": "c-joker-1", "kind": "joker", "fields": {"continents": ["Nord", "Süd"]}}
    return game, {"cards": [*cards, joker], "groups": GROUPS}, [c.label for c in made.categories]


def test_a_custom_deck_s_rules_name_its_categories_and_groups_not_the_base_deck_s(europe):
    game, deck, labels = europe
    text = rules(game, deck, "en")
    assert f"with the {len(labels)} categories {', '.join(labels[:-1])}, and {labels[-1]}," in text
    assert f"({labels[0]} first)" in text and f"({labels[-1]}, below)" in text
    assert "(in the order West, Nord, Süd, Ost)" in text and "A final tie: there are several winners." in text
    assert "Antarctica" not in text and "Russia" not in text and "six" not in text
    assert f"<b>Folded paper strip</b> with the {len(labels)} categories:" in text
    german = rules(game, deck, "de")
    assert "(in der Reihenfolge West, Nord, Süd, Ost)" in german and "Fläche" in german
    assert "Antarktis" not in german and "Russland" not in german and "sechs" not in german


def test_the_built_in_deck_s_rules_name_its_antarctica_card_and_two_continent_countries():
    deck = print_deck("laender-toppen")
    text = rules(GAME, deck, "en")
    assert "The Antarctica card has dashes for Inhabitants, Life expectancy, and GDP per capita (PPP)" in text
    assert "Türkiye and Russia count as Europe or Asia." in text and "the owner of the Antarctica card wins" in text
    assert "(in the order North America, South America, Europe, Africa, Asia, Oceania, Antarctica)" in text


@pytest.mark.parametrize("lang", registry.codes())
def test_every_language_fills_every_placeholder_of_the_rules(europe, lang):
    game, deck, _ = europe
    for text in (rules(game, deck, lang), rules(GAME, print_deck("laender-toppen"), lang)):
        assert "{" not in text and "}" not in text


PLANETS = Path(__file__).parents[2] / "fixtures" / "recipes" / "planets.toml"


@pytest.fixture(scope="module")
def planets(tmp_path_factory):
    """The planets recipe's game (four categories) as `geodeck deck new` lays it out, and a deck of 8 planets and
    2 jokers: too few cards for the hands of four categories, so dealt out evenly."""
    made = recipe.load(PLANETS)
    folder = tmp_path_factory.mktemp("planets") / "templates"
    game = custom.definition(made.name, GAME, True, folder)
    (folder / "cards").mkdir(parents=True)
    game.layout_path.write_text(tomlkit.dumps(templates.layout(made, GAME, ["Rocky", "Giant"], [[2, 5, 1]])), "utf-8")
    cards = [{"id": f"c-{n}", "kind": "item", "fields": {"continents": ["Rocky"], "name": str(n)}} for n in range(8)]
    jokers = [{"id": f"c-joker-{n}", "kind": "joker", "fields": {"continents": ["Rocky", "Giant"]}} for n in range(2)]
    return game, {"cards": [*cards, *jokers], "groups": ["Rocky", "Giant"]}


@pytest.mark.parametrize("lang", registry.codes())
def test_a_deck_s_own_deal_is_stated_in_its_rules_in_every_language(planets, lang):
    """Hands scaled to a strip of four categories and a small deck dealt out evenly (issue 48 item 5, issue 42
    item 4): two sentences of the rules, each filled and translated; a deck of the rulebook's six categories and
    cards enough for its hands (120) has neither."""
    game, deck = planets
    text, layout = rules(game, deck, lang), layouts.load(game, registry.language(lang))
    for key in ("deal_scaled", "deal_small"):
        assert layout.data["kit"]["words"][key].format(count=4) in text
    full = [{"id": f"c-{n}", "kind": "country", "fields": {"continents": ["Europe"]}} for n in range(120)]
    built_in = layouts.load(GAME, registry.language(lang))  # its first six: the rulebook's (the spec may add more)
    six = dataclasses.replace(built_in, data=built_in.data | {"categories": built_in.data["categories"][:RULEBOOK]})
    assert accessories.rules_words({"cards": full}, six)["deal"] == ""
    if lang == "en":
        assert "With 4 categories the hands are the original's for six" in text and "dealt out evenly" in text
    if lang == "de":
        assert "Mit 4 Kategorien" in text and "gleichmäßig verteilt" in text
