"""Reviewed capital temperatures: sources/reviewed/capital_temperatures.csv, one row per capital with the
annual mean, its period, the station or city measured, a citation URL, the class of that source
(`[source_classes]` of pipeline/fields.toml), a confidence and the second source it was checked against.
Part of the project (no download), so a build needs no mirror for it.

Each row becomes a `capital_temp_c` observation of source "reviewed": vintage = the period of the normals
("period not stated" when the cited page gives none), note = source class, station, confidence and URL.
"""

from io import StringIO
from pathlib import Path

import pandas as pd

from pipeline import readers, source_classes
from pipeline.errors import GeodeckError
from pipeline.paths import SOURCES_DIR
from pipeline.transform import observations

FILE = SOURCES_DIR / "reviewed" / "capital_temperatures.csv"
SOURCE = "reviewed"
COLUMNS = [
    "iso3",
    "capital",
    "station",
    "annual_mean_c",
    "period",
    "citation_url",
    "source_class",
    "confidence",
    "check",
]
CONFIDENCE = {"high", "medium", "regional", "low"}
NO_PERIOD = "period not stated"


def parse(path: Path = FILE) -> pd.DataFrame:
    """The table with `annual_mean_c` as float; a malformed row is a user error naming the file and the fix."""
    df = pd.read_csv(StringIO(readers.read_input("csv", path)), dtype=str, keep_default_na=False)
    if list(df.columns) != COLUMNS:
        raise GeodeckError(f"{path}: the header must be {','.join(COLUMNS)}")
    temps = pd.to_numeric(df["annual_mean_c"], errors="coerce")
    bad = df["iso3"][
        ~df["iso3"].str.fullmatch(r"[A-Z]{3}")
        | ~temps.between(-70, 45)
        | ~df["confidence"].isin(CONFIDENCE)
        | ~df["citation_url"].str.startswith("http")
        | df["iso3"].duplicated()
        | ~df["source_class"].isin(source_classes.declared()["classes"])
    ]
    if len(bad):
        classes = ", ".join(source_classes.declared()["classes"])
        raise GeodeckError(
            f"{path}: rows {', '.join(bad)} need an ISO3 code (once), a °C value, a citation URL, a source class "
            f"({classes}) and a confidence ({', '.join(sorted(CONFIDENCE))}); fix them"
        )
    return df.assign(annual_mean_c=temps.astype(float))


def to_observations(parsed: pd.DataFrame) -> pd.DataFrame:
    """One `capital_temp_c` observation per row."""
    note = (
        source_classes.note("")
        + parsed["source_class"]
        + "; station: "
        + parsed["station"]
        + " (capital: "
        + parsed["capital"]
        + "); confidence "
    )
    rows = parsed.assign(
        field="capital_temp_c",
        value=parsed["annual_mean_c"],
        source=SOURCE,
        vintage=parsed["period"].replace("", NO_PERIOD),
        note=note + parsed["confidence"] + "; " + parsed["citation_url"],
    )
    return observations.frame(rows[observations.COLUMNS].to_dict("records"))
