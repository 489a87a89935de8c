"""The validation report: the same content as JSON (for tools) and Markdown (for reviewers)."""

import json

from pipeline.fields import fields, max_vintage_gap_years
from pipeline.validate.choose import VALUE_COLUMNS


def to_json(report: dict) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def table(header: list[str], rows: list[list]) -> list[str]:
    if not rows:
        return ["(none)", ""]

    def cells(r):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |"

    return [cells(header), "|" + "---|" * len(header), *map(cells, rows), ""]


def to_markdown(report: dict) -> str:
    n = report["countries"]
    lines = [
        "# Country data: validation report",
        "",
        f"{n} card countries (193 UN members, Vatican, Palestine, Kosovo, Taiwan, Antarctica). "
        "Master table: `build/validate/countries.parquet` (and `.csv`).",
        "",
        "## Coverage",
        "",
    ]
    lines += table(
        ["field", "countries with a value", "empty"],
        [[f, report["coverage"][f], n - report["coverage"][f]] for f in VALUE_COLUMNS],
    )
    lines += [
        "## Core national territory: values the card rule changed",
        "",
        f"Countries changed: {', '.join(report['core_territory_countries']) or 'none'}.",
        "",
    ]
    lines += table(
        ["country", "field", "source", "before", "after", "how"],
        [[e["iso3"], e["field"], e["source"], e["before"], e["after"], e["how"]] for e in report["core_territory"]],
    )
    lines += ["## Overrides applied (sources/overrides.csv)", ""]
    lines += table(
        ["country", "field", "value", "replaced", "reason", "citation"],
        [
            [
                e["iso3"],
                e["field"],
                e["value"],
                f"{e['replaced_source']}={e['replaced_value']}".strip("="),
                e["reason"],
                e["citation"],
            ]
            for e in report["overrides"]
        ],
    )
    referees = ", ".join(f"{f.name}: {f.referee.source}" for f in fields().values() if f.referee)
    lines += [
        f"## Referee decisions ({referees})",
        "",
        "Where the card sources disagree beyond the tolerance, or only one gives a value: the first value another "
        "source supports within the tolerance of the referee (widened by the field's drift per year between "
        "their years), else the one closest to the referee; a value no two sources support is refused "
        "(or needs a reviewed override).",
        "",
    ]
    lines += table(
        ["country", "field", "values per source (year)", "referee (year)", "case", "chosen", "why"],
        [
            [
                e["iso3"],
                e["field"],
                "; ".join(f"{s}={v}" for s, v in e["values"].items()),
                e["referee"] or "(none)",
                e["case"],
                e["chosen"] or "refused",
                e["why"],
            ]
            for e in report.get("referee", [])
        ],
    )
    preferred = ", ".join(f"{f.name} {f.period.preferred}" for f in fields().values() if f.period)
    lines += [
        f"## Climate normals not of the preferred period ({preferred})",
        "",
        "Card values of another stated period (no normal of the preferred one exists) or of no stated period "
        "(no normal with one exists): each flagged on the card's provenance; a reviewed normal of the preferred "
        "period (sources/reviewed/capital_temperatures.csv) replaces it.",
        "",
    ]
    lines += table(
        ["country", "field", "value", "source", "vintage", "note"],
        [[e["iso3"], e["field"], e["value"], e["source"], e["vintage"], e["note"]] for e in report.get("periods", [])],
    )
    lines += ["## Conflicts between sources", ""]
    lines += table(
        ["country", "field", "values per source", "tolerance", "chosen", "why"],
        [
            [
                e["iso3"],
                e["field"],
                "; ".join(f"{s}={v}" for s, v in e["values"].items()),
                e["tolerance"],
                f"{e['chosen']} ({e['chosen_source']})",
                e["why"],
            ]
            for e in report["conflicts"]
        ],
    )
    lines += [
        f"## Stale values ({', '.join(f.name for f in fields().values() if f.recency)}: more than "
        f"{max_vintage_gap_years()} years older "
        "than the freshest source; not used)",
        "",
    ]
    lines += table(
        ["country", "field", "source", "value", "vintage", "freshest year"],
        [
            [e["iso3"], e["field"], e["source"], e["value"], e["vintage"], e["freshest"]]
            for e in report.get("stale", [])
        ],
    )
    lines += [
        f"## Old values (more than {max_vintage_gap_years()} years older than the field's newest card value)",
        "",
    ]
    lines += table(
        ["country", "field", "year", "newest year"],
        [[e["iso3"], e["field"], e["year"], e["newest"]] for e in report.get("old", [])],
    )
    lines += [
        "## Printed names changed (capitals spelt with the diacritics another source gives them; peak names: "
        "sources/reviewed/peak_names.csv and 7summits spellings)",
        "",
    ]
    lines += table(
        ["country", "field", "before", "after", "source", "why"],
        [[e["iso3"], e["field"], e["before"], e["after"], e["source"], e["why"]] for e in report.get("renamed", [])],
    )
    lines += ["## Values refused by the schema", ""]
    lines += table(
        ["country", "field", "source", "value", "reason", "fell back to"],
        [
            [e["iso3"], e["field"], e["source"], e["value"], e["reason"], e["fallback"] or "(empty)"]
            for e in report["refused"]
        ],
    )
    lines += ["## Land neighbours that are not card countries (dropped)", ""]
    lines += table(
        ["country", "source", "dropped"],
        [[e["iso3"], e["source"], ", ".join(e["dropped"])] for e in report["neighbours_outside_universe"]],
    )
    lines += ["## Empty values", ""]
    lines += table(["country", "field", "reason"], [[e["iso3"], e["field"], e["reason"]] for e in report["empty"]])
    lines += [
        "## Housekeeping",
        "",
        "Observations outside the card universe (ignored), by source: "
        + (", ".join(f"{s} {k}" for s, k in report["outside_universe"].items()) or "none")
        + ".",
        "",
    ]
    lines += [
        "Sources not declared in the precedence (ranked last): "
        + (", ".join(f"{e['field']}/{e['source']}" for e in report["undeclared_sources"]) or "none")
        + ".",
        "",
    ]
    lines += [
        "Duplicate observations (first kept): "
        + (", ".join(f"{e['iso3']} {e['field']} {e['source']}" for e in report["duplicates"]) or "none")
        + ".",
        "",
    ]
    return "\n".join(lines)
