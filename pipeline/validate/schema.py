"""Plausible ranges and formats per field: a value outside them is refused, never printed on a card.

The ranges are wide on purpose (they catch unit slips and parse errors, not surprising facts): e.g.
Vatican City's 0.44 km² and Russia's 17.1 million km² both pass, a Factbook "0 sq km" does not.
"""

import re

import pandera.pandas as pa

from pipeline.transform.observations import CONTINENTS

AREA_KM2 = (0.1, 20_000_000)  # Vatican 0.44 km² .. Antarctica 14.2 million km²
HIGHEST_POINT_M = (0.0, 8_849.0)  # Maldives ~5 m .. Everest 8,849 m
POPULATION = (500.0, 2_000_000_000.0)  # Vatican ~800 .. India ~1.45 billion
LIFE_EXPECTANCY = (40.0, 90.0)  # years at birth
GDP_PCAP_PPP = (300.0, 500_000.0)  # int$ per person and year; Monaco ~270,000-470,000
CAPITAL_TEMP_C = (-60.0, 35.0)  # Vostok -55 °C .. the hottest capitals ~30 °C
LATITUDE = (-90.0, 90.0)
LONGITUDE = (-180.0, 180.0)
LAND_NEIGHBOUR_COUNT = (0, 20)  # China and Russia have 14
GDP_DOLLAR_BASE = "2021 dollars"  # Gapminder's constant 2021 int$; a value in another base is not comparable
STATED_DOLLAR_BASE = re.compile(r"in (\d{4} dollars|current dollars)")

RANGES = {
    "area_km2": AREA_KM2,
    "area_core_km2": AREA_KM2,
    "highest_point_m": HIGHEST_POINT_M,
    "population": POPULATION,
    "life_expectancy": LIFE_EXPECTANCY,
    "gdp_pcap_ppp": GDP_PCAP_PPP,
    "capital_temp_c": CAPITAL_TEMP_C,
    "capital_lat": LATITUDE,
    "capital_lon": LONGITUDE,
    "label_lat": LATITUDE,
    "label_lon": LONGITUDE,
    "land_neighbour_count": LAND_NEIGHBOUR_COUNT,
}

ISO2 = re.compile(r"[A-Z]{2}")
ISO3_LIST = re.compile(r"([A-Z]{3}(;[A-Z]{3})*)?")  # empty = an island state without land neighbours
FLAG_FILE = re.compile(r"([a-z0-9-]+/)*[a-z0-9-]+\.svg")  # e.g. 4x3/de.svg
TEXT_FIELDS = {"name_en", "name_de", "capital", "capital_de", "highest_point_name", "highest_point_name_de"}


def refusal(field: str, value, note: str = "") -> str | None:
    """Why `value` (with its source's `note`) cannot be the card value of `field`, or None when acceptable."""
    if field == "gdp_pcap_ppp" and (base := STATED_DOLLAR_BASE.search(note)) and base[1] != GDP_DOLLAR_BASE:
        return f"in {base[1]}, not constant {GDP_DOLLAR_BASE} like the other values"
    if field in RANGES:
        low, high = RANGES[field]
        if not low <= value <= high:
            return f"{value:g} outside the plausible range {low:g}..{high:g}"
    elif field in TEXT_FIELDS and not str(value).strip():
        return "empty text"
    elif field == "iso2" and not ISO2.fullmatch(value):
        return f"{value!r} is not an ISO 3166-1 alpha-2 code"
    elif field == "land_neighbours" and not ISO3_LIST.fullmatch(value):
        return f"{value!r} is not a ';'-joined list of ISO3 codes"
    elif field == "continents" and (not value or set(value.split(";")) - set(CONTINENTS)):
        return f"{value!r} is not a ';'-joined list of {', '.join(CONTINENTS)}"
    elif field == "flag" and not FLAG_FILE.fullmatch(value):
        return f"{value!r} is not a flag-icons SVG file name"
    return None


def master_schema(value_columns: list[str], universe_size: int) -> pa.DataFrameSchema:
    """The master table's contract: one row per ISO3, every chosen value within its range."""
    columns = {"iso3": pa.Column(str, pa.Check.str_matches(r"^[A-Z]{3}$"), unique=True)}
    for name in value_columns:
        checks = [pa.Check.in_range(*RANGES[name])] if name in RANGES else []
        columns[name] = pa.Column(checks=checks, nullable=True)
    for name in value_columns:
        for suffix in ("source", "vintage", "conflict"):
            columns[f"{name}__{suffix}"] = pa.Column(str)
    return pa.DataFrameSchema(
        columns,
        strict=True,
        ordered=True,
        checks=pa.Check(lambda df: len(df) == universe_size, error="one row per country"),
    )
