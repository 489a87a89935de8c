"""Plausible ranges and formats per field (pipeline/fields.toml): a value outside them is refused, never
printed on a card.

The ranges are wide on purpose (they catch unit slips and parse errors, not surprising facts): e.g.
Vatican City's 0.44 km² and Russia's 17.1 million km² both pass, a Factbook "0 sq km" does not.
"""

import re

import pandera.pandas as pa

from pipeline.fields import fields
from pipeline.transform.observations import CONTINENTS

GDP_DOLLAR_BASE = "2021 dollars"  # Gapminder's constant 2021 int$; a value in another base is not comparable
STATED_DOLLAR_BASE = re.compile(r"in (\d{4} dollars|current dollars)")


def refusal(name: str, value, note: str = "") -> str | None:
    """Why `value` (with its source's `note`) cannot be the card value of `name`, or None when acceptable."""
    if name == "gdp_pcap_ppp" and (base := STATED_DOLLAR_BASE.search(note)) and base[1] != GDP_DOLLAR_BASE:
        return f"in {base[1]}, not constant {GDP_DOLLAR_BASE} like the other values"
    field = fields()[name]
    if field.range is not None:
        low, high = field.range
        if not low <= value <= high:
            return f"{value:g} outside the plausible range {low:g}..{high:g}"
    elif field.pattern is not None:
        if not re.fullmatch(field.pattern, str(value)):
            return f"{value!r} does not have the form {field.pattern}"
    elif name == "continents":
        if not value or set(value.split(";")) - set(CONTINENTS):
            return f"{value!r} is not a ';'-joined list of {', '.join(CONTINENTS)}"
    elif field.dtype is str and not str(value).strip():
        return "empty text"
    return None


def master_schema(value_columns: list[str], universe_size: int) -> pa.DataFrameSchema:
    """The master table's contract: one row per ISO3, every chosen value within its range."""
    columns = {"iso3": pa.Column(str, pa.Check.str_matches(r"^[A-Z]{3}$"), unique=True)}
    for name in value_columns:
        bounds = fields()[name].range
        columns[name] = pa.Column(checks=[pa.Check.in_range(*bounds)] if bounds else [], nullable=True)
    for name in value_columns:
        for suffix in ("source", "vintage", "conflict", "citation"):
            columns[f"{name}__{suffix}"] = pa.Column(str)
    return pa.DataFrameSchema(
        columns,
        strict=True,
        ordered=True,
        checks=pa.Check(lambda df: len(df) == universe_size, error="one row per country"),
    )
