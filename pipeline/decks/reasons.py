"""Why a new deck version added or removed each card, for its CHANGELOG.md.

A game's deck module may provide `reasons(table, spec) -> pd.DataFrame`: one row per candidate its
selection considered, chosen or not, with the columns `card` (the card id it has or would have), `label`
(what a reader calls it: "Köln", "Chile") and `reason` (why it is in or out, in the game's own words:
"one of the 40 largest cities", "population under 500,000"). The publisher reads it only when a version
adds or removes cards; a removed card the game no longer considers at all is "no longer a candidate", named by
its name in the last version (the diff's `names`).
"""

import pandas as pd

from pipeline.decks import ports
from pipeline.decks.diff import label
from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import sort_name
from pipeline.errors import GeodeckError

COLUMNS = ["card", "label", "reason"]
GONE = "no longer a candidate"


def table(builder: ports.DeckModule, frame: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame | None:
    """The game's reasons by card id, or None when its deck module gives none."""
    reasons = ports.reasons(builder)
    if reasons is None:
        return None
    found = reasons(frame, spec)
    if list(found.columns) != COLUMNS or not found["card"].is_unique:
        raise GeodeckError(
            f"{spec.game}: the deck module's reasons must be one row per card with the columns {COLUMNS}; "
            f"got {list(found.columns)}"
        )
    return found.set_index("card")


def lines(diff: dict, reasons: pd.DataFrame | None) -> list[str]:
    """A markdown list: each added card ("in: ...") and each removed card ("out: ...") with its reason."""
    if reasons is None or not (diff["added"] or diff["removed"]):
        return []
    out = []
    for word, cards in (("in", diff["added"]), ("out", diff["removed"])):
        for card in sorted(cards, key=lambda c: (sort_name(_label(reasons, c, diff)), c)):
            reason = reasons.at[card, "reason"] if card in reasons.index else GONE
            out.append(f"- {word}: {_label(reasons, card, diff)} ({card}): {reason}")
    return out


def _label(reasons: pd.DataFrame, card: str, diff: dict) -> str:
    return str(reasons.at[card, "label"]) if card in reasons.index else label(diff, card)
