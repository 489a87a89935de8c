"""The shipped catalogues (templates/locale/): the template is current, every catalogue translates every
message with its `{placeholders}`, and only a template's `words` are translated (issue 30, docs/languages.md)."""

import re
from pathlib import Path

import pdftext
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from catalogues import registered

from pipeline.games import registry as games
from pipeline.games.region.build import TITLE
from pipeline.i18n import catalogue, registry
from pipeline.i18n.catalogue import translate
from pipeline.paths import ROOT
from pipeline.render import layouts
from pipeline.render.numbers import number

POT = registry.LOCALE_DIR / f"{registry.domain()}.pot"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def lacks(template: Catalog, translated: Catalog, lang: str) -> list[str]:
    """What `translated` lacks of `template`: one line per message naming the language and the message."""
    found = []
    for message in template:
        if not message.id:
            continue
        entry = translated.get(message.id, context=message.context)
        where = f"{lang}: {message.context + ' ' if message.context else ''}{message.id!r}"
        if entry is None or not entry.string:
            found.append(f"{where} is not translated")
        elif entry.fuzzy:
            found.append(f"{where} is fuzzy")
        else:
            missing = set(PLACEHOLDER.findall(str(message.id))) - set(PLACEHOLDER.findall(str(entry.string)))
            if missing:
                found.append(f"{where} lacks {', '.join(sorted(missing))} in its translation")
    return found


def _catalogues() -> list[Path]:
    return sorted(registry.LOCALE_DIR.glob(f"*/LC_MESSAGES/{registry.domain()}.po"))


def test_every_catalogue_translates_every_message_with_its_placeholders():
    assert _catalogues(), "no catalogue in templates/locale/"
    template = _read(POT)
    problems = [line for po in _catalogues() for line in lacks(template, _read(po), po.parent.parent.name)]
    assert not problems, "\n".join(problems[:20])


def test_no_message_is_flagged_as_a_percent_format():
    """geodeck's messages are brace-formatted: a `python-format` flag (Babel's guess from "95 % interval") makes
    `msgfmt -c` check the words as %-directives and refuse the catalogue; `make messages` drops the flag."""
    flagged = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [POT, *_catalogues()]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("#,") and "python-format" in line.replace("python-brace-format", "")
    ]
    assert not flagged, flagged


def test_the_completeness_check_names_the_language_and_the_message():
    template = Catalog()
    for msgid, context in (("Capital", "toy:words.capital"), ("{n} cards", None), ("Age", "toy:words.age")):
        template.add(msgid, context=context)
    toy = Catalog(locale="eo")
    toy.add("Capital", "Ĉefurbo", context="toy:words.capital")
    toy.add("{n} cards", "kartoj")
    toy.add("Age", "Aĝo", context="toy:words.age", flags=["fuzzy"])
    assert lacks(template, toy, "eo") == [
        "eo: '{n} cards' lacks {n} in its translation",
        "eo: toy:words.age 'Age' is fuzzy",
    ]
    assert lacks(template, Catalog(locale="eo"), "eo")[0] == "eo: toy:words.capital 'Capital' is not translated"


def test_the_committed_template_is_current():
    """`make messages` was run: the messages extracted now (babel.cfg) are those of geodeck.pot."""
    with (ROOT / "babel.cfg").open() as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    extracted = set()
    for pattern, method in method_map:  # "pipeline/**.py": every .py under pipeline/
        folder, suffix = pattern.split("/**")
        options = options_map[pattern]
        keywords = {**DEFAULT_KEYWORDS, **options.get("keywords", {})}
        for path in sorted((ROOT / folder).rglob(f"*{suffix}")):
            for _line, message, _comments, context in extract_from_file(method, path, keywords, options=options):
                extracted.add((context, message if isinstance(message, str) else message[0]))
    committed = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _read(POT) if m.id}
    assert extracted == committed, (
        f"run `make messages`: new {sorted(extracted - committed)[:5]}, gone {sorted(committed - extracted)[:5]}"
    )


def test_print_refuses_an_unregistered_language_in_one_line(geodeck):
    code, output = geodeck(["print", "deutschland", "--lang", "xx"])
    assert code == 2 and len(output.strip().splitlines()) == 1, output
    assert "'xx'" in output and f"geodeck has {', '.join(registry.codes())};" in output, output


