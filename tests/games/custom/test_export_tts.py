"""A custom deck (a recipe of one's own table, published as `custom-<name>`) exported for Tabletop Simulator:
its saved object names every card, its sheet holds them (issue 45)."""

import io
import json
import zipfile
from pathlib import Path

from PIL import Image

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"

RECIPE = """
[recipe]
name = "states-tts"
game = "laender-toppen"
title = "Bundesländer toppen!"
lang = "de"
cards = 16
jokers = [["Nord", "Süd"], ["Ost", "West"], ["Nord", "Ost"], ["Süd", "West"]]
[items]
table = "{table}"
columns = {{ name = "Land", group = "Region", source = "Quelle" }}
[[categories]]
field = "Fläche (km²)"
words = {{ label = "Fläche", unit = "{{n}} km²" }}
[[categories]]
field = "Einwohner (Mio.)"
words = {{ label = "Einwohner", unit = "{{n}} Mio." }}
[[categories]]
field = "Hauptstadt (Tsd. Einw.)"
words = {{ label = "Landeshauptstadt", unit = "{{n}} Tsd." }}
"""


def test_a_custom_deck_loads_as_a_tts_deck(geodeck, workshop):
    recipe = workshop / "recipe.toml"
    recipe.write_text(RECIPE.format(table=FIXTURES / "german-states.csv"), encoding="utf-8")
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
