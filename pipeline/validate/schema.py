"""Plausible ranges and formats per field (pipeline/fields.toml): a value outside them is refused, never
printed on a card. So is a value of a classed field (`[source_classes]`) whose note cites a travel, blog,
news or mirror page (pipeline/source_classes.py `page_kind`): a page an editor does not cite.

The ranges are wide on purpose (they catch unit slips and parse errors, not surprising facts): e.g.
Vatican City's 0.44 km² and Russia's 17.1 million km² both pass, a Factbook "0 sq km" does not.
"""

import re

import pandas as pd

from pipeline import source_classes
from pipeline.fields import fields
from pipeline.transform.observations import CONTINENTS

GDP_DOLLAR_BASE = "2021 dollars"  # Gapminder's constant 2021 int$; a value in another base is not comparable
STATED_DOLLAR_BASE = re.compile(r"in (\d{4} dollars|current dollars)")


def refusal(name: str, value, note: str = "") -> str | None:
    """Why `value` (with its source's `note`) cannot be the card value of `name`, or None when acceptable."""
    if name == "gdp_pcap_ppp" and (base := STATED_DOLLAR_BASE.search(note)) and base[1] != GDP_DOLLAR_BASE:
        return f"in {base[1]}, not constant {GDP_DOLLAR_BASE} like the other values"
    if name in source_classes.fields() and (page := source_classes.page_kind(note)):
        return f"cites a {page[1]} page ({page[0]}), not a source an editor cites"
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


def check_master(master: pd.DataFrame, columns: list[str], value_columns: list[str], universe_size: int) -> None:
    """The master table's contract, checked before it is written: exactly `columns` in order, one row per card
    country, ISO3 codes unique and of three capitals, each value column within its field's range (missing
    allowed), the other columns (provenance) text without gaps. ValueError naming every breach: a bug, since
    the chooser refuses such values. (Plain pandas, one pass per column: pandera took 0.65 s CPU, most of it
    its import and first-use set-up, for these few checks; issue 23.)"""
    if list(master.columns) != columns:
        missing, extra = sorted(set(columns) - set(master.columns)), sorted(set(master.columns) - set(columns))
        raise ValueError(f"master table columns: missing {missing}, unexpected {extra}, or not in the declared order")
    breaches = [f"{len(master)} rows, not one per card country ({universe_size})"] * (len(master) != universe_size)
    iso3 = master["iso3"]
    if bad := sorted(map(str, iso3[iso3.isna() | ~iso3.astype(str).str.fullmatch("[A-Z]{3}")])):
        breaches.append(f"iso3 not three capitals: {bad}")
    if twice := sorted(map(str, iso3[iso3.duplicated()])):
        breaches.append(f"iso3 twice: {twice}")
    for name in value_columns:
        values = master[name].dropna()
        if (bounds := fields()[name].range) and len(outside := values[~values.between(*bounds)]):
            breaches.append(f"{name} outside {bounds[0]:g}..{bounds[1]:g}: {outside.tolist()}")
    for name in (c for c in columns if c != "iso3" and c not in value_columns):
        if master[name].isna().any() or not pd.api.types.is_string_dtype(master[name]):
            breaches.append(f"{name} is not text throughout")
    if breaches:
        raise ValueError(f"the master table breaks its contract: {'; '.join(breaches)}")
