"""Checks of shown text against the message catalogues (pipeline.i18n): which English messages were left
untranslated in a text meant to be in another language."""

import re

from pipeline.i18n import registry
from pipeline.i18n.po import read

FIELD = re.compile(r"\{[^}]*\}|%\([^)]*\)s")  # a message's fields: {name} in the code, %(name)s in Jinja pages


def english_left(text: str, lang: str, contexts: tuple[str, ...] = ()) -> list[str]:
    """The messages (without a context, or with one of `contexts`) whose translation into `lang` differs and
    whose English words (each literal run of three letters or more between the fields) appear in `text` as
    whole words."""
    left: list[str] = []
    for message in read(registry.language(lang).catalogue):
        if not isinstance(message.id, str) or not message.id or message.string == message.id:
            continue
        if message.context and not message.context.startswith(contexts or ("\0",)):
            continue
        for run in FIELD.split(message.id):
            words = run.strip(" .,:;()!?'\"“”→·—-\n")
            if sum(c.isalpha() for c in words) >= 3 and re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text):
                left.append(message.id)
    return left
