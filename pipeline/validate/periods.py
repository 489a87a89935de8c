"""Climate normals chosen by their period (`period` of a field in pipeline/fields.toml: capital_temp_c).

A normal's period is its candidate's vintage ("1981-2010"). The candidates are tried in this order:
the preferred period (a station of the capital itself before a grid cell: the field's precedence), then
normals of another stated period, newest last year first, then values whose period is not stated. A card
value that is not of the preferred period is flagged on its provenance (the vintage says why) and listed in
the report, so an editor sees every value a normal of the preferred period should replace.
"""

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

STATED = re.compile(r"(\d{4})-(\d{4})\b")

C = TypeVar("C")


def standing(vintage: str, preferred: str) -> tuple[int, int]:
    """Sort key of a period: (0, 0) the preferred one, (1, -last year) another stated one, (2, 0) none."""
    if vintage == preferred:
        return (0, 0)
    stated = STATED.match(vintage)
    return (1, -int(stated.group(2))) if stated else (2, 0)


def ordered(
    candidates: Sequence[C], preferred: str, vintage: Callable[[C], str], rank: Callable[[C], tuple]
) -> list[C]:
    """The candidates in the order above; `rank` (the field's precedence) breaks ties."""
    return sorted(candidates, key=lambda c: (*standing(vintage(c), preferred), rank(c)))


def flagged(vintage: str, preferred: str) -> str:
    """The provenance's vintage: the period, with a flag unless it is the preferred one."""
    kind = standing(vintage, preferred)[0]
    if kind == 0:
        return vintage
    return f"{vintage}; flagged: " + (
        f"not {preferred} (none for this capital)" if kind == 1 else "no stated period (none for this capital)"
    )
