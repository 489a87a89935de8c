"""No card text is cut (issue 45): a Länder toppen fact line wider than its line even at the 7 pt floor
("Höchster Berg: Piton de la Petite Rivière Noire", "Highest mountain: Mont Blanc de Courmayeur") wraps to a
second line, whole, in every language; the card's map gives up that line's height at its top. `text.shorten`,
the one place a card text was cut with "…", is gone, so the other games cut nothing either."""

import io

import pdfplumber
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.i18n.catalogue import labelled
from pipeline.render import fonts, layouts, printing, text
from pipeline.render.printing import PrintOptions

pytestmark = pytest.mark.mirror
LT = games.get("laender-toppen")


@pytest.mark.parametrize("lang", registry.codes())
def test_no_card_text_ends_in_an_ellipsis(store, lang):
    deck = published.deck(LT)[1]
    layout = layouts.load(LT).localised(registry.language(lang))
    regular, words, width = fonts.register()[0], layout.data["words"], layout.box("facts").w
    countries = [card for card in deck["cards"] if card["kind"] == "country"]

    def widest(card: dict) -> float:
        facts = [("capital", "capital"), ("mountain", "highest_mountain")]
        said = [labelled(lang, words[w], card["fields"].get(f"{f}_{lang}") or "–") for w, f in facts]
        return max(stringWidth(line, regular, text.CARD_PT * text.PT_MM) for line in said)

    chosen = sorted(countries, key=widest)[-3:]  # the deck's widest fact lines in this language
    data = printing.render(
        LT, {**deck, "cards": chosen}, PrintOptions(layout="one-up", lang=registry.language(lang)), store
    )
    fronts = pdfplumber.open(io.BytesIO(data)).pages[::2]
    assert all(ch["size"] >= text.CARD_PT - 0.01 for page in fronts for ch in page.chars)
    for card, page in zip(chosen, fronts, strict=True):
        printed = page.extract_text()
        assert "…" not in printed, (card["id"], printed)
        mountain = card["fields"].get(f"highest_mountain_{lang}") or "–"
        assert "".join(mountain.split()) in "".join(printed.split()), (card["id"], printed)
    if widest(chosen[-1]) > width:  # wider than its line at 7 pt: on two lines, not shrunk below the floor
        last = (chosen[-1]["fields"].get(f"highest_mountain_{lang}") or "").split()[-1]
        lines = fronts[-1].extract_text().splitlines()
        assert not any(words["mountain"] in line and line.rstrip().endswith(last) for line in lines), lines


def test_no_card_field_of_a_built_in_deck_holds_an_ellipsis():
    """Nothing cuts a card text any more, so a "…" could only come from the data: none in the built-in decks."""
    for game in ("laender-toppen", "world-game", "deutschland"):
        cards = published.deck(games.get(game))[1]["cards"]
        cut = [(card["id"], key) for card in cards for key, value in card["fields"].items() if "…" in str(value)]
        assert cut == [], (game, cut)
