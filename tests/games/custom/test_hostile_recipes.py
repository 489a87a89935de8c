"""Issue 49's recipes (Hardening IV, "Recipes accept what decks refuse"): a recipe's words follow a deck's
text rules, an unknown key is refused with the key it meant, a language comes from the registry, a count is
positive, a number pattern is one a card can print; every problem is one line naming its recipe key, found when
the recipe is read, before anything is built or play-checked."""

from pathlib import Path

import pandas as pd
import pytest
from fixtures.recipes import states as states_recipe

from pipeline.decks import categories
from pipeline.games.custom import build, recipe
from pipeline.i18n.catalogue import translate, translate_plural

STATES = Path(__file__).parents[2] / "fixtures" / "recipes" / "german-states.csv"

AREA = ("Fläche (km²)", 'label = "Fläche", unit = "{n} km²", strip = ["Fläche", "km²"]', 'pattern = "#,##0"\n')
BASE = states_recipe.recipe(STATES, "t7", categories=(AREA, *states_recipe.THREE[1:]))


def problems(tmp_path: Path, text: str) -> list[str]:
    """The recipe's problem lines, each without the file's name (none: it was accepted)."""
    path = tmp_path / "recipe.toml"
    path.write_text(text, encoding="utf-8")
    try:
        recipe.load(path, lang="en")
    except recipe.RecipeError as exc:
        assert all(line.startswith(f"{path}: ") for line in exc.problems), exc.problems
        return [line.removeprefix(f"{path}: ") for line in exc.problems]
    return []


def test_the_base_recipe_is_accepted(tmp_path):
    assert problems(tmp_path, BASE) == []


# as TOML escapes (TOML itself refuses a raw control character); the bidi override raw
ESC, OSC, CSI, RLO = "\\u001b", "\\u001b]0;owned\\u0007", "\\u001b[2J", "\u202e"


@pytest.mark.parametrize(
    ("old", "new", "key", "why"),
    [
        ('label = "Fläche"', f'label = "Fl{OSC}äche"', "categories[1].words.label", "U+001B"),
        ('unit = "{n} Mio."', f'unit = "{{n}} {CSI}Mio."', "categories[2].words.unit", "U+001B"),
        ('strip = ["Fläche", "km²"]', f'strip = ["Fläche", "km{RLO}²"]', "categories[1].words.strip[2]", "U+202E"),
        ('title = "Bundesländer toppen!"', f'title = "{RLO}Bundesländer"', "recipe.title", "U+202E"),
        ('["Nord", "Süd"], ["Ost"', f'["Nord", "Süd{ESC}"], ["Ost"', "recipe.jokers[1][2]", "U+001B"),
        ('label = "Fläche"', f'label = "{"x" * 20_000}"', "categories[1].words.label", "20,000 characters"),
        ('title = "Bundesländer toppen!"', f'title = "{"T" * 300}"', "recipe.title", "300 characters long"),
    ],
)
def test_a_recipes_words_follow_a_decks_text_rules(tmp_path, old, new, key, why):
    (line,) = problems(tmp_path, BASE.replace(old, new))
    assert line.startswith(key) and why in line and len(line) < 300, line


def test_a_group_word_with_a_control_character_is_named_by_its_key(tmp_path):
    text = BASE.replace("[items]\n", f'[items]\ngroups = {{ "Nord{CSI}" = ["DEU"] }}\n')
    assert any(line.startswith("a key of items.groups holds U+001B") for line in problems(tmp_path, text))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('title = "', 'titel = "x"\ntitle = "', "recipe.titel: no such key (did you mean 'title'?)"),
        ('lang = "de"', 'lnag = "de"', "recipe.lnag: no such key (did you mean 'lang'?)"),
        ("[items]\n", "[items]\nheadr = 2\n", "items.headr: no such key (did you mean 'header'?)"),
        ('label = "Fläche"', 'lable = "Fläche", label = "Fläche"', "categories[1].words.lable: no such key (did"),
        ('pattern = "#,##0"', 'patern = "#,##0"', "categories[1].patern: no such key (did you mean 'pattern'?)"),
        ('[[categories]]\nfield = "Fläche', '[catgories]\n[[categories]]\nfield = "Fläche', "[catgories]: no such"),
    ],
)
def test_an_unknown_key_is_refused_with_the_key_it_meant(tmp_path, old, new, expected):
    (line,) = problems(tmp_path, BASE.replace(old, new, 1))
    assert line.startswith(expected), line


@pytest.mark.parametrize("lang", ["xx", "de_DE", "../../etc", "zh", "DE", "de-AT", ""])
def test_a_language_comes_from_the_registry(tmp_path, lang):
    (line,) = problems(tmp_path, BASE.replace('lang = "de"', f'lang = "{lang}"'))
    assert line.startswith("recipe.lang") and "de, " in line and "fr" in line, line


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("[items]\n", "[items]\nheader = 0\n", "items.header 0"),
        ("[items]\n", "[items]\nheader = -3\n", "items.header -3"),
        ("cards = 16", "cards = -5", "recipe.cards -5"),
        ("cards = 16", "cards = 0", "recipe.cards 0"),
        ('pattern = "#,##0"', "decimals = -1", "categories[1].decimals -1"),
    ],
)
def test_a_count_is_a_positive_whole_number(tmp_path, old, new, key):
    (line,) = problems(tmp_path, BASE.replace(old, new))
    assert line.startswith(key), line


