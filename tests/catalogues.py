"""Checks of shown text against the message catalogues (pipeline.i18n): which English messages were left
untranslated in a text meant to be in another language, and a kit's words to check (`kit_text`)."""

import re
from pathlib import Path

import pdftext
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from pipeline.decks.spec import load_spec
from pipeline.extract import load_sources
from pipeline.games import registry as games
from pipeline.i18n import registry
from pipeline.i18n.po import read
from pipeline.render import kit, layouts
from pipeline.render.printing import PrintOptions

FIELD = re.compile(r"\{[^}]*\}|%\([^)]*\)s|<[^>]*>")  # fields ({name}, %(name)s in Jinja pages) and markup


def english_left(text: str, lang: str, contexts: tuple[str, ...] = ()) -> list[str]:
    """The messages (without a context, or with one of `contexts`) whose translation into `lang` differs and
    whose English words (each literal run of three letters or more between the fields and markup) appear in
    `text` as whole words (a hyphen joins words: "Print-and-Play" holds no "and"), unless the language's own
    translations use them too (a command or a name kept, a word both languages spell alike: "place",
    "source" in French)."""
    left: list[str] = []
    catalogue = read(registry.language(lang).catalogue)
    spoken = "\n".join(str(message.string) for message in catalogue if message.id)  # the language's own words
    for message in catalogue:
        if not isinstance(message.id, str) or not message.id or message.string == message.id:
            continue
        if message.context and not message.context.startswith(contexts or ("\0",)):
            continue
        for run in FIELD.split(message.id):
            words = run.strip(" .,:;()!?'\"“”→·—-\n")
            if sum(c.isalpha() for c in words) < 3 or _whole(words, spoken):
                continue
            if _whole(words, text):
                left.append(message.id)
    return left


def _whole(words: str, text: str) -> bool:
    """Whether `words` appear in `text` as whole words (a hyphen joins words); the regular expression only
    where the words appear at all (most do not: a substring test is far cheaper)."""
    return words in text and re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text) is not None


def one_sheet(deck: dict) -> tuple[str, ...]:
    """The ids of a sheet of cards with a card of each kind."""
    firsts = {card["kind"]: card["id"] for card in reversed(deck["cards"])}
    rest = [card["id"] for card in deck["cards"] if card["id"] not in firsts.values()]
    return (*firsts.values(), *rest)[:9]


def kit_text(game: str, deck: dict, manifest: dict, lang: str, store) -> str:
    """The words of the game's kit in `lang`, with one sheet of cards, less the names it shows, which are data
    in their own language: the sources' titles, producers and licences (the attribution page), the games'
    titles, and the cards' names in the source language (Länder toppen's second name, as the rulebook's)."""
    sheet = one_sheet(deck)
    data, _roles = kit.render(
        games.get(game), deck, manifest, PrintOptions(lang=registry.language(lang), only=sheet), store
    )
    text = pdftext.words("\n".join(pdftext.pages(data)))
    defined = load_sources()
    names = [load_spec(games.get(name)).title for name in games.names()]
    names += [card["fields"].get(f"name_{registry.source()}") for card in deck["cards"] if card["id"] in sheet]
    for source in kit.sources(games.get(game), manifest):
        names += [defined[source].title, defined[source].producer, defined[source].license_name]
    for name in sorted({pdftext.words(str(n)) for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    return text


def contexts(game: str) -> tuple[str, ...]:
    """The contexts of the messages a game's kit shows: its template's and the common template's."""
    return (f"{layouts.load(games.get(game)).path.stem}:", "common:")


def registered(cat: Catalog, code: str, tmp_path: Path, monkeypatch):
    """Register `cat` as the language `code` from $GEODECK_LOCALES for one test (a fixture yields from it);
    forget it afterwards."""
    po = tmp_path / code / "LC_MESSAGES" / f"{registry.domain()}.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as handle:
        write_po(handle, cat)
    monkeypatch.setenv("GEODECK_LOCALES", str(tmp_path))
    registry.languages.cache_clear()
    yield code
    monkeypatch.delenv("GEODECK_LOCALES")
    registry.languages.cache_clear()
