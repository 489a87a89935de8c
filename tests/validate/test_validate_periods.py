"""Capital temperatures chosen by the period of their normals (fields.toml `period`, validate/periods.py)."""

from pipeline.transform.observations import frame
from pipeline.validate import periods
from pipeline.validate.choose import choose

UNIVERSE = ["DEU", "ECU", "PLW", "YEM"]
FIELD, CHELSA, WIKI = "capital_temp_c", "world-temperature-data", "wikipedia-city-temperatures"
UNSTATED = "period not stated (Wikipedia list, 2023-12)"


def note(source: str) -> str:
    """A reviewed row names its own source class (sources/reviewed/capital_temperatures.csv), as the reader does."""
    return f"source class: station normal; {source} note" if source.startswith("reviewed") else f"{source} note"


def temps(*rows):
    table = frame(
        [{"iso3": i, "field": FIELD, "value": v, "source": s, "vintage": p, "note": note(s)} for i, v, s, p in rows]
    )
    master, report = choose(table, UNIVERSE, {})
    return master.set_index("iso3"), report


def test_the_preferred_period_wins_whatever_the_precedence_and_flags_the_rest():
    master, report = temps(
        ("DEU", 10.3, WIKI, UNSTATED),
        ("DEU", 9.4, CHELSA, "1981-2010"),
        ("ECU", 11.6, CHELSA, "1981-2010"),
        ("ECU", 14.0, "reviewed", "1981-2010"),  # a station of the city before the grid cell, same period
        ("PLW", 27.6, "reviewed", "1961-1990"),
        ("PLW", 27.9, "reviewed-other", "1971-2000"),
        ("PLW", 28.0, WIKI, UNSTATED),
        ("YEM", 20.0, WIKI, UNSTATED),
    )
    got = {i: (master.loc[i, FIELD], master.loc[i, f"{FIELD}__source"]) for i in UNIVERSE}
    assert got == {
        "DEU": (9.4, CHELSA),
        "ECU": (14.0, "reviewed"),
        "PLW": (27.9, "reviewed-other"),
        "YEM": (20.0, WIKI),
    }
    vintage = master[f"{FIELD}__vintage"]
    assert vintage["DEU"] == vintage["ECU"] == "1981-2010"
    assert vintage["PLW"] == "1971-2000; flagged: not 1981-2010 (none for this capital)"  # the newer of two
    assert vintage["YEM"] == f"{UNSTATED}; flagged: no stated period (none for this capital)"
    assert [(e["iso3"], e["value"], e["note"]) for e in report["periods"]] == [
        ("PLW", "27.9", note("reviewed-other")),
        ("YEM", "20", f"{WIKI} note"),
    ]


def test_standing_reads_the_period_from_the_vintage():
    assert periods.standing("1981-2010", "1981-2010") == (0, 0)
    assert periods.standing("1991-2020", "1981-2010") == (1, -2020)
    assert periods.standing("1958-2009", "1981-2010") == (1, -2009)
    assert periods.standing(UNSTATED, "1981-2010") == periods.standing("period not stated", "1981-2010") == (2, 0)
