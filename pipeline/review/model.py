"""What the review page shows, as plain data: which two decks are compared, the summary and the build gate's
verdict, and each changed card with its changed values, their provenance and citations (pipeline/decks/diff.py
does the comparing). Horizontal: the field a card's region filter reads is the deck spec's `review_region`."""

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.decks import diff as diffing
from pipeline.decks import files, published, stage, versions
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.catalogue import N_, N_plural

BUILD = N_("unpublished build")  # the label of a fresh build's deck, which has no version yet (a message)


@dataclass(frozen=True)
class Pair:
    """The two decks a review compares (a fresh build's version is None)."""

    old: dict
    new: dict

    def label(self, deck: dict) -> str:
        return deck.get("version") or BUILD


def resolve(
    game: GameDefinition,
    old: str | None,
    new: str | None,
    decks_dir: Path | None = None,
    build_root: Path | None = None,
) -> Pair:
    """NEW: the given version, else the unpublished build when its cards differ from LATEST (what `geodeck
    diff` compares), else LATEST. OLD: the given version, else LATEST for a build, else the version before NEW."""
    game_dir = (decks_dir or paths.DECKS_DIR) / game.name
    if new:  # LATEST is read only when it is needed: each deck is read once
        after = published.deck(game, new, decks_dir)[1]
    else:
        latest = published.deck(game, None, decks_dir)[1]
        after = _fresh_or(latest, game, build_root)
        if after.get("version") is None and not old:
            return Pair(latest, after)
    if old:
        return Pair(published.deck(game, old, decks_dir)[1], after)
    earlier = [v for v in versions.versions(game_dir) if versions.key(v) < versions.key(after["version"])]
    if not earlier:
        raise GeodeckError(
            f"{game.name} {after['version']} is its first version, so there is nothing to compare it with; "
            f"name OLD and NEW (published: {', '.join(versions.versions(game_dir))})"
        )
    return Pair(published.deck(game, earlier[-1], decks_dir)[1], after)


def _fresh_or(latest: dict, game: GameDefinition, build_root: Path | None) -> dict:
    """The deck built from build/ now if it differs from `latest`; `latest` when it does not or cannot be built."""
    try:
        fresh = stage.fresh_deck(game, build_root)[1]
    except GeodeckError:
        return latest
    return latest if files.content_hash(fresh) == files.content_hash(latest) else fresh


def review(spec: DeckSpec, pair: Pair, citations: dict[str, str], made_by: str = "geodeck build") -> dict:
    """The page's content: summary, verdict, accept command (`made_by`, the command that publishes the
    deck), filters and the changed cards (suspicious first)."""
    diff = diffing.diff_decks(spec, pair.old, pair.new)
    old_cards = {c["id"]: c for c in pair.old["cards"]}
    new_cards = {c["id"]: c for c in pair.new["cards"]}
    order = {card_id: position for position, card_id in enumerate(new_cards)}
    by_card: dict[str, list[dict]] = {}
    for change in diff["changes"]:
        by_card.setdefault(change["card"], []).append(change)
    cards = [
        _card(old_cards[card_id], new_cards[card_id], changes, spec, citations) for card_id, changes in by_card.items()
    ]
    cards.sort(key=lambda c: (not c["suspicious"], order[c["id"]]))
    suspicious = sum(c["suspicious"] for c in diff["changes"])
    region = spec.options.get("review_region")
    return {
        "title": pair.new.get("title") or spec.title,  # a region deck's own ("Frankreich: …")
        "old": pair.label(pair.old),
        "new": pair.label(pair.new),
        "published": pair.new.get("version") is not None,
        "summary": {  # each name a message (the page shows it in its language)
            N_("added"): len(diff["added"]),
            N_("removed"): len(diff["removed"]),
            N_("changed cards"): len(cards),
            N_("changed values"): len(diff["changes"]),
            N_("suspicious changes"): suspicious,
            N_("head-to-head flips"): sum(len(pairs) for pairs in diff["flips"].values()),
        },
        "flips": {name: len(pairs) for name, pairs in diff["flips"].items() if pairs},
        "verdict": _verdict(suspicious),
        "accept": f'{made_by} --accept "REASON"' if suspicious else made_by,
        "cards": cards,
        "added": [_single(new_cards[i], spec) for i in diff["added"]],
        "removed": [_single(old_cards[i], spec) for i in diff["removed"]],
        "fields": sorted(Counter(c["field"] for c in diff["changes"]).items()),
        "region": region,
        "regions": sorted({r for c in cards for r in c["regions"]}),
    }


def _verdict(suspicious: int) -> dict:
    """The build gate's verdict: whether it passes, and why as a message with its fields (pipeline.i18n)."""
    if suspicious:
        return {
            "passes": False,
            "text": N_plural(
                "needs --accept: the build refuses to publish {count} suspicious change until an editor has "
                "reviewed it and gives the reason",
                "needs --accept: the build refuses to publish {count} suspicious changes until an editor has "
                "reviewed them and gives the reason",
            ),
            "fields": {"count": suspicious},
        }
    return {"passes": True, "text": N_("passes: no suspicious change, the build publishes it as it is"), "fields": {}}


def _card(old: dict, new: dict, changes: list[dict], spec: DeckSpec, citations: dict[str, str]) -> dict:
    rows = []
    for change in sorted(changes, key=lambda c: not c["suspicious"]):
        source = (new.get("provenance") or {}).get(change["field"]) or {}
        before = (old.get("provenance") or {}).get(change["field"]) or {}
        shown = source or before
        rows.append(
            {
                "field": change["field"],
                "suspicious": change["suspicious"],
                "cells": diffing.change_row(change)[2:8],
                "source": shown.get("source"),
                "vintage": shown.get("vintage"),
                "was": before if before and source and before != source else None,
                "citation": _citation(shown.get("source"), citations),
            }
        )
    return {
        **_single(new, spec),
        "suspicious": any(c["suspicious"] for c in changes),
        "fields": sorted({c["field"] for c in changes}),
        "changes": rows,
    }


def _single(card: dict, spec: DeckSpec) -> dict:
    """A card's id, its name (a place's name; the id for a card without one), its names per language (its
    `name_<lang>` fields; the page shows its language's) and region values (the region filter's; none when the
    spec names no region field)."""
    fields = card["fields"]
    value = fields.get(spec.options.get("review_region") or "")
    regions = value if isinstance(value, list) else [value] if value else []
    names = {k.removeprefix("name_"): v for k, v in fields.items() if k.startswith("name_") and isinstance(v, str)}
    return {
        "id": card["id"],
        "name": fields.get("name") or card["id"],
        "names": names,
        "regions": [str(r) for r in regions],
    }


def _citation(source: str | None, citations: dict[str, str]) -> str | None:
    """The citation of each source a value names (a derived value names two: "a / b")."""
    found = [citations[part] for part in (source or "").split(" / ") if part in citations]
    return " ".join(found) or None
