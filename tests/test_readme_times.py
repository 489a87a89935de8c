"""The README's times are measured ones (issue 47): each `≈` figure of its table of make targets lies within
50 % of the run recorded in docs/timings.json (benchmarks/readme_times.py measures and records it)."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOLERANCE = 0.5
ROW = re.compile(r"^\| `make (?P<target>[a-z-]+)` \|.*\| (?P<time>[^|]+) \|$")
STATED = re.compile(r"^≈ (?P<value>\d+(?:\.\d+)?) (?P<unit>min|s)\b")


def stated_times(readme: str) -> dict[str, float]:
    """The README table's stated seconds per target (`make play-check` → make_play_check); rows that state
    no `≈` figure (`instant`) are left out."""
    times = {}
    for line in readme.splitlines():
        if (row := ROW.match(line)) and (figure := STATED.match(row["time"].strip())):
            seconds = float(figure["value"]) * (60 if figure["unit"] == "min" else 1)
            times["make_" + row["target"].replace("-", "_")] = seconds
    return times


def off(stated: dict[str, float], measured: dict[str, dict]) -> list[str]:
    """One line per stated time that no measured run backs or that is more than TOLERANCE off it."""
    problems = []
    for name, seconds in stated.items():
        if name not in measured:
            problems.append(f"{name}: stated ≈ {seconds:g} s, never measured")
        elif abs(seconds / measured[name]["seconds"] - 1) > TOLERANCE:
            problems.append(f"{name}: stated ≈ {seconds:g} s, measured {measured[name]['seconds']:g} s")
    return problems


def test_every_stated_time_is_within_half_of_the_measured_run():
    stated = stated_times((ROOT / "README.md").read_text(encoding="utf-8"))
    measured = json.loads((ROOT / "docs" / "timings.json").read_text(encoding="utf-8"))["targets"]
    assert len(stated) >= 8, stated  # the table was found: install, deck, print, test, lint, play-check, …
    assert off(stated, measured) == [], (
        "README.md's table states times a measured run does not back: measure them "
        "(`make bench BENCH=readme`), record them (`python benchmarks/readme_times.py record`) and write "
        "the README's figures from docs/timings.json"
    )


@pytest.mark.parametrize(
    ("cell", "measured", "problems"),
    [
        ("≈ 4 min (3:54 at load 1)", 234.0, 0),
        ("≈ 2 min", 250.0, 1),  # the figure a README kept after the target slowed down
        ("≈ 45 s", 20.0, 1),
        ("≈ 1.5 min", 83.0, 0),
    ],
)
def test_a_stale_figure_fails(cell, measured, problems):
    readme = f"| target | does | time |\n|---|---|---|\n| `make kit` | one kit | {cell} |\n"
    assert len(off(stated_times(readme), {"make_kit": {"seconds": measured}})) == problems


def test_a_stated_time_never_measured_fails():
    readme = "| `make play-check` | reports | ≈ 9 min |\n| `make clean` | removes | instant |\n"
    assert off(stated_times(readme), {}) == ["make_play_check: stated ≈ 540 s, never measured"]
