"""Länder toppen!'s categories are declared once, in its deck spec's `[[categories]]` in a recipe's form (issue 32
item 3): one more block in a copy of the templates is a category of the deck, the engine, the cards and the
strips."""

import dataclasses
import random
import shutil
import tomllib

import pytest
from fixtures.tiny.decks import synthetic
from pdftext import pages

from pipeline.decks import stage
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.framework import core
from pipeline.games.laender_toppen import GAME, categories
from pipeline.games.laender_toppen import engine as lt
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import accessories, layouts, printing
from pipeline.render.accessories import AccessoryOptions
from pipeline.render.printing import PrintOptions

LATITUDE = """
[[categories]]
field = "label_lat"
direction = "lower"
pattern = "#,##0.0"
decimals = 1
icon = "bars"
words = { label = "Latitude of the middle", unit = "{n}° N", strip = ["Latitude of the middle", "° N"] }
"""


def templates(folder, block: str = ""):
    """A copy of the game's three templates in `folder`, `block` appended to its deck spec."""
    for kind in ("decks", "cards", "playcheck"):
        (folder / kind).mkdir(parents=True)
        shutil.copy(TEMPLATES_DIR / kind / "laender-toppen.toml", folder / kind)
    spec = folder / "decks" / "laender-toppen.toml"
    spec.write_text(spec.read_text(encoding="utf-8") + block, encoding="utf-8")
    return dataclasses.replace(GAME, templates=folder)


def test_a_category_added_to_the_built_in_deck_is_one_block(tmp_path, store, monkeypatch):
    game = templates(tmp_path / "templates", LATITUDE)
    spec = load_spec(game)
    assert spec.categories[-1] == "label_lat" and len(spec.categories) == len(load_spec(GAME).categories) + 1
    assert spec.kinds["country"][-1] == "label_lat"  # the kinds' `categories`: every category, in order
    root = synthetic.write_inputs(tmp_path / "build")
    deck = stage.fresh_deck(game, root)[1]
    countries = [c for c in deck["cards"] if c["kind"] == "country"]
    assert all(isinstance(c["fields"]["label_lat"], float) for c in countries)
    monkeypatch.setattr(categories, "SPEC", tmp_path / "templates" / "decks" / "laender-toppen.toml")
    categories.declared.cache_clear()
    try:
        engine = lt.Game.from_deck(deck, players=3)
    finally:
        categories.declared.cache_clear()
    assert engine.fields[-1] == "label_lat" and engine.slots == 2 * len(spec.categories)  # above and below
    south = min((c for c in deck["cards"] if c["kind"] != "joker"), key=lambda c: c["fields"]["label_lat"])
    ranks = engine.ranks[engine.slot_names.index("label_lat above")]  # lower: the southernmost wins above
    assert max(range(len(ranks)), key=lambda i: (ranks[i], -i)) == engine.ids.index(south["id"])
    state = engine.new_initial_state(random.Random(2))
    core.playout(state, [core.random_policy] * 3, random.Random(2))
    assert state.terminal
    layout = layouts.load(game, "de")
    assert layout.data["categories"][-1]["field"] == "label_lat"
    few = {**deck, "cards": [c for c in countries if c["fields"]["iso3"] == "BRA"]}  # a real map and flag
    card_text = " ".join(pages(printing.render(game, few, PrintOptions(lang="en"), store)))
    assert "Latitude of the middle" in card_text
    strips, _ = accessories.render(game, few, AccessoryOptions(lang="en"), store)
    assert "Latitude of the middle" in " ".join(pages(strips))


def test_the_game_prints_and_plays_its_categories_from_the_deck_spec():
    assert [c["field"] for c in layouts.load(GAME).data["categories"]] == load_spec(GAME).categories
    assert [field for field, _ in categories.declared()] == load_spec(GAME).categories
    assert "categories" not in tomllib.loads((TEMPLATES_DIR / "cards" / "laender-toppen.toml").read_text("utf-8"))


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ('[[categories]]\nfield = "label_lat"\nicon = "moon"\nwords = { label = "L", unit = "{n}" }\n', "icon 'moon'"),
        ('[[categories]]\nfield = "label_lat"\nwords = { label = "L", unit = "°" }\n', "words.unit '°'"),
        ('[[categories]]\nicon = "bars"\nwords = { label = "L", unit = "{n}" }\n', "field is missing"),
    ],
)
def test_a_bad_category_of_the_deck_spec_is_one_line_naming_the_file(tmp_path, block, problem):
    game = templates(tmp_path / "templates", "\n" + block)
    with pytest.raises(GeodeckError) as error:
        load_spec(game)
        layouts.load(game)  # the pictograms are the renderer's: its layout checks them
    added = len(load_spec(GAME).categories) + 1  # the block's place, after the spec's own
    assert f"laender-toppen.toml: categories[{added}]" in str(error.value) and problem in str(error.value)
