"""A custom deck (a recipe of one's own table, published as `custom-<name>`) exported for Tabletop Simulator:
its saved object names every card, its sheet holds them (issue 45)."""

import io
import json
import zipfile
from pathlib import Path

from fixtures.recipes import states
from PIL import Image

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"


def test_a_custom_deck_loads_as_a_tts_deck(geodeck, workshop):
    recipe = workshop / "recipe.toml"
    recipe.write_text(states.recipe(name="states-tts"), encoding="utf-8")
    code, output = geodeck(["deck", "new", recipe, "--games", "20", "--jobs", "1"])
    assert code == 0, output
    code, output = geodeck(["export", "custom-states-tts", "--service", "tts", "--out", workshop / "t.zip"])
    assert code == 0 and "20 cards on 1 sheet" in output, output
    with zipfile.ZipFile(workshop / "t.zip") as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    (saved,) = [json.loads(data) for name, data in files.items() if name.endswith(".json")]
    (deck,) = saved["ObjectStates"]
    cards = deck["ContainedObjects"]
    assert [card["CardID"] for card in cards] == list(range(100, 120)) and "Bayern" in {c["Nickname"] for c in cards}
    (entry,) = deck["CustomDeck"].values()
    assert (entry["NumWidth"], entry["NumHeight"]) == (10, 2)
    assert Image.open(io.BytesIO(files[entry["FaceURL"]])).size == (4090, 2 * 571)
