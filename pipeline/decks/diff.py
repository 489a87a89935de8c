"""Diff two decks: added/removed cards, value changes with thresholds, rank changes and head-to-head flips.

A numeric change is suspicious when it exceeds the field's `threshold_abs` (absolute) or `threshold_rel`
(relative to the old value) from the deck spec; added and removed cards are listed but not suspicious.
Ranks are 1 = highest value (ties share the best rank). A flip is a pair of cards present in both decks
whose order in a category changes (a < b became a > b, or a tie appeared or broke).

Every value that changed by more than `EXPLAIN_REL` (or appeared or disappeared) says why, from the two
cards' provenance: its source changed, else its vintage, else its citation, else the series or rule changed
under the same provenance (a source file changed in place, or the build's rule: precedence, territory, period);
each with the provenance old → new (source, vintage, citation).
"""

import json

import numpy as np

from pipeline.decks.spec import DeckSpec

EXPLAIN_REL = 0.05  # a card value that moves by more than 5 % names why (issue 18)


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def needs_reason(old, new) -> bool:
    """A number that moved by more than EXPLAIN_REL of its old value, or a number that appeared or went."""
    if is_number(old) and is_number(new):
        return abs(new - old) > EXPLAIN_REL * abs(old) if old else new != 0
    return is_number(old) or is_number(new)


def origin(provenance: dict | None) -> str:
    """A value's provenance as text: source (vintage) [citation], the citation once."""
    if not provenance:
        return "no provenance"
    text = str(provenance.get("source") or "no source")
    vintage, citation = provenance.get("vintage"), provenance.get("citation")
    text += f" ({vintage})" if vintage else ""
    return text + (
        f" [{citation}]" if citation and citation != vintage else ""
    )  # an override's vintage is its citation


def reason(old: dict | None, new: dict | None) -> dict:
    """Why a value changed, from its provenance in the old and the new deck."""
    before, after = old or {}, new or {}
    kind = next((part for part in ("source", "vintage", "citation") if before.get(part) != after.get(part)), None)
    return {"kind": f"{kind} changed" if kind else "series or rule changed", "old": origin(old), "new": origin(new)}


def suspicious(field, old, new) -> bool:
    if not (is_number(old) and is_number(new)):
        return False
    delta = abs(new - old)
    if field.threshold_abs is not None and delta > field.threshold_abs:
        return True
    if field.threshold_rel is not None:
        return delta > field.threshold_rel * abs(old) if old else delta > 0
    return False


def ranks(values: dict[str, float]) -> dict[str, int]:
    """1 = highest; equal values share the best rank."""
    ordered = sorted(values.values(), reverse=True)
    first: dict[float, int] = {}
    for position, value in enumerate(ordered, start=1):
        first.setdefault(value, position)
    return {card: first[value] for card, value in values.items()}


def category_values(cards: dict[str, dict], field: str, ids: list[str]) -> dict[str, float]:
    return {i: cards[i]["fields"][field] for i in ids if is_number(cards[i]["fields"].get(field))}


def flips(old: dict[str, float], new: dict[str, float]) -> list[list[str]]:
    """Pairs (sorted ids) whose order differs between old and new values."""
    ids = sorted(set(old) & set(new))
    if len(ids) < 2:
        return []
    a = np.array([old[i] for i in ids], dtype=float)
    b = np.array([new[i] for i in ids], dtype=float)
    changed = np.flatnonzero(a != b)
    pairs = set()
    for k in changed:
        swapped = np.sign(a[k] - a) != np.sign(b[k] - b)
        for j in np.flatnonzero(swapped):
            pairs.add(tuple(sorted((ids[k], ids[j]))))
    return [list(p) for p in sorted(pairs)]


def diff_decks(spec: DeckSpec, old: dict, new: dict) -> dict:
    old_cards = {c["id"]: c for c in old["cards"]}
    new_cards = {c["id"]: c for c in new["cards"]}
    common = sorted(old_cards.keys() & new_cards.keys())
    changes = []
    for card in common:
        before, after = old_cards[card]["fields"], new_cards[card]["fields"]
        for name in sorted(
            before.keys() | after.keys(),
            key=lambda n: spec.columns.index(n) if n in spec.columns else len(spec.columns),
        ):
            o, n = before.get(name), after.get(name)
            if o == n:
                continue
            numeric = is_number(o) and is_number(n)
            field = spec.fields.get(name)
            change = {
                "card": card,
                "field": name,
                "old": o,
                "new": n,
                "abs": (n - o) if numeric else None,
                "rel": ((n - o) / abs(o)) if numeric and o else None,
                "suspicious": bool(field and suspicious(field, o, n)),
            }
            if needs_reason(o, n):
                provenances = (c.get("provenance", {}).get(name) for c in (old_cards[card], new_cards[card]))
                change["why"] = reason(*provenances)
            changes.append(change)
    rank_changes, head_to_head = {}, {}
    for name in spec.categories:
        old_values = category_values(old_cards, name, common)
        new_values = category_values(new_cards, name, common)
        old_rank, new_rank = ranks(old_values), ranks(new_values)
        rank_changes[name] = [
            {"card": c, "old": old_rank.get(c), "new": new_rank.get(c)}
            for c in common
            if old_rank.get(c) != new_rank.get(c)
        ]
        head_to_head[name] = flips(old_values, new_values)
    for change in changes:
        if change["field"] in rank_changes:
            moved = {r["card"]: r for r in rank_changes[change["field"]]}.get(change["card"])
            change["rank_old"], change["rank_new"] = (moved["old"], moved["new"]) if moved else (None, None)
            change["flips"] = sum(change["card"] in p for p in head_to_head[change["field"]])
    return {
        "game": spec.game,
        "old": old.get("version"),
        "new": new.get("version") or "fresh build",
        "added": sorted(new_cards.keys() - old_cards.keys()),
        "removed": sorted(old_cards.keys() - new_cards.keys()),
        "changes": changes,
        "rank_changes": rank_changes,
        "flips": head_to_head,
        "suspicious": any(c["suspicious"] for c in changes),
        "names": names(old_cards | new_cards),
    }


