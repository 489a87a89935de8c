"""A user's words are never markup (issue 49, "Words are text"): every string of a deck, a recipe or a catalogue
that reaches reportlab is printed as typed. Reportlab's Paragraph reads `<img src>` (it reads the file it
names into the PDF), `<a href>` (a link annotation), entities and tags; the kit's only markup is the project's
own `<b>`, `</b>` and `<br/>` from its templates (pipeline/markup.py).

Each game's kit (one sheet of cards) is printed in a hostile language registered from one catalogue whose every
message is hostile words (keeping its msgid's fields and tags, or the catalogue is refused, tests/
test_catalogue_checks.py), with hostile names, groups and title on its deck; the text read back with PDFium
holds the words as typed, the marker image named by `<img src>` is not in the PDF, and it has no link."""

import re

import pdftext
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from catalogues import one_sheet, registered

from pipeline.decks import published, translated
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.markup import Markup, fill, words
from pipeline.render import kit
from pipeline.render.printing import PrintOptions
from pipeline.render.text import paragraph

CODE = "hostile"  # no CLDR locale: the catalogue's Language: header names its locale
PNG_W, PNG_H = 13, 17  # the marker image's size, which no image of a kit has


def marker(folder) -> None:
    """A PNG of PNG_W × PNG_H pixels in `folder`, the file a hostile `<img src>` names."""
    from PIL import Image

    Image.new("RGB", (PNG_W, PNG_H), (1, 2, 3)).save(folder / IMAGE)


IMAGE = "m.png"  # read from the working folder, were it read
# Words reportlab would read as markup: an image, a link, entities, a font, a lone ampersand, a tag not ours.
HOSTILE = ("&", "&lt;&#65;", f"<img src='{IMAGE}'/>", '<a href="e:x">A</a>', "<i>F</i>", "R&D", "<B>b</B>")
SHORT = 40  # a message shorter than this gets the shortest hostile words (it fits a card's small boxes)


def translation(msgid: str, i: int) -> str:
    """The msgid with hostile words before it (its fields and tags kept, as a catalogue must)."""
    if len(msgid) < SHORT:  # "&" for its first letter outside a field: a card's boxes hold the longest at 7 pt
        return _first_letter(msgid, HOSTILE[0])
    return f"{HOSTILE[1 + i % (len(HOSTILE) - 1)]} {msgid}"


def _first_letter(msgid: str, word: str) -> str:
    """`word` for the first letter of `msgid` outside its fields ({n}, %(name)s) and tags."""
    for match in re.finditer(r"\{[^}]*\}|%\([^)]*\)[a-z]|<[^>]*>|([^\W\d_])", msgid):
        if match.group(1):
            return msgid[: match.start()] + word + msgid[match.end() :]
    return f"{word} {msgid}"


@pytest.fixture
def hostile_language(tmp_path, monkeypatch):
    """The hostile language registered from one catalogue in $GEODECK_LOCALES (Language: en_GB), the marker
    image in the working folder."""
    marker(tmp_path)
    monkeypatch.chdir(tmp_path)
    with (registry.LOCALE_DIR / f"{registry.domain()}.pot").open("rb") as handle:
        template = read_po(handle)
    cat = Catalog(locale="en_GB")
    for i, message in enumerate(m for m in template if m.id):
        ids = message.id if isinstance(message.id, tuple) else None
        text = tuple(translation(one, i) for one in ids) if ids else translation(str(message.id), i)
        cat.add(message.id, text, context=message.context)
    yield from registered(cat, CODE, tmp_path / "locales", monkeypatch)


def printed_literally(data: bytes, expected: tuple[str, ...]) -> None:
    """Each of `expected` in the PDF's text as typed; no marker image, no link."""
    text = pdftext.words("\n".join(pdftext.pages(data)))
    assert [words for words in expected if words not in text] == []
    assert not (re.search(rb"/Width %d\b" % PNG_W, data) and re.search(rb"/Height %d\b" % PNG_H, data))
    assert pdftext.links(data) == []


@pytest.mark.mirror
@pytest.mark.parametrize("game", ["laender-toppen", "world-game", "deutschland", "region-fra"])
def test_every_text_slot_of_a_kit_prints_hostile_words_as_typed(hostile_language, store, tmp_path, game):
    assert registry.language(CODE).locale.language == "en"  # resolved by its Language: header
    definition = games.get(game)
    path, deck = published.deck(definition, None)
    deck, _ = translated.completed(deck, load_spec(definition), registry.language(CODE), definition.made_by)
    sheet = one_sheet(deck)
    name = "<b>Name</b> &amp; \x1b[31m"  # a card's name, with a control character
    for card in deck["cards"]:
        for field in card["fields"]:
            if (field == "name" or field.startswith("name_")) and card["id"] in sheet:
                card["fields"][field] = name
    own = {"title": "<a href='e:x'>T</a>"} if "region" in deck else {}  # a region deck's --title, as given
    deck |= own
    options = PrintOptions(lang=registry.language(CODE), only=sheet)
    data, _ = kit.render(definition, deck, kit.manifest_of(path), options, store)
    printed_literally(data, (*HOSTILE, name.replace("\x1b", "\\x1b"), *own.values()))


def test_a_template_keeps_its_own_tags_and_fills_its_fields_with_text():
    assert fill("<b>Goal:</b> {x}", x="<b>Area</b> & <img src='/dev/zero'/>") == (
        "<b>Goal:</b> &lt;b&gt;Area&lt;/b&gt; &amp; &lt;img src='/dev/zero'/&gt;"
    )
    assert words("<b>Area") == "&lt;b&gt;Area"  # a tag that does not pair is text
    assert words("a<br/>b &lt;&#65;") == "a<br/>b &amp;lt;&amp;#65;"
    with pytest.raises(TypeError):
        paragraph("<b>x</b>", None)  # type: ignore[arg-type]
    assert isinstance(fill("{n}", n=1), Markup)


def test_a_template_s_fields_are_filled_by_the_restricted_formatter():
    with pytest.raises(GeodeckError, match="no format spec"):
        fill("{n:>99999999}", n=1)
    with pytest.raises(GeodeckError, match="not a plain name"):
        fill("{n.__class__}", n=1)