@pytest.fixture
def everything(tmp_path, monkeypatch):
    """A toy language `eo` whose catalogue translates every string of every card template, inside `words` or
    not, with or without its key path as context: only the `words` may come out translated."""
    cat = Catalog(locale="eo")
    for path in sorted(layouts.CARDS_DIR.glob("*.toml")):
        for context, text in _strings(layouts._read(path), path.stem):
            cat.add(text, f"eo:{text}", context=context)
            cat.add(text, f"eo:{text}")
        for context, message in catalogue.messages(layouts._read(path), path.stem):
            if isinstance(message, tuple):  # a plural message: its forms
                cat.add(message, tuple(f"eo:{form}" for form in message), context=context)
    yield from registered(cat, "eo", tmp_path, monkeypatch)


def _strings(document, stem: str, path: tuple[str, ...] = ()):
    """Every string of a template as (context it would have, text)."""
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _strings(value, stem, (*path, key))
    elif isinstance(document, list):
        for value in document:
            yield from _strings(value, stem, path)
    elif isinstance(document, str):
        yield f"{stem}:{'.'.join(path)}", document


def _pairs(original, localised, inside: bool = False):
    """(inside words, original, localised) for every string of a template."""
    if isinstance(localised, tuple):  # a plural message (its singular and plural): its forms
        for text, form in zip(original.values(), localised, strict=True):
            yield inside, text, form
    elif isinstance(original, dict):
        for key in original:
            yield from _pairs(original[key], localised[key], inside or key == catalogue.WORDS)
    elif isinstance(original, list):
        for a, b in zip(original, localised, strict=True):
            yield from _pairs(a, b, inside)
    elif isinstance(original, str):
        yield inside, original, localised


@pytest.mark.parametrize("game", ["deutschland", "laender-toppen", "world-game"])
def test_only_the_words_of_a_template_are_translated(everything, game):
    layout = layouts.load(games.get(game))
    localised = layout.localised(everything)
    pairs = [*_pairs(layout.data, localised.data), *_pairs(layout.common, localised.common)]
    assert {inside for inside, _, _ in pairs} == {True, False}
    for inside, original, text in pairs:
        assert text == (f"eo:{original}" if inside else original), (game, original, text)
    assert layout.continent("Europe", registry.language(everything))[0] == "Eŭropo"  # CLDR's name, not the catalogue's


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A language `qq` registered from one catalogue alone in $GEODECK_LOCALES: French number formats, the
    calibration sheet's title and the region title translated."""
    cat = Catalog(locale="fr_FR")
    cat.add("Duplex calibration (front)", "Étalonnage recto verso (recto)", context="common:calibration.words.title")
    cat.add("{country}: The Card Game", "{country} : le jeu de cartes")
    yield from registered(cat, "qq", tmp_path, monkeypatch)


def test_a_language_of_one_catalogue_prints_with_its_locale_s_numbers(toy, geodeck, tmp_path):
    """Printing took `de` and `en` only (`LANGS`, `LOCALES`): a registered language prints, with its numbers."""
    assert (
        number(1098581, registry.language(toy)) == "1\u202f098\u202f581"
        and number(11.3, registry.language(toy), "#,##0.0") == "11,3"
    )
    out = tmp_path / "calibration.pdf"
    code, output = geodeck(["print", "deutschland", "--calibration", "--lang", toy, "--out", out])
    assert code == 0, output
    assert "Étalonnage recto verso (recto)" in pdftext.pages(out.read_bytes())[0]
    assert translate(toy, TITLE, country="France") == "France : le jeu de cartes"


def test_continents_print_cldr_s_names_which_are_the_rulebooks_words():
    """The continents are CLDR region codes now (no de/en table): CLDR's German words are the rulebook's."""
    layout = layouts.load(games.get("laender-toppen"))
    names = ["North America", "South America", "Europe", "Africa", "Asia", "Oceania", "Antarctica"]
    assert [layout.continent(name, registry.language("de"))[0] for name in names] == [
        "Nordamerika",
        "Südamerika",
        "Europa",
        "Afrika",
        "Asien",
        "Ozeanien",
        "Antarktis",
    ]
    assert [layout.continent(name, registry.language(registry.source()))[0] for name in names] == names
