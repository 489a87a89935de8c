"""A custom deck's kit (issue 42): it prints for every base game, in the deck's language, true to the deck."""

from pathlib import Path

from fixtures.recipes import states as states_recipe
from pdftext import pages

from pipeline import paths
from pipeline.games import registry
from pipeline.games.laender_toppen import terminal
from pipeline.hashing import file_sha256
from pipeline.play.view import View
from pipeline.render import layouts

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"

AFRICA = """
[recipe]
name = "africa-40"
game = "world-game"
title = "The World Game: Africa and Europe"
cards = 40
[items]
continents = ["Africa", "Europe"]
"""


def test_a_world_game_deck_prints_its_kit(geodeck, workshop):
    recipe = workshop / "africa.toml"
    recipe.write_text(AFRICA, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    out = workshop / "print"
    code, output = geodeck(["print", "custom-africa-40", "--kit", "--out", str(out / "kit.pdf")])
    assert code == 0, output
    text = " ".join(pages((out / "kit.pdf").read_bytes()))
    assert "Kosovo, Palestine, and Taiwan, whether or not they have a card in this deck" in " ".join(
        text.split()
    )  # CLDR
    assert "40 countries, four facts, four challenges" in text  # not the whole world's 194


def five(label: str) -> tuple[tuple[str, str, str], ...]:
    """The three categories with the capital's label `label` and its position, the inhabitants without a unit."""
    area = states_recipe.THREE[0]
    return (
        area,
        ("Einwohner (Mio.)", 'label = "Einwohner", unit = "{n}"', ""),
        ("Hauptstadt (Tsd. Einw.)", f'label = "{label}", unit = "{{n}} Tsd."', ""),
        ("Hauptstadt Breite (° N)", 'label = "Breite", unit = "{n}° N"', ""),
        ("Hauptstadt Länge (° O)", 'label = "Länge", unit = "{n}° O"', ""),
    )


def states(workshop: Path, label: str) -> Path:
    path = workshop / "states.toml"
    path.write_text(states_recipe.recipe(categories=five(label)), encoding="utf-8")
    return path


def test_a_label_that_would_not_print_is_refused_naming_its_recipe_key(geodeck, workshop):
    label = "Einwohnerzahl der Landeshauptstadt laut dem Statistischen Landesamt"
    code, output = geodeck(["deck", "new", str(states(workshop, label)), "--games", "20", "--jobs", "1"])
    assert code == 2, output
    (line,) = [line for line in output.splitlines() if line.startswith("error:")]
    assert f"categories[3].words.label '{label}' does not print: {len(label)} characters, the box holds " in line
    assert "templates/cards" not in line
    assert not (paths.DECKS_DIR / "custom-states").exists()  # nothing published


def test_a_table_deck_s_kit_is_in_its_language_and_true_to_the_deck(geodeck, workshop):
    """Counts, strips, the final tie and the sources as the deck has them, in German and French (the cover said
    "16 country cards", the score sheet "wer die Antarktis hat, gewinnt", the sources page named flag-icons and not
    the table); a unit of just "{n}" prints (its strip line is empty)."""
    code, output = geodeck(["deck", "new", str(states(workshop, "Hauptstadt")), "--games", "20", "--jobs", "1"])
    result = next(line for line in output.splitlines() if line.startswith("custom-"))  # stdout, before the notes
    assert code == 0 and "play-check" in result and result.endswith("; 2–4 players"), output  # as it says
    kits = {}
    for lang in ("de", "fr"):
        out = workshop / f"kit-{lang}.pdf"
        code, output = geodeck(["print", "custom-states", "--kit", "--lang", lang, "--out", str(out)])
        assert code == 0, output
        kits[lang] = " ".join(" ".join(pages(out.read_bytes())).split())
    german, french = kits["de"], kits["fr"]
    assert "13,37" in german  # Bayern's inhabitants, without a unit
    assert "Karten: 16 Karten und 4 Joker" in german and "16 cartes et 4 jokers" in french  # lists as CLDR writes them
    assert "country" not in german + french
    assert "4 Faltstreifen, Wertungsblatt" in german and "4 bandes pliées" in french  # 2-4 players: one each
    assert "Antarktis" not in german and "Antarctique" not in french
    assert "Gleichstand am Ende: Es gibt mehrere Sieger" in german
    table = FIXTURES / "german-states.csv"
    assert f"german-states.csv (die eigene Tabelle des Rezepts, sha256 {file_sha256(table)})" in german
    assert "in der Spalte Quelle, z. B. Destatis" in german and "flag-icons" not in german


FOUR = """
[recipe]
name = "four"
game = "laender-toppen"
title = "Europa toppen!"
lang = "de"
cards = 40
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
[[categories]]
field = "capital_temp_c"
words = { label = "Temperatur (Hauptstadt)", unit = "{n} °C" }
"""


def test_the_rows_of_four_categories_keep_their_label_boxes(geodeck, workshop):
    """Taller rows, not narrower labels: 'Temperatur (Hauptstadt)' fits four rows as it fits six (it did not:
    the pictogram grew with the row and the kit could not be printed)."""
    recipe = workshop / "four.toml"
    recipe.write_text(FOUR, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and "published" in output, output


def test_the_terminal_writes_a_value_as_the_card_does():
    """ "77,0 Jahre" at the table where the card prints it so (the terminal said "77 Jahre")."""
    layout = layouts.load(registry.get("laender-toppen"), "de")
    view = View("de", (), {}, layout)
    index = [row["field"] for row in layout.data["categories"]].index("life_expectancy")
    assert terminal.value(index, 77, view) == "77,0 Jahre"


def test_a_rebuild_of_an_unchanged_recipe_and_table_does_nothing(geodeck, workshop):
    recipe = states(workshop, "Hauptstadt")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    items = workshop / "build" / "custom" / "states" / "items.parquet"
    before = items.stat().st_mtime_ns
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and "unchanged: 20 cards; play-check as published" in output, output
    assert items.stat().st_mtime_ns == before  # nothing chosen, played or printed again
    recipe.write_text(recipe.read_text(encoding="utf-8").replace("Bundesländer toppen!", "Länder"), encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and items.stat().st_mtime_ns != before, output
