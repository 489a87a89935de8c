"""Canonical deck text and hashes: sorted JSON keys and sha256, shared by the deck writers and the reader
(kept free of heavy imports: the published-deck reader uses it on every `print` and `play-check`)."""

import json

from pipeline.hashing import sha256

_HASHES: dict[str, str] = {}  # content_hash by compact text, a few decks at most


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def content_hash(deck: dict) -> str:
    """sha256 of a deck document without its version: equal hashes mean nothing changed. Remembered by the
    deck's compact text (see same_content: equal exactly when `dumps`'s is), so a deck read again (every
    print, play-check and replay verifies one) is not indented again by the pure-Python encoder."""
    compact = _compact(deck)
    if compact not in _HASHES:
        if len(_HASHES) >= 16:
            _HASHES.clear()
        _HASHES[compact] = sha256(dumps({**deck, "version": None}))
    return _HASHES[compact]


def same_content(deck: dict, other: dict) -> bool:
    """Whether two deck documents have the same `content_hash`, without hashing them: their compact
    canonical JSON (json's C encoder; `dumps` indents, which only the pure-Python encoder does, ~10x
    slower) holds the same tokens, so it is equal exactly when `dumps`'s text is."""
    return _compact(deck) == _compact(other)


def _compact(deck: dict) -> str:
    return json.dumps({**deck, "version": None}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
