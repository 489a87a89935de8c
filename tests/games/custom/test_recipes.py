"""Deck recipes (issue 32): a bad recipe or table gets one line per problem naming its key (or row) and the fix;
a recipe becomes a published game `custom-<name>` that verify, play-check and diff find like a region deck;
the optimiser names the card a failed verdict points at."""

import io
from pathlib import Path

import pandas as pd
import pytest
from babel import Locale
from fixtures.recipes import states as states_recipe
from fixtures.tiny.decks import synthetic

from pipeline import paths
from pipeline.decks import versions
from pipeline.games import registry
from pipeline.games.custom import numbers, optimise
from pipeline.games.custom import table as tables
from pipeline.i18n.catalogue import translate, translate_plural

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"
STATES = FIXTURES / "german-states.csv"

AFRICA = """
[recipe]
name = "africa-40"
game = "world-game"
title = "The World Game: Africa"
cards = 40
[items]
continents = ["Africa"]
"""


def write(folder: Path, text: str, name: str = "recipe.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error:")]


def test_a_bad_recipe_gets_one_line_per_problem_naming_its_key(geodeck, workshop):
    path = write(
        workshop,
        """
[recipe]
name = "Class 7b"
game = "laender-toppen"
title = "Mine"
cards = 300
group_word = { de = "Region", xx = "Bereich" }
[items]
continents = ["Atlantis"]
[[categories]]
field = "shoe_size"
direction = "up"
words = { label = "Shoes", unit = "{n} EU" }
[[categories]]
field = "area_km2"
""",
    )
    code, output = geodeck(["deck", "new", str(path)])
    assert code == 2
    lines = errors(output)
    keys = [
        "recipe.name",
        "recipe.cards 300",
        "recipe.group_word: 'xx' is no language",
        "items.continents",
        "categories: 2 given",
        "categories[1].field",
        "categories[1].direction",
        "categories[2].words",
    ]
    assert len(lines) == len(keys), lines
    for line, key in zip(lines, keys):
        assert line.startswith(f"error: {path}: {key}"), line
    assert "area_km2" in lines[5]  # the fix names the fields there are


def test_a_category_without_values_for_some_items_names_them(geodeck, workshop):
    table = synthetic.printable_countries_table()
    africa = table.loc[table["continents"] == "Africa", "iso3"].iloc[:3].tolist()
    table.loc[table["iso3"].isin(africa), "land_neighbour_count"] = None
    synthetic.write_inputs(workshop / "build", table)
    code, output = geodeck(["deck", "new", str(write(workshop, AFRICA))])
    assert code == 2
    (line,) = errors(output)
    assert "world-game's fact 'land_neighbour_count' has no value for " + ", ".join(sorted(africa)) in line
    assert "items.exclude" in line


def test_too_few_items_and_a_size_the_game_cannot_deal_are_named(geodeck, workshop):
    code, output = geodeck(["deck", "new", str(write(workshop, AFRICA.replace('"Africa"', '"Oceania"')))])
    assert code == 2 and "recipe.cards 40: only 12 items match [items]" in output
    code, output = geodeck(["deck", "new", str(write(workshop, AFRICA.replace("cards = 40", "cards = 39")))])
    assert code == 2 and "recipe.cards 39: world-game deals 40-198 cards" in output


def one_value(text: str) -> str:
    """The table with every state's capital at 5 thousand inhabitants."""
    table = pd.read_csv(io.StringIO(text), dtype=str).assign(**{"Hauptstadt (Tsd. Einw.)": "5"})
    return table.to_csv(index=False)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda t: t.replace("Bremen,Nord,419,", "Bremen,Nord,,"),
            "column 'Fläche (km²)' has no value in row 6 (Bremen)",
        ),
        (
            lambda t: t.replace(",0.68,", ",0.68 Mio,"),
            "column 'Einwohner (Mio.)': '0.68 Mio' in row 6 (Bremen) is no number",
        ),
        (lambda t: t.replace("Hamburg,", "Bremen,"), "name 'Bremen' is on rows 6, 7"),
        (one_value, "column 'Hauptstadt (Tsd. Einw.)' has one value (5) for every row"),
        (lambda t: "\n".join(t.splitlines()[:11]), "10 rows, but the recipe asks for 16 item cards (recipe.cards)"),
    ],
)
def test_a_bad_table_gets_one_line_per_problem_naming_the_row(geodeck, workshop, change, expected):
    table = write(workshop, change(STATES.read_text(encoding="utf-8")), "states.csv")
    code, output = geodeck(["deck", "new", str(write(workshop, states_recipe.recipe(table=table.name, lang="en")))])
    assert code == 2
    (line,) = errors(output)
    assert line.startswith((f"error: {table}: {expected}", f"error: {workshop / 'recipe.toml'}: {expected}"))


