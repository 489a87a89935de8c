"""A language is made once where its code enters (the `--lang` option's type, the studio, a recipe) and passed
down as a `Language`: its code, locale, catalogue and card fields' names (docs/architecture.md)."""

import click
import pytest

from pipeline.cli_output import LanguageChoice
from pipeline.errors import GeodeckError
from pipeline.i18n import registry
from pipeline.i18n.language import Language


def test_the_lang_option_makes_the_registered_language_and_refuses_a_code_it_lacks():
    french = LanguageChoice().convert("fr", None, None)
    assert isinstance(french, Language) and french is registry.language("fr")
    assert french.locale.language == "fr" and french.catalogue is not None and french.catalogue.name == "geodeck.po"
    with pytest.raises(click.BadParameter, match="no language 'xx': geodeck has en, "):
        LanguageChoice().convert("xx", None, None)


def test_a_language_names_its_card_fields_and_prints_as_its_code():
    polish = registry.language("pl")
    assert polish.field("name") == "name_pl" and polish.field("highest_point_name") == "highest_point_name_pl"
    assert str(polish) == f"{polish}" == "pl"  # a file name's part, as Babel's Locale prints its identifier
    assert registry.language(polish) is polish  # given a language, the registry looks nothing up
    with pytest.raises(GeodeckError, match="a new language is one catalogue"):
        registry.language("xx")
