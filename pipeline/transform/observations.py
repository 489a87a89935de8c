"""The harmonized observation table: the one shape in which every country source leaves `transform`.

One row per (country, field, source): `iso3` (ISO 3166-1 alpha-3, Kosovo `XKX`), `field` (one of
FIELDS), `value` (in the field's unit), `source` (the name of its `sources/*.toml`), `vintage` (the
year or edition the value describes) and `note` (what a reviewer should know, e.g. "metropolitan France").
`validate` picks one value per country and field from these rows.
"""

import pandas as pd

from pipeline.errors import GeodeckError

COLUMNS = ["iso3", "field", "value", "source", "vintage", "note"]

# field -> (unit, Python type of `value`)
FIELDS = {
    "name_en": ("", str),
    "name_de": ("", str),
    "iso2": ("", str),
    "un_member": ("", bool),
    "continents": ("set of continent names, ';'-joined in CONTINENTS order", str),
    "capital": ("capital name(s), ';'-joined", str),
    "capital_lat": ("degrees", float),
    "capital_lon": ("degrees", float),
    "capital_spelling": ("a source's name(s) of the country's capital(s), ';'-joined: spelling cross-check only", str),
    "label_lat": ("degrees, Natural Earth label point (where a map writes the country's name)", float),
    "label_lon": ("degrees, Natural Earth label point", float),
    "area_km2": ("km²", float),
    "area_core_km2": ("km², core national territory where the source states it", float),
    "highest_point_name": ("", str),
    "highest_point_m": ("m", float),
    "population": ("persons", float),
    "life_expectancy": ("years", float),
    "gdp_pcap_ppp": ("int$ (PPP)", float),
    "capital_temp_c": ("°C, annual mean", float),
    "land_neighbours": ("ISO3 codes of land neighbours, ';'-joined, sorted", str),
    "flag": ("file of the flag-icons 4x3 SVG", str),
}

CONTINENTS = ["North America", "South America", "Europe", "Africa", "Asia", "Oceania", "Antarctica"]


def frame(rows: list[dict]) -> pd.DataFrame:
    """Rows as an observation table, checked for known fields and ISO3 keys."""
    df = pd.DataFrame(rows, columns=COLUMNS)
    unknown = set(df["field"]) - FIELDS.keys()
    if unknown:
        raise GeodeckError(f"unknown observation field(s): {', '.join(sorted(unknown))}")
    bad = df.loc[~df["iso3"].astype(str).str.fullmatch(r"[A-Z]{3}"), "iso3"]
    if len(bad):
        raise GeodeckError(f"observation keys are not ISO3 codes: {', '.join(map(str, bad.unique()[:5]))}")
    df["note"] = df["note"].fillna("")
    return df.sort_values(["iso3", "field", "source"], kind="stable").reset_index(drop=True)
