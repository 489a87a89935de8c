"""Validate step for country data: observations -> the countries master table and its report.

Reads `build/transform/observations.parquet`, OVERRIDES and the reviewed card names (card_names.py:
sources/reviewed/capitals_de.csv, peak_names.csv); writes to `build/validate/`:
`countries.parquet` and `countries.csv` (one row per card country, columns `choose.COLUMNS`) and
`countries_report.md` / `.json`. Every output is written atomically, and only after the whole table
passed the schema, so a failure leaves the previous outputs untouched. The heavy imports live in `run`,
so that checking whether the step must run stays fast.
"""

from pathlib import Path

from pipeline import atomic
from pipeline.paths import SOURCES_DIR, build_dir

OVERRIDES = SOURCES_DIR / "overrides.csv"


def folder() -> Path:
    return build_dir() / "validate"


def outputs() -> dict[str, Path]:
    return {
        name: folder() / name
        for name in ("countries.parquet", "countries.csv", "countries_report.md", "countries_report.json")
    }


def reviewed_inputs() -> list[Path]:
    """The reviewed tables and the field table this step reads besides OVERRIDES (for the step's input hashes)."""
    from pipeline.fields import TABLE
    from pipeline.validate import card_names

    return [card_names.CAPITALS_DE, card_names.PEAK_NAMES, TABLE]


def run() -> dict:
    """Choose the card values, check them against the schema, write the outputs; returns the report."""
    from pipeline.transform import countries as observed
    from pipeline.validate import card_names, overrides, report
    from pipeline.validate.choose import VALUE_COLUMNS, choose
    from pipeline.validate.schema import master_schema

    table, universe = observed.load()
    master, found = choose(table, universe, overrides.load(OVERRIDES, universe=universe), card_names.load(universe))
    master_schema(VALUE_COLUMNS, len(universe)).validate(master)
    paths = outputs()
    atomic.write_parquet(paths["countries.parquet"], master)
    atomic.write_text(paths["countries.csv"], master.to_csv(index=False, lineterminator="\n"))
    atomic.write_text(paths["countries_report.json"], report.to_json(found))
    atomic.write_text(paths["countries_report.md"], report.to_markdown(found))
    return found