def test_a_recipe_is_published_as_a_game_that_verify_and_play_check_find(geodeck, workshop):
    table = synthetic.printable_countries_table()
    africa = table["continents"].str.startswith("Africa")
    table.loc[africa, "land_neighbours"] = "FRA"  # a land neighbour that is no card of the deck
    synthetic.write_inputs(workshop / "build", table)
    code, output = geodeck(["deck", "new", str(write(workshop, AFRICA)), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    assert "custom-africa-40 " in output and "published: 40 cards" in output
    folder = paths.DECKS_DIR / "custom-africa-40"
    assert (folder / str(versions.latest(folder)) / "templates" / "decks" / "custom-africa-40.toml").is_file()
    items = pd.read_parquet(workshop / "build" / "custom" / "africa-40" / "items.parquet")
    assert items["in_deck"].sum() == 40 and (items["primary_continent"] == "Africa").all()
    code, output = geodeck(["verify", "custom-africa-40"])
    assert code == 0, output
    code, output = geodeck(["play-check", "custom-africa-40", "--games", "20", "--jobs", "1", "--format", "json"])
    assert code in (0, 3), output
    code, output = geodeck(["deck", "new", str(write(workshop, AFRICA)), "--games", "20", "--jobs", "1"])
    assert code == 0 and "unchanged: 40 cards" in output
    assert "custom-africa-40" in registry.names()  # found from the published folder, as in a new process


def test_a_custom_deck_not_published_here_names_the_command_that_makes_it(geodeck, workshop):
    code, output = geodeck(["verify", "custom-nowhere"])
    assert code == 2 and "geodeck deck new RECIPE" in output


def test_the_optimiser_names_the_card_a_failed_verdict_points_at():
    deck = {"cards": [{"id": f"c-{n}", "fields": {"area": value}} for n, value in enumerate([1, 2, 2, 3, 2, 5])]}
    report = {
        "cards": {"dominant": {"c-5": 1.9, "c-3": 1.6}, "strongest": [["c-5", 1.9]]},
        "verdicts": [{"name": "dominant cards (win index ≥ 1.5)", "result": "fail", "detail": "", "band": [0, 0.05]}],
    }
    assert optimise.offender(report, deck) == ("c-5", "dominant: win index 1.9 (random play)")
    report["verdicts"] = [{"name": "ties: area above", "result": "fail", "detail": "9 of 20", "band": [0, 0.1]}]
    assert (optimise.offender(report, deck) or ("",))[0] == "c-4"  # the least familiar of the cards of value 2
    report["verdicts"] = [{"name": "first player, 2 players (expert)", "result": "fail", "detail": "", "band": [0, 1]}]
    assert optimise.offender(report, deck) is None  # no card to swap


def test_the_optimiser_plays_every_deck_it_tries_on_the_same_workers(monkeypatch):
    """Its processes start once (not once per deck tried): every play-check gets the same open workers."""
    seen = []

    def check(definition, deck, games, workers, deck_path):
        seen.append(workers)
        result = "fail" if len(seen) == 1 else "pass"
        verdict = {"name": "dominant cards (win index ≥ 1.5)", "result": result, "detail": "", "band": [0, 0.05]}
        return {"result": result, "verdicts": [verdict], "cards": {"dominant": {"c-1": 1.9}}}

    monkeypatch.setattr(optimise.runner, "check", check)
    definition = registry.get("world-game")
    outcome = optimise.choose(definition, ["A", "B", "C"], ["c-0", "c-1", "c-2"], 2, lambda chosen: {}, 10, jobs=2)
    assert [(s.out, s.into) for s in outcome.swaps] == [("B", "C")] and outcome.chosen == [0, 2]
    assert len(seen) == 2 and seen[0] is seen[1] and seen[0].pool is not None


def test_an_xlsx_table_is_checked_like_a_csv_in_the_recipe_s_language(geodeck, workshop):
    """A bad cell of a German recipe's table is one German line (the catalogue's, naming the cell), not the
    English one."""
    table = pd.read_csv(STATES, dtype=str)
    table.loc[table["Land"] == "Bremen", "Fläche (km²)"] = "viel"
    table.to_excel(workshop / "states.xlsx", index=False)
    code, output = geodeck(["deck", "new", str(write(workshop, states_recipe.recipe(table="states.xlsx", lang="de")))])
    assert code == 2

    def said(language: str) -> str:
        row = translate_plural(language, *tables.ROWS, 1, rows="6 (Bremen)")
        cell = {"column": "'Fläche (km²)'", "cell": "'viel'", "row": row, "example": "1.234,5"}
        return translate(language, numbers.NO_NUMBER, language=Locale("de").get_language_name(language), **cell)

    assert errors(output) == [f"error: {workshop / 'states.xlsx'}: {said('de')}"]
    assert said("en") == (
        "column 'Fläche (km²)': 'viel' in row 6 (Bremen) is no number; write a number without its unit, plainly "
        "(1234.5) or as German does (1.234,5)"
    )
    assert said("de") != said("en") and "'viel'" in said("de") and "6 (Bremen)" in said("de")
