"""A Babel extraction method for the templates: every string under a `words` key of a TOML template is a
message with its key path as context (babel.cfg: `[toml: templates/**.toml]`; `make messages`).

A game term's glossary note is a TOML comment `# glossary: ...` at the end of the line that holds the
message's string: it becomes the message's extracted comment (`#.` in every catalogue, docs/languages.md)."""

import json
import tomllib
from pathlib import Path
from typing import IO, Any

from pipeline.i18n.catalogue import messages

GLOSSARY = "# glossary:"


def _glossary(lines: list[str]) -> dict[str, str]:
    """Each string written on a line ending in a glossary comment, with that comment."""
    notes = {}
    for line in lines:
        code, tag, note = line.partition(GLOSSARY)
        if tag:
            for part in code.split('"')[1::2]:
                notes[part] = "glossary:" + note.rstrip()
    return notes


def extract_toml(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict) -> Any:
    """Babel's extractor interface: (line, funcname, message, comments) per message; the context travels as
    funcname `pgettext` with (context, message)."""
    text = fileobj.read().decode("utf-8")
    document = tomllib.loads(text)
    stem = Path(getattr(fileobj, "name", "template")).stem
    recipe = document.get("recipe", {})  # a deck recipe's words are its game's: its deck's layout keeps that context
    notes = _glossary(text.splitlines())
    for context, message in messages(document, recipe.get("game", stem) if isinstance(recipe, dict) else stem):
        first = message[0] if isinstance(message, tuple) else message
        note = notes.get(json.dumps(first, ensure_ascii=False)[1:-1])
        if isinstance(message, tuple):  # a plural message
            yield 0, "npgettext", (context, *message), [note] if note else []
        else:
            yield 0, "pgettext", (context, message), [note] if note else []
