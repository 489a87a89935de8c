"""A custom deck's kit (issue 42): it prints for every base game, in the deck's language, true to the deck."""

from pathlib import Path

from fixtures.tiny.decks import synthetic
from pdftext import pages

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"

AFRICA = """
[recipe]
name = "africa-40"
game = "world-game"
title = "The World Game: Africa"
cards = 40
[items]
continents = ["Africa"]
"""


def real_flags(root: Path) -> None:
    """The synthetic countries with the flag of their (real) alpha-2 code, so that their cards print."""
    table = synthetic.countries_table()
    synthetic.write_inputs(root, table.assign(flag="4x3/" + table["iso2"].str.lower() + ".svg"))


def test_a_world_game_deck_prints_its_kit(geodeck, workshop):
    real_flags(workshop / "build")
    recipe = workshop / "africa.toml"
    recipe.write_text(AFRICA, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    out = workshop / "print"
    code, output = geodeck(["print", "custom-africa-40", "--kit", "--out", str(out / "kit.pdf")])
    assert code == 0, output
    text = " ".join(pages((out / "kit.pdf").read_bytes()))
    assert "Kosovo, Palestine and Taiwan, whether or not they have a card in this deck" in " ".join(text.split())
