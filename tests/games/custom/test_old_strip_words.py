"""An older recipe's own strip words (`words.strip`, docs/recipes.md) still build: they are read and ignored,
and the deck's strip prints the card's label and unit (issue 45: a category has one name)."""

import pdftext
from fixtures.recipes import states


def test_an_older_recipe_with_strip_words_builds_and_its_strip_says_what_the_card_says(geodeck, workshop):
    old = 'label = "Fläche", unit = "{n} km²", strip = ["Gesamte Landfläche", "Quadratkilometer"]'
    recipe = workshop / "recipe.toml"
    area = ("Fläche (km²)", old, "")
    recipe.write_text(states.recipe(name="states-old", categories=(area, *states.THREE[1:])), encoding="utf-8")
    code, output = geodeck(["deck", "new", recipe, "--games", "20", "--jobs", "1"])
    assert code == 0, output
    code, output = geodeck(["print", "custom-states-old", "--what", "accessories", "--out", workshop / "strips.pdf"])
    assert code == 0, output
    strip = " ".join(pdftext.pages((workshop / "strips.pdf").read_bytes()))
    assert "Fläche" in strip and "km²" in strip
    assert "Gesamte" not in strip and "Quadratkilometer" not in strip
