"""Validate step for country data: observations -> the countries master table and its report.

Reads `build/transform/observations.parquet`, OVERRIDES and the reviewed card names (card_names.py:
sources/reviewed/capitals_de.csv, peak_names.csv); writes to `build/validate/`:
`countries.parquet` and `countries.csv` (one row per card country, columns `choose.COLUMNS`) and
`countries_report.md` / `.json`. Every output is written atomically, and only after the whole table
passed the schema, so a failure leaves the previous outputs untouched. The heavy imports live in `step`,
so that declaring the step graph stays fast.
"""

from pipeline import atomic
from pipeline.paths import SOURCES_DIR

OVERRIDES = SOURCES_DIR / "overrides.csv"
OUTPUTS = ("countries.parquet", "countries.csv", "countries_report.md", "countries_report.json")


def step(io) -> None:
    """The validate-countries step: choose the card values, check them against the schema, write the outputs."""
    from pipeline.transform import countries as observed
    from pipeline.validate import card_names, overrides, report
    from pipeline.validate.choose import COLUMNS, VALUE_COLUMNS, choose
    from pipeline.validate.schema import check_master

    table, universe = observed.load(io.path("transform/observations.parquet"), io.path("transform/universe.parquet"))
    master, found = choose(table, universe, overrides.load(OVERRIDES, universe=universe), card_names.load(universe))
    check_master(master, COLUMNS, VALUE_COLUMNS, len(universe))
    paths = {name: io.path(f"validate/{name}") for name in OUTPUTS}
    atomic.write_parquet(paths["countries.parquet"], master)
    atomic.write_text(paths["countries.csv"], master.to_csv(index=False, lineterminator="\n"))
    atomic.write_text(paths["countries_report.json"], report.to_json(found))
    atomic.write_text(paths["countries_report.md"], report.to_markdown(found))
