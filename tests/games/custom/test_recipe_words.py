"""A recipe's words are text, its units in the one placeholder language (issue 49): a unit uses `{n}` exactly
once and nothing else, refused in one line naming its key when read; labels, units, groups and the title with
markup in them print in the kit as typed (no parse error, no file read, no link)."""

from pathlib import Path

import pdftext
import pytest

from pipeline.decks import categories
from pipeline.errors import GeodeckError

STATES = Path(__file__).parents[2] / "fixtures" / "recipes" / "german-states.csv"

RECIPE = """
[recipe]
name = "words"
game = "laender-toppen"
title = "{title}"
lang = "de"
cards = 16
jokers = [["<b>Nord</b>", "Süd"], ["Ost", "West"], ["<b>Nord</b>", "Ost"], ["Süd", "West"]]
[items]
table = "states.csv"
columns = {{ name = "Land", group = "Region", source = "Quelle" }}
[[categories]]
field = "Fläche (km²)"
words = {{ label = "<b>Area", unit = "{unit}" }}
[[categories]]
field = "Einwohner (Mio.)"
words = {{ label = "<img src='m.png'/>", unit = "{{n}}&lt;&#65;" }}
[[categories]]
field = "Hauptstadt (Tsd. Einw.)"
words = {{ label = "<a href='x'>A</a>", unit = "{{n}} R&D" }}
"""


def write(folder: Path, title: str = "Länder & <i>toppen</i>", unit: str = "{n} km²") -> Path:
    """The recipe with `unit` as its first unit, and its table with the North's group named in markup."""
    table = STATES.read_text(encoding="utf-8").replace(",Nord,", ",<b>Nord</b>,")
    (folder / "states.csv").write_text(table, encoding="utf-8")
    path = folder / "recipe.toml"
    path.write_text(RECIPE.format(title=title, unit=unit.replace("\\", "\\\\")), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "unit",
    ["{n}{n.__init__.__globals__}", "{0}{n}", "{}{n}", "{n}{x}", "{n}}", "{{n}}", "{n}{n:>99999999}", "{n} {n}", "km²"],
)
def test_a_unit_outside_the_placeholder_language_is_refused_in_one_line(geodeck, workshop, unit):
    code, output = geodeck(["deck", "new", str(write(workshop, unit=unit))])
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1, output
    assert "categories[1].words.unit" in lines[0] and "{n} once" in lines[0], lines[0]
    assert "Traceback" not in output


def test_a_recipe_s_words_in_markup_print_in_its_kit_as_typed(geodeck, workshop, monkeypatch):
    from PIL import Image

    Image.new("RGB", (13, 17), (1, 2, 3)).save(workshop / "m.png")  # what <img src='m.png'/> would embed
    monkeypatch.chdir(workshop)
    code, output = geodeck(["deck", "new", str(write(workshop)), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    out = workshop / "kit.pdf"
    code, output = geodeck(["print", "custom-words", "--kit", "--out", str(out)])
    assert code == 0, output
    data = out.read_bytes()
    text = pdftext.words("\n".join(pdftext.pages(data)))
    for words in ("<b>Area", "<img src='m.png'/>", "<a href='x'>A</a>", "&lt;&#65;", "R&D", "<b>Nord</b>"):
        assert words in text, words
    assert "Länder & <i>toppen</i>" in text
    assert pdftext.links(data) == [] and b"/Height 17" not in data


def test_a_published_deck_s_unit_is_checked_where_its_layout_is_read():
    """A deck spec edited after `deck new` (its templates) is read by the same code: `play` and `print` end in
    one line naming the unit, never in a format string run."""
    entry = {"field": "area_km2", "words": {"label": "Area", "unit": "{n}{n:>99999999}"}}
    with pytest.raises(GeodeckError, match=r"^spec.toml: categories\[1\]\.words\.unit .*no format spec"):
        categories.declared([entry], "spec.toml")
