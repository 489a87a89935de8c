"""Text from data is data: the readers of decks, records and sources and the command line refuse control
characters (C0 but tab and newline, DEL, C1) and bidi overrides in every string and cap its length (`check`,
`check_all`); what reaches the terminal anyway has them shown as escapes (`shown`)."""

import re
from collections.abc import Iterator

from pipeline.errors import GeodeckError

# C0 controls but tab and newline, DEL and C1 controls (ESC starts CSI and OSC sequences), and the bidi
# embeddings, overrides and isolates that make text display in another order than it is stored.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
LONGEST = 10_000  # characters in one string of a deck, record or source definition
# A number as typed on the command line: ASCII digits only (no `_`, blanks or other scripts' digits).
WHOLE = re.compile(r"[+-]?[0-9]+")
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def unsafe(text: str) -> str | None:
    """The first control character or bidi override in `text` as U+XXXX, or None."""
    found = UNSAFE.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def check(text: str, what: str, longest: int = LONGEST) -> str:
    """`text` itself, or a `GeodeckError` naming `what` when it holds a control character or a bidi override
    or is longer than `longest` characters."""
    bad = unsafe(text)
    if bad:
        raise GeodeckError(f"{what} holds {bad}, a control character or bidi override; remove it")
    if len(text) > longest:
        raise GeodeckError(f"{what} is {len(text):,} characters long, more than {longest:,}; shorten it")
    return text


def strings(value: object) -> Iterator[tuple[str, str]]:
    """Every string in a JSON- or TOML-like value (keys included) in document order, with where it is
    (`cards[3].name`), walked with a stack of its own so that no nesting depth is a recursion limit."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where or "a value", item
        elif isinstance(item, dict):
            inside: list[tuple[str, object]] = []
            for key, inner in item.items():
                inside.append((f"a key of {where or 'the top level'}", key))
                inside.append((f"{where}.{key}" if where else str(key), inner))
            stack.extend(reversed(inside))
        elif isinstance(item, list | tuple):
            stack.extend(reversed([(f"{where}[{i}]", inner) for i, inner in enumerate(item)]))


def check_all(value: object, what: str, longest: int = LONGEST) -> None:
    """`check` every string in `value` (a deck, a record, a source definition), naming `what` and where."""
    texts = list(_texts(value))
    if not UNSAFE.search("\n".join(texts)) and max(map(len, texts), default=0) <= longest:
        return  # the common case, without building every string's place
    for where, text in strings(value):
        check(text, f"{what}: {place(where)}", longest)


def place(where: str) -> str:
    """A place in a document (`deals.0.name`) shown on one line and escaped: its keys come from data too."""
    return shown(where).replace("\n", "\\n").replace("\t", "\\t")


def _texts(value: object) -> Iterator[str]:
    """Every string in `value`, keys included (what `strings` yields, without where)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def shown(text: str) -> str:
    """`text` with every control character and bidi override replaced by its escape (`\\x1b`, `\\u202e`), so
    nothing from data moves the cursor, rewrites the window title or reorders a line."""
    return UNSAFE.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text
    )
