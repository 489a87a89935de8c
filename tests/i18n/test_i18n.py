"""The language registry and catalogues (pipeline/i18n): a catalogue registers its language, translates
template words by their key path, and a missing or broken one is a clear error."""

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from pipeline.errors import GeodeckError
from pipeline.i18n import catalogue, po, registry


def _clear():
    registry.languages.cache_clear()
    po.read.cache_clear()


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A toy language `eo` registered from one catalogue in $GEODECK_LOCALES."""
    po = tmp_path / "eo" / "LC_MESSAGES" / "geodeck.po"
    po.parent.mkdir(parents=True)
    cat = Catalog(locale="eo")
    cat.add("Capital", "Ĉefurbo", context="toy:words.capital")
    cat.add("{n} cards", "{n} kartoj")
    with po.open("wb") as handle:
        write_po(handle, cat)
    monkeypatch.setenv("GEODECK_LOCALES", str(tmp_path))
    _clear()
    yield po
    monkeypatch.delenv("GEODECK_LOCALES")
    _clear()


def test_a_catalogue_registers_its_language(toy):
    assert "eo" in registry.codes()
    assert registry.language("eo").name == "Esperanto"
    assert catalogue.translate("eo", "{n} cards", n=3) == "3 kartoj"
    assert catalogue.translate(registry.source(), "{n} cards", n=3) == "3 cards"


def test_template_words_are_translated_by_their_path(toy):
    document = {"words": {"capital": "Capital"}, "colour": "Capital", "other": {"capital": "Capital"}}
    assert catalogue.localised(document, "eo", "toy") == {
        "words": {"capital": "Ĉefurbo"},
        "colour": "Capital",
        "other": {"capital": "Capital"},
    }
    assert list(catalogue.messages(document, "toy")) == [("toy:words.capital", "Capital")]


def test_an_unknown_language_names_the_registered_ones():
    with pytest.raises(GeodeckError, match="no language 'xx': geodeck has en"):
        registry.language("xx")


def test_a_broken_catalogue_is_one_error(tmp_path, monkeypatch):
    po = tmp_path / "eo" / "LC_MESSAGES" / "geodeck.po"  # a language not in templates/locale
    po.parent.mkdir(parents=True)
    po.write_bytes(b'msgid "a"\n')  # no msgstr
    monkeypatch.setenv("GEODECK_LOCALES", str(tmp_path))
    _clear()
    try:
        with pytest.raises(GeodeckError, match="gettext catalogue"):
            registry.languages()
    finally:
        monkeypatch.delenv("GEODECK_LOCALES")
        _clear()


def test_clauses_are_joined_by_semicolons_as_the_language_writes_them():
    """Issue 43: parts holding commas are joined by the catalogue's "{before}; {after}" (French: a no-break
    space before the semicolon), not in code."""
    from pipeline.i18n.catalogue import clauses

    assert clauses("en", ["N: Kiel, Emden", "S: Passau"]) == "N: Kiel, Emden; S: Passau"
    assert clauses("fr", ["a, b", "c", "d"]) == "a, b\u00a0; c\u00a0; d"
    assert clauses("fr", ["seul"]) == "seul" and clauses("fr", []) == ""
