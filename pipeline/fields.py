"""The country fields, declared once in `fields.toml` (unit, dtype, range, card precision, tolerance,
precedence with its reason, referee, recency, preferred period): the observation table, the schema, the chooser, the
report and the deck specs read them from here."""

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pipeline import readers

TABLE = Path(__file__).with_name("fields.toml")
DTYPES = {"str": str, "float": float, "bool": bool, "int": int}


@dataclass(frozen=True)
class Tolerance:
    """How far two sources may disagree: "relative" (share of the chosen value), "absolute" (in the
    field's unit) or "same set" (';'-joined lists compared as sets)."""

    kind: str
    amount: float = 0.0
    unit: str = ""
    reason: str = ""

    def agree(self, chosen, other, widen: float = 0.0) -> bool:
        """Whether `other` agrees with `chosen`; `widen` adds to the amount (a referee years away)."""
        if self.kind == "relative":
            return abs(other - chosen) <= (self.amount + widen) * abs(chosen)
        if self.kind == "absolute":
            return abs(other - chosen) <= self.amount + widen
        return set(filter(None, str(chosen).split(";"))) == set(filter(None, str(other).split(";")))

    def __str__(self) -> str:
        if self.kind == "relative":
            return f"±{self.amount:.0%}"
        if self.kind == "absolute":
            return f"±{self.amount:g} {self.unit}".rstrip()
        return self.kind


@dataclass(frozen=True)
class Referee:
    """A source that never gives a card value but decides between card sources that disagree."""

    source: str
    drift_per_year: float
    reason: str
    base_factor: float = 1.0


@dataclass(frozen=True)
class Period:
    """A climate normal's preferred period: candidates are chosen by period first (validate/periods.py)."""

    preferred: str
    reason: str = ""


@dataclass(frozen=True)
class Field:
    name: str
    dtype: type
    unit: str = ""
    master: bool = True
    derived: str | None = None
    follows: str | None = None
    override_with: tuple[str, ...] = ()
    range: tuple[float, float] | None = None
    range_reason: str = ""
    pattern: str | None = None
    choices: tuple[str, ...] = ()
    card: dict = field(default_factory=dict)
    tolerance: Tolerance | None = None
    precedence: tuple[str, ...] = ()
    precedence_reason: str = ""
    referee: Referee | None = None
    recency: bool = False
    period: Period | None = None


def _field(name: str, entry: dict) -> Field:
    entry = dict(entry)
    tolerance = entry.pop("tolerance", None)
    referee = entry.pop("referee", None)
    period = entry.pop("period", None)
    return Field(
        name=name,
        dtype=DTYPES[entry.pop("dtype")],
        range=tuple(entry.pop("range")) if "range" in entry else None,
        override_with=tuple(entry.pop("override_with", ())),
        choices=tuple(entry.pop("choices", ())),
        precedence=tuple(entry.pop("precedence", ())),
        tolerance=Tolerance(**tolerance) if tolerance else None,
        referee=Referee(**referee) if referee else None,
        period=Period(**period) if period else None,
        **entry,
    )


@cache
def _table() -> dict:
    return readers.read_input("toml", TABLE)


@cache
def fields() -> dict[str, Field]:
    """Every declared field by name, in the table's order."""
    return {name: _field(name, entry) for name, entry in _table()["fields"].items()}


def master_columns() -> list[str]:
    """The master table's value columns, in order."""
    return [f.name for f in fields().values() if f.master]


def source_classes() -> dict:
    """The `[source_classes]` table: fields, classes (name -> allowed, description), of (source -> class)."""
    return _table()["source_classes"]


def max_vintage_gap_years() -> int:
    """A recency field's value more than this many years older than the freshest candidate is stale."""
    return int(_table()["recency"]["max_gap_years"])
