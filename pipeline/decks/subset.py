"""A subset of a deck's cards named by id (`geodeck print --cards ID,…`, a reprint of lost or damaged cards):
the ids checked against the deck, in the deck's order. Every refusal is one line naming the bad ids and how to
list the deck's ids."""

import difflib
import hashlib

from pipeline.errors import GeodeckError


def chosen(text: str, deck: dict, ids_at: str) -> tuple[str, ...]:
    """The ids of `text` (comma-separated, blanks around each ignored) in the order of `deck`'s cards; an
    empty list, an empty id, an id named twice or one the deck lacks (with its closest id, if one is close)
    is refused; `ids_at` says where the deck's ids are listed."""
    named = [part.strip() for part in text.split(",")]
    if not any(named):
        raise GeodeckError(f"--cards names no card: give card ids separated by commas; {ids_at}")
    if not all(named):
        raise GeodeckError(f"--cards {text!r} has an empty id (two commas, or one at an end): remove it")
    twice = sorted({ident for ident in named if named.count(ident) > 1})
    if twice:
        raise GeodeckError(f"--cards names {', '.join(twice)} more than once: name each card once")
    ids = [card["id"] for card in deck["cards"]]
    unknown = [ident for ident in named if ident not in ids]
    if unknown:
        deck_name = " ".join(filter(None, (deck["game"], deck.get("version"))))
        missing = ", ".join(ident + _close(ident, ids) for ident in unknown)
        raise GeodeckError(f"--cards: {deck_name} has no card {missing}; {ids_at}")
    return tuple(ident for ident in ids if ident in named)


def _close(ident: str, ids: list[str]) -> str:
    """` (did you mean X?)` for the deck's id closest to `ident`, or nothing when none is close."""
    lowered = {i.lower(): i for i in ids}  # lt-deu is lt-DEU
    close = difflib.get_close_matches(ident.lower(), list(lowered), n=1)
    return f" (did you mean {lowered[close[0]]}?)" if close else ""


def name(ids: tuple[str, ...]) -> str:
    """A subset's part of a file name, `subset-<n>-<8 hex of its ids>`: two subsets never share a file."""
    return f"subset-{len(ids)}-{hashlib.sha256(','.join(ids).encode()).hexdigest()[:8]}"