def names(cards: dict[str, dict]) -> dict[str, str]:
    """Each card's name by id, for cards that have one (a place's name: the rows name it, not its id)."""
    return {card: c["fields"]["name"] for card, c in sorted(cards.items()) if c["fields"].get("name")}


def label(diff: dict | None, card: str) -> str:
    """The card as a reader knows it: its name (the card's id when it has none, or in an older diff)."""
    return (diff or {}).get("names", {}).get(card, card)


def to_json(diff: dict) -> str:
    return json.dumps(diff, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def number(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def change_row(change: dict, diff: dict | None = None) -> list[str]:
    rel = "" if change["rel"] is None else f"{change['rel']:+.1%}"
    absolute = "" if change["abs"] is None else ("+" if change["abs"] >= 0 else "") + number(change["abs"])
    rank = "" if change.get("rank_old") is None else f"{change['rank_old']} → {change['rank_new']}"
    return [
        label(diff, change["card"]),
        change["field"],
        number(change["old"]),
        number(change["new"]),
        absolute,
        rel,
        rank,
        str(change.get("flips", "")),
        "SUSPICIOUS" if change["suspicious"] else "",
    ]


HEADERS = ["card", "field", "old", "new", "Δ", "Δ %", "rank", "flips", "check"]


def summary_lines(diff: dict) -> list[str]:
    flips_total = sum(len(p) for p in diff["flips"].values())
    lines = [
        f"{diff['game']}: {diff['old']} → {diff['new']}: {len(diff['added'])} added, "
        f"{len(diff['removed'])} removed, {len(diff['changes'])} changed values, "
        f"{sum(c['suspicious'] for c in diff['changes'])} suspicious, {flips_total} head-to-head flips"
    ]
    if diff["added"]:
        lines.append("added: " + ", ".join(sorted(label(diff, c) for c in diff["added"])))
    if diff["removed"]:
        lines.append("removed: " + ", ".join(sorted(label(diff, c) for c in diff["removed"])))
    for name, pairs in diff["flips"].items():
        if pairs:
            shown = "; ".join(f"{label(diff, a)} ↔ {label(diff, b)}" for a, b in pairs[:10])
            lines.append(f"flips in {name} ({len(pairs)}): {shown}{' …' if len(pairs) > 10 else ''}")
    return lines


def reason_lines(diff: dict) -> list[str]:
    """One line per value that changed by more than EXPLAIN_REL: card, field, old → new and why."""
    lines = []
    for change in (c for c in diff["changes"] if "why" in c):
        rel = "" if change["rel"] is None else f" ({change['rel']:+.1%})"
        why = change["why"]
        lines.append(
            f"{label(diff, change['card'])} {change['field']} {number(change['old'])} → {number(change['new'])}{rel}: "
            f"{why['kind']}: {why['old']} → {why['new']}"
        )
    return lines


def to_markdown(diff: dict) -> str:
    out = [f"- {line}" for line in summary_lines(diff)]
    if diff["changes"]:
        out += ["", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in change_row(ch, diff)) + " |" for ch in diff["changes"]]
    if reasons := reason_lines(diff):
        out += ["", f"Why each value changed by more than {EXPLAIN_REL:.0%}:", ""] + [f"- {line}" for line in reasons]
    return "\n".join(out) + "\n"


def to_rich(diff: dict):
    """A rich renderable: the summary and one table row per changed value."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    lines = [Text(line) for line in summary_lines(diff)]
    if not diff["changes"]:
        return Group(*lines)
    table = Table(*HEADERS, title=f"{diff['game']}: {diff['old']} → {diff['new']}")
    for change in diff["changes"]:
        table.add_row(*change_row(change, diff), style="bold red" if change["suspicious"] else None)
    reasons = reason_lines(diff)
    heading = [Text(f"Why each value changed by more than {EXPLAIN_REL:.0%}:")] if reasons else []
    return Group(*lines, table, *heading, *(Text(line) for line in reasons))
