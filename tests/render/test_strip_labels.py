"""A category has one name (issue 45 item 5): the folded strip prints the card's label and the card's unit
without its number, in every language; an older recipe's own strip words (`words.strip`) are read and ignored."""

import io

import pdfplumber
import pytest
from reportlab.lib.units import mm

from pipeline.decks import categories, published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import accessories, layouts

pytestmark = pytest.mark.mirror


def plain(text: str) -> str:
    """`text` with its spaces (a no-break one, a line break) as single spaces."""
    return " ".join(text.split())


@pytest.mark.parametrize("lang", ["de", "en", "fr"])
def test_the_strip_says_what_the_card_says(store, lang):
    game = games.get("laender-toppen")
    data, _ = accessories.render(
        game, published.deck(game)[1], accessories.AccessoryOptions("a3", languages.language(lang)), store
    )
    page = pdfplumber.open(io.BytesIO(data)).pages[0]
    panel = float(layouts.load(game).data["accessories"]["strip"]["panel_mm"]) * mm
    fields = sorted(
        (r for r in page.rects if r["fill"] and r["height"] == pytest.approx(panel, abs=0.1) and r["width"] < 100 * mm),
        key=lambda r: (round(r["top"]), r["x0"]),
    )
    rows = layouts.load(game).localised(languages.language(lang)).data["categories"]
    for rect, row in zip(fields[: len(rows)], rows, strict=True):  # the first strip, left to right
        said = plain(page.crop((rect["x0"], rect["top"], rect["x1"], rect["bottom"])).extract_text())
        label, unit = plain(row["words"]["label"]), plain(categories.unit_word(row["words"]["unit"]))
        assert label in said and unit in said, (said, label, unit)


def test_an_older_recipes_strip_words_are_read_and_ignored():
    entry: dict = {"field": "area_km2", "words": {"label": "Fläche", "unit": "{n} km²", "strip": ["Landfläche", "km²"]}}
    problems: list[str] = []
    category = categories.parse(entry, "categories[1]", problems)
    assert problems == [] and category is not None
    assert categories.layout_row(category)["words"] == {"label": "Fläche", "unit": "{n} km²"}
    entry["words"]["strip"] = "Landfläche"
    categories.parse(entry, "categories[1]", problems)
    assert problems == ["categories[1].words.strip: leave it out (the strip prints the label and the unit)"]