def test_a_negative_top_is_refused_not_a_silent_cut(tmp_path):
    countries = '[recipe]\nname = "e"\ngame = "world-game"\ntitle = "E"\ncards = 40\n[items]\n'
    for n in (-5, 0, 1.5, True):
        lines = problems(tmp_path, countries + f'top = {{ field = "population", n = {str(n).lower()} }}\n')
        assert lines and lines[0].startswith(f"items.top.n {n!r}"), lines


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("0." + "0" * 300, "302 characters"),
        ("0." + "0" * 60, "62 characters, at most 40"),
        ("0.0000000", "7 decimals, at most 6"),
        ("abc", "no digit"),
    ],
)
def test_a_number_pattern_is_one_a_card_can_print(tmp_path, pattern, why):
    (line,) = problems(tmp_path, BASE.replace('pattern = "#,##0"', f'pattern = "{pattern}"'))
    assert line.startswith("categories[1].pattern") and why in line and len(line) < 300, line


def test_two_columns_that_become_one_card_field_are_one_line(tmp_path):
    (line,) = problems(tmp_path, BASE.replace('"Einwohner (Mio.)"', '"Fläche km2"'))
    assert line.startswith("categories[2].field 'Fläche km2' and the column 'Fläche (km²)' both become"), line


def test_recipe_problems_are_found_before_anything_is_built(geodeck, tmp_path, monkeypatch):
    monkeypatch.setenv("GEODECK_BUILD", str(tmp_path / "build"))
    path = _written(tmp_path, BASE.replace('title = "Bundesländer toppen!"', f'title = "{"T" * 300}"'))
    code, output = geodeck(["deck", "new", str(path), "--games", "20", "--jobs", "1"])
    assert code == 2 and output.count("error:") == 1, output
    assert f"error: {path}: recipe.title is 300 characters long, more than 200" in output
    assert not (tmp_path / "build" / "custom").exists()  # refused before the candidates, the templates, a play-check


def _written(folder: Path, text: str) -> Path:
    path = folder / "recipe.toml"
    path.write_text(text, encoding="utf-8")
    return path


def german(tmp_path: Path, text: str, lang: str | None = None) -> list[str]:
    """The recipe's problem lines as `geodeck deck new` says them (its own language) or in `lang`."""
    path = tmp_path / "recipe.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(recipe.RecipeError) as caught:
        recipe.load(path, lang=lang)
    return [line.removeprefix(f"{path}: ") for line in caught.value.problems]


def test_a_german_recipe_says_its_problems_in_german_from_the_catalogue(tmp_path):
    bad = BASE.replace('title = "', 'titel = "x"\ntitle = "', 1).replace("cards = 16", "cards = 500")
    (cards, key) = german(tmp_path, bad)
    (cards_en, key_en) = german(tmp_path, bad, lang="en")
    known = ", ".join(recipe.KEYS["recipe"])
    assert key == translate("de", recipe.UNKNOWN_MEANT, key="recipe.titel", meant="'title'", keys=known)
    assert key.startswith("recipe.titel: ") and "'title'" in key and key != key_en
    assert cards.startswith("recipe.cards 500: ") and "recipe.cards" in cards and cards != cards_en
    assert "Joker" in cards and "jokers" in cards_en  # the fix (reach) in the recipe's language too


def test_the_callers_language_wins_and_a_bad_lang_says_its_lines_are_english(tmp_path):
    bad = BASE.replace('title = "', 'titel = "x"\ntitle = "', 1)
    (french,) = german(tmp_path, bad, lang="fr")
    assert french.startswith("recipe.titel\u00a0: ") and french != german(tmp_path, bad, lang="en")[0]
    lines = german(tmp_path, bad.replace('lang = "de"', 'lang = "xx"'))
    assert lines[0].startswith("recipe.lang 'xx' is not one of en, de, ") and "lines are in English" in lines[0]
    assert lines[1] == german(tmp_path, bad, lang="en")[0]


def test_a_german_recipe_s_items_lines_are_german_too(tmp_path):
    bad = BASE.replace("[items]\n", '[items]\nsheet = ""\n', 1)
    roles = [line for line in german(tmp_path, bad) if line.startswith("items.")]
    english = [line for line in german(tmp_path, bad, lang="en") if line.startswith("items.")]
    assert roles == [translate("de", recipe.SHEET, example='"Tabelle2"')] and roles != english


def test_a_german_recipe_s_category_lines_are_german_too(tmp_path):
    bad = BASE.replace('pattern = "#,##0"', 'patern = "#,##0"\nsig_digits = 9', 1)
    lines, english = german(tmp_path, bad), german(tmp_path, bad, lang="en")
    keys = ", ".join(sorted(categories.KEYS))
    meant = translate("de", categories.UNKNOWN_MEANT, key="categories[1].patern", meant="'pattern'", keys=keys)
    digits = translate(
        "de", categories.NUMBER, key="categories[1].sig_digits", value="9", fix="signifikante Stellen, 1-6"
    )
    assert sorted(lines) == sorted([meant, digits]) and not set(lines) & set(english)


def test_too_few_rows_for_a_german_recipe_say_the_fix_in_german(tmp_path):
    path = tmp_path / "recipe.toml"
    path.write_text(BASE, encoding="utf-8")
    made = recipe.load(path)
    line = build._too_few_items(made, pd.DataFrame({"iso3": ["A", "B", "C"]}), tmp_path)
    assert line == translate_plural("de", *build.ONLY, 3, cards=16) and "recipe.cards = 3" in line
    assert line != translate_plural("en", *build.ONLY, 3, cards=16)
