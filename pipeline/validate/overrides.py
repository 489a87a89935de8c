"""Reviewed exceptions: `sources/overrides.csv` (iso3, field, value, reason, citation, source_class), one row
each; source_class is the kind of source the citation is (`[source_classes]` of pipeline/fields.toml).

An override replaces whatever the sources say for one country and field; the report lists each one
with the value it replaced. A reason starting with CORE_TERRITORY marks an override that applies the
card rule of the core national territory (see core_territory.py), so it is also listed as a rule change.
Paired fields (fields.toml: override_with) are overridden together, so a card never shows one source's
peak with another's height.
"""

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pipeline import readers, source_classes
from pipeline.errors import GeodeckError
from pipeline.fields import fields
from pipeline.transform.observations import FIELDS
from pipeline.validate.schema import refusal

COLUMNS = ["iso3", "field", "value", "reason", "citation", "source_class"]
CORE_TERRITORY = "core national territory"
SOURCE = "override"


@dataclass(frozen=True)
class Override:
    iso3: str
    field: str
    value: object
    reason: str
    citation: str
    source_class: str

    @property
    def core_territory(self) -> bool:
        return self.reason.lower().startswith(CORE_TERRITORY)


def load(path: Path, universe: list[str] | None = None) -> dict[tuple[str, str], Override]:
    """The overrides by (iso3, field); any malformed row is a user error naming the row and the fix."""
    if not path.is_file():
        return {}
    rows = list(csv.DictReader(io.StringIO(readers.read_input("csv", path), newline="")))
    if rows and list(rows[0].keys()) != COLUMNS:
        raise GeodeckError(f"{path}: the header must be {','.join(COLUMNS)}")
    found: dict[tuple[str, str], Override] = {}
    for line, row in enumerate(rows, start=2):
        where = f"{path}:{line}"
        if row["field"] not in FIELDS:
            raise GeodeckError(f"{where}: unknown field {row['field']!r}; use one of {', '.join(FIELDS)}")
        if universe is not None and row["iso3"] not in universe:
            raise GeodeckError(f"{where}: {row['iso3']!r} is not a card country (ISO3 of the universe)")
        if not row["reason"].strip() or not row["citation"].strip():
            raise GeodeckError(f"{where}: every override needs a reason and a citation")
        if row["source_class"] not in source_classes.declared()["classes"]:
            classes = ", ".join(source_classes.declared()["classes"])
            raise GeodeckError(f"{where}: source_class {row['source_class']!r} is not one of {classes}")
        if (row["iso3"], row["field"]) in found:
            raise GeodeckError(f"{where}: a second override of {row['iso3']} {row['field']}; keep one")
        value = typed(row["field"], row["value"], where)
        found[row["iso3"], row["field"]] = Override(
            row["iso3"], row["field"], value, row["reason"], row["citation"], row["source_class"]
        )
    for iso3, field in found:
        missing = [f for f in fields()[field].override_with if (iso3, f) not in found]
        if missing:
            raise GeodeckError(f"{path}: the override of {iso3} {field} also needs {', '.join(missing)}")
    return found


def typed(field: str, text: str, where: str):
    kind = FIELDS[field][1]
    try:
        value = float(text) if kind is float else {"true": True, "false": False}[text.lower()] if kind is bool else text
    except (ValueError, KeyError):
        raise GeodeckError(f"{where}: {text!r} is not a valid {field} value") from None
    problem = refusal(field, value)
    if problem:
        raise GeodeckError(f"{where}: {field} {problem}; fix the value")
    return value
