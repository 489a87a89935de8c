"""A Babel extraction method for the templates: every string under a `words` key of a TOML template is a
message with its key path as context (babel.cfg: `[toml: templates/**.toml]`; `make messages`)."""

import tomllib
from pathlib import Path
from typing import IO, Any

from pipeline.i18n.catalogue import messages


def extract_toml(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict) -> Any:
    """Babel's extractor interface: (line, funcname, message, comments) per message; the context travels as
    funcname `pgettext` with (context, message)."""
    stem = Path(getattr(fileobj, "name", "template")).stem
    for context, message in messages(tomllib.loads(fileobj.read().decode("utf-8")), stem):
        yield 0, "pgettext", (context, message), []
