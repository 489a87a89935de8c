"""Canonical deck text and hashes: sorted JSON keys and sha256, shared by the deck writers and the reader
(kept free of heavy imports: the published-deck reader uses it on every `print` and `play-check`)."""

import json

from pipeline.hashing import sha256


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def content_hash(deck: dict) -> str:
    """sha256 of a deck document without its version: equal hashes mean nothing changed."""
    return sha256(dumps({**deck, "version": None}))


def same_content(deck: dict, other: dict) -> bool:
    """Whether two deck documents have the same `content_hash`, without hashing them: their compact
    canonical JSON (json's C encoder; `dumps` indents, which only the pure-Python encoder does, ~10x
    slower) holds the same tokens, so it is equal exactly when `dumps`'s text is."""
    return _compact(deck) == _compact(other)


def _compact(deck: dict) -> str:
    return json.dumps({**deck, "version": None}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
