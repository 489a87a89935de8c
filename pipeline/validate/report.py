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


def section(title: str, header: list[str], rows: list[list], intro: str = "") -> list[str]:
    """A report section: its heading, an optional paragraph, then its table."""
    return [f"## {title}", "", *([intro, ""] if intro else []), *table(header, rows)]


def picked(entries: list[dict], *keys: str) -> list[list]:
    """The table rows of `entries`: each entry's values of `keys`, in that order."""
    return [[e[k] for k in keys] for e in entries]


def per_source(values: dict) -> str:
    return "; ".join(f"{s}={v}" for s, v in values.items())


def to_markdown(report: dict) -> str:
    """The report for reviewers: coverage and how values were chosen, what is flagged, what was dropped."""
    lines = [
        "# Country data: validation report",
        "",
        f"{report['countries']} card countries (193 UN members, Vatican, Palestine, Kosovo, Taiwan, Antarctica). "
        "Master table: `build/validate/countries.parquet` (and `.csv`).",
        "",
    ]
    lines += _choices(report) + _flags(report) + _dropped(report) + _housekeeping(report)
    return "\n".join(lines)


def _choices(report: dict) -> list[str]:
    """Coverage, the core territory rule's changes, the overrides and the referee's decisions."""
    n = report["countries"]
    referees = ", ".join(f"{f.name}: {f.referee.source}" for f in fields().values() if f.referee)
    lines: list[str] = []
    lines += section(
        "Coverage",
        ["field", "countries with a value", "empty"],
        [[f, report["coverage"][f], n - report["coverage"][f]] for f in VALUE_COLUMNS],
    )
    lines += section(
        "Core national territory: values the card rule changed",
        ["country", "field", "source", "before", "after", "how"],
        picked(report["core_territory"], "iso3", "field", "source", "before", "after", "how"),
        f"Countries changed: {', '.join(report['core_territory_countries']) or 'none'}.",
    )
    lines += section(
        "Overrides applied (sources/overrides.csv)",
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
    lines += section(
        f"Referee decisions ({referees})",
        ["country", "field", "values per source (year)", "referee (year)", "case", "chosen", "why"],
        [
            [
                e["iso3"],
                e["field"],
                per_source(e["values"]),
                e["referee"] or "(none)",
                e["case"],
                e["chosen"] or "refused",
                e["why"],
            ]
            for e in report.get("referee", [])
        ],
        "Where the card sources disagree beyond the tolerance, or only one gives a value: the first value another "
        "source supports within the tolerance of the referee (widened by the field's drift per year between "
        "their years), else the one closest to the referee; a value no two sources support is refused "
        "(or needs a reviewed override).",
    )
    return lines


def _flags(report: dict) -> list[str]:
    """The values flagged: another period, a source class a card may not print, conflicts, stale and old ones."""
    years = max_vintage_gap_years()
    preferred = ", ".join(f"{f.name} {f.period.preferred}" for f in fields().values() if f.period)
    recent = ", ".join(f.name for f in fields().values() if f.recency)
    lines: list[str] = []
    lines += section(
        f"Climate normals not of the preferred period ({preferred})",
        ["country", "field", "value", "source", "vintage", "note"],
        picked(report.get("periods", []), "iso3", "field", "value", "source", "vintage", "note"),
        "Card values of another stated period (no normal of the preferred one exists) or of no stated period "
        "(no normal with one exists): each flagged on the card's provenance; a reviewed normal of the preferred "
        "period (sources/reviewed/capital_temperatures.csv) replaces it.",
    )
    lines += section(
        "Card values of a source class a card may not print",
        ["country", "field", "value", "source", "class", "note"],
        picked(report.get("source_classes", []), "iso3", "field", "value", "source", "class", "note"),
        "Travel and blog pages, regional statements, values without a source page (`[source_classes]` in "
        "pipeline/fields.toml): taken only where no other candidate exists in the mirror or a package, each "
        "flagged on the card's provenance; a cited value of an allowed class replaces it.",
    )
    lines += section(
        "Conflicts between sources",
        ["country", "field", "values per source", "tolerance", "chosen", "why"],
        [
            [
                e["iso3"],
                e["field"],
                per_source(e["values"]),
                e["tolerance"],
                f"{e['chosen']} ({e['chosen_source']})",
                e["why"],
            ]
            for e in report["conflicts"]
        ],
    )
    lines += section(
        f"Stale values ({recent}: more than {years} years older than the freshest source; not used)",
        ["country", "field", "source", "value", "vintage", "freshest year"],
        picked(report.get("stale", []), "iso3", "field", "source", "value", "vintage", "freshest"),
    )
    lines += section(
        f"Old values (more than {years} years older than the field's newest card value)",
        ["country", "field", "year", "newest year"],
        picked(report.get("old", []), "iso3", "field", "year", "newest"),
    )
    return lines


def _dropped(report: dict) -> list[str]:
    """Names changed, values refused, neighbours outside the card universe, empty values."""
    lines: list[str] = []
    lines += section(
        "Printed names changed (capitals spelt with the diacritics another source gives them; peak names: "
        "sources/reviewed/peak_names.csv and 7summits spellings)",
        ["country", "field", "before", "after", "source", "why"],
        picked(report.get("renamed", []), "iso3", "field", "before", "after", "source", "why"),
    )
    lines += section(
        "Values refused by the schema",
        ["country", "field", "source", "value", "reason", "fell back to"],
        [
            [e["iso3"], e["field"], e["source"], e["value"], e["reason"], e["fallback"] or "(empty)"]
            for e in report["refused"]
        ],
    )
    lines += section(
        "Land neighbours that are not card countries (dropped)",
        ["country", "source", "dropped"],
        [[e["iso3"], e["source"], ", ".join(e["dropped"])] for e in report["neighbours_outside_universe"]],
    )
    lines += section("Empty values", ["country", "field", "reason"], picked(report["empty"], "iso3", "field", "reason"))
    return lines


def _housekeeping(report: dict) -> list[str]:
    housekeeping = [
        "Observations outside the card universe (ignored), by source: "
        + (", ".join(f"{s} {k}" for s, k in report["outside_universe"].items()) or "none"),
        "Sources not declared in the precedence (ranked last): "
        + (", ".join(f"{e['field']}/{e['source']}" for e in report["undeclared_sources"]) or "none"),
        "Duplicate observations (first kept): "
        + (", ".join(f"{e['iso3']} {e['field']} {e['source']}" for e in report["duplicates"]) or "none"),
    ]
    lines = ["## Housekeeping", ""]
    for paragraph in housekeeping:
        lines += [paragraph + ".", ""]
    return lines
