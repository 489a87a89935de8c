"""The harmonized observation table: the one shape in which every country source leaves `transform`.

One row per (country, field, source): `iso3` (ISO 3166-1 alpha-3, Kosovo `XKX`), `field` (one of
FIELDS), `value` (in the field's unit), `source` (the name of its `sources/*.toml`), `vintage` (the
year or edition the value describes) and `note` (what a reviewer should know, e.g. "metropolitan France").
`validate` picks one value per country and field from these rows.
"""

import pandas as pd

from pipeline.errors import GeodeckError
from pipeline.fields import fields

COLUMNS = ["iso3", "field", "value", "source", "vintage", "note"]

# field -> (unit, Python type of `value`): every field of pipeline/fields.toml that is not derived from others
FIELDS = {f.name: (f.unit, f.dtype) for f in fields().values() if not f.derived}

CONTINENTS = list(fields()["continents"].choices)


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
