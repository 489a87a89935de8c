"""Canonical deck text and hashes: sorted JSON keys and sha256, shared by the deck writers and the reader
(kept free of heavy imports: the published-deck reader uses it on every `print` and `play-check`)."""

import hashlib
import json


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def content_hash(deck: dict) -> str:
    """sha256 of a deck document without its version: equal hashes mean nothing changed."""
    return sha256(dumps({**deck, "version": None}))
