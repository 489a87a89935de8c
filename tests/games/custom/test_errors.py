"""Errors that lead to a deck (issue 42): each names the key, the value and one fix that works for this recipe
as written; a play-check refusal names the cards and categories behind it."""

from pathlib import Path

from pipeline import paths
from pipeline.games.custom import recipe, table

STATES = Path(__file__).parents[2] / "fixtures" / "recipes" / "german-states.csv"

HEAD = """
[recipe]
name = "states"
game = "laender-toppen"
title = "Bundesländer toppen!"
lang = "de"
cards = {cards}
jokers = {jokers}
[items]
table = "{table}"
columns = {{ name = "Land", group = "{group}", source = "Quelle" }}
"""
CATEGORY = """
[[categories]]
field = "{field}"
words = {{ label = "{label}", unit = "{{n}}" }}
"""
FIRST = [("Fläche (km²)", "Fläche"), ("Einwohner (Mio.)", "Einwohner"), ("Höchster Punkt (m)", "Höchster Punkt")]
FOUR = '[["Nord", "Süd"], ["Ost", "West"], ["Nord", "Ost"], ["Süd", "West"]]'


def write(folder: Path, cards=16, jokers=FOUR, group="Region", categories=FIRST) -> Path:
    path = folder / "states.toml"
    text = HEAD.format(cards=cards, jokers=jokers, table=STATES, group=group)
    path.write_text(text + "".join(CATEGORY.format(field=f, label=label) for f, label in categories), encoding="utf-8")
    return path


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error:")]


def test_too_few_cards_says_how_many_jokers_reach_the_game_s_least(geodeck, workshop):
    code, output = geodeck(["deck", "new", str(write(workshop, jokers='[["Nord", "Süd"], ["Ost", "West"]]'))])
    assert code == 2
    (line,) = errors(output)
    assert (
        "recipe.cards 16: laender-toppen deals 20-200 cards (items and jokers), 16 and 2 jokers make 18; add 2 " in line
    )
    assert recipe.load(write(workshop)).cards == 16  # as the fix says: two jokers more


def test_more_cards_than_rows_says_what_to_set(geodeck, workshop):
    code, output = geodeck(["deck", "new", str(write(workshop, cards=20, jokers="[]"))])
    assert code == 2
    (line,) = errors(output)
    assert (
        "16 rows, but the recipe asks for 20 item cards (recipe.cards); set recipe.cards = 16 and add 4 jokers" in line
    )
    assert len(table.read(recipe.load(write(workshop))).rows) == 16  # as the fix says


def test_a_group_column_that_is_no_column_is_named(geodeck, workshop):
    code, output = geodeck(["deck", "new", str(write(workshop, group="Regio"))])
    assert code == 2
    (line,) = errors(output)
    assert "column 'Regio' (items.columns.group) is missing in the header" in line
    assert "Region" in line and "name one of them in items.columns.group" in line  # the table's real columns


def test_a_first_table_of_the_states_reaches_a_deck_in_two_tries(geodeck, workshop):
    """Area, inhabitants and highest point: Bremen is the lowest in all three, and three categories deal too few
    cards to know; the refusal says both, and its fixes as written publish the deck."""
    code, output = geodeck(["deck", "new", str(write(workshop)), "--jobs", "1"])
    assert code == 2, output
    assert "fix: Bremen is the lowest in Fläche, Einwohner and Höchster Punkt" in output
    assert "replace one of these categories (categories[1], categories[2], categories[3])" in output
    assert "choose 5 or 6 categories" in output
    second = [
        *FIRST[:2],
        ("Hauptstadt (Tsd. Einw.)", "Hauptstadt"),
        ("Hauptstadt Breite (° N)", "Breite"),
        ("Hauptstadt Länge (° O)", "Länge"),
    ]
    code, output = geodeck(["deck", "new", str(write(workshop, categories=second)), "--jobs", "1"])
    assert code == 0 and "published: 20 cards" in output, output


def test_your_decks_are_listed_and_removed_never_a_built_in_one(geodeck, workshop, monkeypatch):
    code, output = geodeck(["deck", "list"])
    assert code == 0 and "no deck of yours yet" in output
    fifth = [*FIRST[:2], ("Hauptstadt (Tsd. Einw.)", "Hauptstadt"), ("Hauptstadt Breite (° N)", "Breite")]
    recipe_path = write(workshop, categories=[*fifth, ("Hauptstadt Länge (° O)", "Länge")])
    code, output = geodeck(["deck", "new", str(recipe_path), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    code, output = geodeck(["deck", "list"])
    assert (
        "custom-states 2026" in output
        and "20 cards, laender-toppen, de; recipe states.toml, table german-states.csv" in output
    )
    code, output = geodeck(["deck", "remove", "laender-toppen", "--yes"])
    assert code == 2 and "laender-toppen is no deck of yours (yours: custom-states)" in output
    monkeypatch.setattr("click.termui.visible_prompt_func", lambda *_: "n")  # asked, the teacher says no
    code, output = geodeck(["deck", "remove", "states"])
    assert code == 0 and "nothing removed" in output, output
    assert (paths.DECKS_DIR / "custom-states" / "LATEST").is_file()
    code, output = geodeck(["deck", "remove", "custom-states", "--yes"])
    assert code == 0 and "removed custom-states" in output
    assert not (paths.DECKS_DIR / "custom-states").exists() and not (workshop / "build" / "custom" / "states").exists()


def test_a_deck_exported_is_made_again_from_its_one_file(geodeck, workshop, monkeypatch):
    categories = [*FIRST[:2], ("Hauptstadt (Tsd. Einw.)", "Hauptstadt"), ("Hauptstadt Breite (° N)", "Breite")]
    recipe_path = write(workshop, categories=[*categories, ("Hauptstadt Länge (° O)", "Länge")])
    code, output = geodeck(["deck", "new", str(recipe_path), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    before = (paths.DECKS_DIR / "custom-states" / "LATEST").read_text(encoding="utf-8")
    shared = workshop / "colleague" / "states.zip"
    shared.parent.mkdir()
    code, output = geodeck(["deck", "export", "states", "--out", str(shared)])
    assert code == 0 and shared.is_file(), output
    code, output = geodeck(["deck", "remove", "states", "--yes"])
    assert code == 0, output
    monkeypatch.chdir(shared.parent)  # the colleague's folder: the table travels inside the file
    code, output = geodeck(["deck", "new", "states.zip", "--games", "20", "--jobs", "1"])
    assert code == 0 and "custom-states" in output and "published: 20 cards" in output, output
    assert (paths.DECKS_DIR / "custom-states" / "LATEST").read_text(encoding="utf-8") == before
