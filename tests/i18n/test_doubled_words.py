"""No message says a word twice in a row (issue 42: play-check's card-strength reason said "the highest peak
peak"), in English (the msgids) or in any catalogue, besides the reviewed cases where the language means it."""

import re

import pytest
from babel.messages import pofile

from pipeline.i18n import registry

DOUBLED = re.compile(r"\b(\w{2,})\s+\1\b", re.IGNORECASE)
MEANT = {"die die"}  # German: "die Karten, die die anderen spielten" (the relative pronoun, then the article)


@pytest.mark.parametrize("lang", [code for code in registry.codes() if registry.language(code).catalogue])
def test_no_message_says_a_word_twice(lang):
    path = registry.language(lang).catalogue
    assert path is not None
    with path.open("rb") as file:
        catalogue = pofile.read_po(file)
    found = []
    for message in catalogue:
        texts = [*(message.id if isinstance(message.id, tuple) else (message.id,))]
        texts += [*(message.string if isinstance(message.string, tuple) else (message.string,))]
        for text in filter(None, texts):
            found += [f"{message.context}: …{m.group(0)}…" for m in DOUBLED.finditer(text) if m.group(0) not in MEANT]
    assert not found, found
