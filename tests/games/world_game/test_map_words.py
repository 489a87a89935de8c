"""The World Game kit's words for its map (issue 42): the world map, or a recipe's deck's own map, in the
layout's language; a version published before these words (its pinned layout has neither them nor their
placeholders) gets none, and its kit prints as it was published."""

import copy
import dataclasses

from pipeline.games import registry
from pipeline.games.world_game.accessories import rules_words
from pipeline.i18n import registry as languages
from pipeline.render import layouts


def test_the_map_is_the_world_map_or_a_recipe_s_deck_s_own_and_an_older_layout_has_no_words():
    layout = layouts.load(registry.get("world-game"), languages.language("de"))
    world, own = rules_words({"cards": []}, layout), rules_words({"cards": [], "recipe": {"name": "x"}}, layout)
    assert world["map"] == "nummerierte Weltkarte" and own["map"] == "nummerierte Karte"
    assert "auf der Weltkarte" in world["location"] and "auf der Karte" in own["location"]
    assert world["number"].startswith("Nummer auf der Weltkarte") and own["number"].startswith("Nummer auf der Karte")
    data = copy.deepcopy(layout.data)
    for key in ("map", "own_map", "location", "own_location", "number", "own_number"):
        del data["kit"]["words"][key]
    assert rules_words({"cards": [], "recipe": {}}, dataclasses.replace(layout, data=data)) == {}
