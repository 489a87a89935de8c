"""No message says a word twice in a row: the play-check reason once said "the highest peak peak" (issue 42)."""

import re

from babel.messages.pofile import read_po

from pipeline.paths import TEMPLATES_DIR

DOUBLED = re.compile(r"\b(\w{2,}) \1\b", re.IGNORECASE)


def test_no_english_message_has_a_word_twice_in_a_row():
    with (TEMPLATES_DIR / "locale" / "geodeck.pot").open("rb") as pot:
        catalogue = read_po(pot)
    doubled = [
        text
        for message in catalogue
        for text in ([message.id] if isinstance(message.id, str) else message.id)
        if text and DOUBLED.search(text)
    ]
    assert not doubled, doubled
    assert DOUBLED.search("the highest peak peak above")  # what it finds
