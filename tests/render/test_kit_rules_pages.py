"""The rules pages run without an orphan page (issue 45): where the rules text would end in a short tail on a
page of its own (Länder toppen, German: one paragraph on a third page; The World Game before its worked
example: 38 words on a second page, then a blank page in the home kit), it is set tighter (`rules.TIGHTER`:
leading, then at most 1.5 pt smaller, never below the type scale's small size) and the page is saved; text
that needs its pages keeps the body size."""

import io

import pdfplumber
import pytest

from pipeline.decks import published
from pipeline.games import registry as games
from pipeline.i18n import registry as languages
from pipeline.render import kit, layouts
from pipeline.render.printing import PrintOptions

pytestmark = pytest.mark.mirror
PT = 25.4 / 72


@pytest.mark.parametrize(("game", "lang", "pages"), [("world-game", "en", 2), ("laender-toppen", "de", 2)])
def test_the_rules_end_without_an_orphan_page(store, game, lang, pages):
    path, deck = published.deck(games.get(game))
    data, roles = kit.booklet(
        games.get(game), deck, kit.manifest_of(path), PrintOptions(lang=languages.language(lang)), store
    )
    rules = [i for i, role in enumerate(roles) if role == "rules"]
    assert len(rules) == pages
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        sizes = [round(c["size"], 2) for i in rules for c in pdf.pages[i].chars]
        last = pdf.pages[rules[-1]]
        filled = max(w["bottom"] for w in last.extract_words() if w["bottom"] < last.height - 15 / PT)
    assert filled / last.height > 1 / 3  # the last rules page holds more than a short tail
    small = layouts.load(games.get(game)).design.pt("small")
    assert max(set(sizes), key=sizes.count) >= small - 0.01  # the rules text (the pictures' cards are smaller)


def test_rules_that_need_their_pages_keep_the_body_size(store):
    path, deck = published.deck(games.get("deutschland"))
    data, roles = kit.booklet(
        games.get("deutschland"), deck, kit.manifest_of(path), PrintOptions(lang=languages.language("en")), store
    )
    body = layouts.load(games.get("deutschland")).design.pt("body")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        sizes = [round(c["size"], 2) for i, role in enumerate(roles) if role == "rules" for c in pdf.pages[i].chars]
    assert max(set(sizes), key=sizes.count) == pytest.approx(body, abs=0.01)
