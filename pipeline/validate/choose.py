"""Choose one value per card country and field from the observations, and record why.

For each country and field: a reviewed override wins; otherwise the sources are tried in the declared
precedence and the first value the schema accepts and that is not stale (precedence.RECENCY_FIELDS) is
taken (refused and stale values are reported). A paired field (FOLLOWS) comes only from its key field's
source (a peak's name from where its height came from; capital coordinates from where the capital came
from), else it is empty and reported. Every chosen value is compared with the other sources within the
field's tolerance, and disagreements become conflicts.
"""

import re
from collections import defaultdict
from dataclasses import dataclass

import pandas as pd

from pipeline.transform.observations import FIELDS
from pipeline.validate import card_names, core_territory
from pipeline.validate import overrides as overriding
from pipeline.validate.precedence import MAX_VINTAGE_GAP_YEARS, PRECEDENCE, RECENCY_FIELDS, rank
from pipeline.validate.schema import refusal
from pipeline.validate.tolerances import TOLERANCES

VALUE_COLUMNS = [
    "iso2",
    "name_en",
    "name_de",
    "un_member",
    "continents",
    "capital",
    "capital_de",
    "capital_lat",
    "capital_lon",
    "label_lat",
    "label_lon",
    "area_km2",
    "highest_point_name",
    "highest_point_name_de",
    "highest_point_m",
    "population",
    "life_expectancy",
    "gdp_pcap_ppp",
    "capital_temp_c",
    "land_neighbours",
    "land_neighbour_count",
    "flag",
]
COLUMNS = ["iso3"] + VALUE_COLUMNS + [f"{c}__{s}" for c in VALUE_COLUMNS for s in ("source", "vintage", "conflict")]
FOLLOWS = {
    "highest_point_name": "highest_point_m",
    "capital_lat": "capital",
    "capital_lon": "capital",
    "label_lon": "label_lat",
}
# columns derived from chosen values (card_names.py), not chosen among sources
DERIVED = ("land_neighbour_count", "capital_de", "highest_point_name_de")
CHOSEN = [f for f in VALUE_COLUMNS if f not in DERIVED and f not in FOLLOWS] + list(FOLLOWS)
NO_INHABITANTS = "not permanently inhabited: the card shows dashes (rulebook note on Antarctica)"
NO_CAPITAL = "no capital (Antarctica)"
EMPTY_BY_DESIGN = {("ATA", f): NO_INHABITANTS for f in ("population", "life_expectancy", "gdp_pcap_ppp")} | {
    ("ATA", f): NO_CAPITAL for f in ("capital", "capital_lat", "capital_lon")
}


@dataclass(frozen=True)
class Candidate:
    source: str
    vintage: str
    value: object
    note: str = ""


@dataclass(frozen=True)
class Choice:
    value: object = None
    source: str = ""
    vintage: str = ""
    conflict: str = ""


def fmt(value) -> str:
    return format(value, ".10g") if isinstance(value, float) else str(value)


class Chooser:
    """Holds the candidates and collects the report while choosing."""

    def __init__(self, table: pd.DataFrame, universe: list[str], overrides: dict):
        self.universe, self.overrides = universe, overrides
        inside = table["iso3"].isin(universe)
        self.report = {
            "countries": len(universe),
            "conflicts": [],
            "overrides": [],
            "core_territory": [],
            "neighbours_outside_universe": [],
            "refused": [],
            "stale": [],
            "empty": [],
            "duplicates": [],
            "renamed": [],
            "undeclared_sources": [],
            "outside_universe": table[~inside].groupby("source").size().sort_index().astype(int).to_dict(),
        }
        table, self.report["core_territory"] = core_territory.apply_core_area(table[inside])
        self.candidates: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        seen = set()
        for row in table.itertuples(index=False):
            key = (row.iso3, row.field, row.source)
            if key in seen:
                self.report["duplicates"].append(
                    {
                        "iso3": row.iso3,
                        "field": row.field,
                        "source": row.source,
                        "value": fmt(row.value),
                        "kept": "first",
                    }
                )
                continue
            seen.add(key)
            value = (
                self.card_neighbours(row.iso3, row.source, row.value) if row.field == "land_neighbours" else row.value
            )
            self.candidates[row.iso3, row.field].append(Candidate(row.source, str(row.vintage), value, row.note))
        declared = {(f, s) for f, order in PRECEDENCE.items() for s in order}
        used = {(f, c.source) for (_, f), cs in self.candidates.items() for c in cs}
        self.report["undeclared_sources"] = [{"field": f, "source": s} for f, s in sorted(used - declared)]

    def card_neighbours(self, iso3: str, source: str, value: str) -> str:
        """The land neighbours that are card countries; territories (Gibraltar, Hong Kong...) are dropped."""
        codes = [c for c in str(value).split(";") if c]
        dropped = sorted({c for c in codes if c not in self.universe or c == iso3})
        if dropped:
            self.report["neighbours_outside_universe"].append({"iso3": iso3, "source": source, "dropped": dropped})
        return ";".join(sorted(set(codes) - set(dropped)))

    def choose(self, iso3: str, field: str, lead_source: str = "") -> Choice:
        """The value of one field; `lead_source` is the source of its key field when FOLLOWS pairs them."""
        candidates = sorted(self.candidates.get((iso3, field), []), key=lambda c: rank(field, c.source))
        override = self.overrides.get((iso3, field))
        if field in FOLLOWS and override is None:
            candidates = [c for c in candidates if c.source == lead_source]
        if (iso3, field) in EMPTY_BY_DESIGN:
            self.report["empty"].append({"iso3": iso3, "field": field, "reason": EMPTY_BY_DESIGN[iso3, field]})
            return Choice()
        valid = [c for c in candidates if refusal(field, c.value, c.note) is None]
        stale = self.stale(iso3, field, valid)
        valid = [c for c in valid if c not in stale]
        if override is not None:
            chosen = Candidate(overriding.SOURCE, override.citation, override.value)
            self.note_override(override, valid[0] if valid else None)
            why = f"override: {override.reason}"
        else:
            for c in candidates:
                if c not in valid and c not in stale:
                    self.report["refused"].append(
                        {
                            "iso3": iso3,
                            "field": field,
                            "source": c.source,
                            "value": fmt(c.value),
                            "reason": refusal(field, c.value, c.note),
                            "fallback": valid[0].source if valid else "",
                        }
                    )
            if not valid:
                if candidates:
                    reason = "every source's value was refused"
                elif field in FOLLOWS:
                    reason = (
                        f"no value from {lead_source}, the source of {FOLLOWS[field]}"
                        if lead_source
                        else f"{FOLLOWS[field]} is empty"
                    )
                else:
                    reason = "no source has a value"
                self.report["empty"].append({"iso3": iso3, "field": field, "reason": reason})
                return Choice()
            chosen = valid[0]
            why = (
                f"same source as {FOLLOWS[field]}"
                if field in FOLLOWS
                else "precedence " + " > ".join(PRECEDENCE.get(field, ()))
                if len(candidates) > 1
                else "only source"
            )
            if chosen is not candidates[0]:
                why = f"fallback: {candidates[0].source} {'stale' if candidates[0] in stale else 'refused'}"
        return Choice(chosen.value, chosen.source, chosen.vintage, self.conflict(iso3, field, chosen, valid, why))

    def stale(self, iso3: str, field: str, valid: list[Candidate]) -> list[Candidate]:
        """The valid candidates more than MAX_VINTAGE_GAP_YEARS older than the freshest (reported)."""
        if field not in RECENCY_FIELDS:
            return []
        years = {c: vintage_year(c.vintage) for c in valid}
        known = [y for y in years.values() if y is not None]
        if not known:
            return []
        freshest = max(known)
        old = [c for c, y in years.items() if y is not None and freshest - y > MAX_VINTAGE_GAP_YEARS]
        for c in old:
            self.report["stale"].append(
                {
                    "iso3": iso3,
                    "field": field,
                    "source": c.source,
                    "value": fmt(c.value),
                    "vintage": c.vintage,
                    "freshest": freshest,
                }
            )
        return old

    def note_override(self, override, replaced: Candidate | None) -> None:
        entry = {
            "iso3": override.iso3,
            "field": override.field,
            "value": fmt(override.value),
            "replaced_source": replaced.source if replaced else "",
            "replaced_value": fmt(replaced.value) if replaced else "",
            "reason": override.reason,
            "citation": override.citation,
        }
        self.report["overrides"].append(entry)
        if override.core_territory and (replaced is None or replaced.value != override.value):
            self.report["core_territory"].append(
                {
                    "iso3": override.iso3,
                    "field": override.field,
                    "source": replaced.source if replaced else "",
                    "before": replaced.value if replaced else None,
                    "after": override.value,
                    "how": f"override: {override.reason}",
                }
            )

    def conflict(self, iso3: str, field: str, chosen: Candidate, valid: list[Candidate], why: str) -> str:
        tolerance = TOLERANCES.get(field)
        if tolerance is None or not any(not tolerance.agree(chosen.value, c.value) for c in valid):
            return ""
        values = {c.source: fmt(c.value) for c in valid} | {chosen.source: fmt(chosen.value)}
        self.report["conflicts"].append(
            {
                "iso3": iso3,
                "field": field,
                "values": values,
                "tolerance": str(tolerance),
                "chosen": fmt(chosen.value),
                "chosen_source": chosen.source,
                "why": why,
            }
        )
        return "; ".join(f"{s}={v}" for s, v in values.items()) + f" (tolerance {tolerance})"


def vintage_year(vintage: str) -> int | None:
    """The latest year a vintage names ('2025 est.' -> 2025, '1981-2010' -> 2010), None without one."""
    years = [int(y) for y in re.findall(r"\b(1[89]\d\d|20\d\d)\b", str(vintage))]
    return max(years) if years else None


def choose(
    table: pd.DataFrame, universe: list[str], overrides: dict, reviewed: card_names.Reviewed | None = None
) -> tuple[pd.DataFrame, dict]:
    """The master table (one row per universe country, COLUMNS) and the validation report. `reviewed`:
    the reviewed card names (German capitals, peak names); none when not given."""
    reviewed = reviewed or card_names.Reviewed()
    chooser = Chooser(table, universe, overrides)
    rows = []
    for iso3 in universe:
        chosen: dict[str, Choice] = {}
        for field in CHOSEN:
            chosen[field] = chooser.choose(iso3, field, chosen[FOLLOWS[field]].source if field in FOLLOWS else "")
        neighbours = chosen["land_neighbours"]
        count = None if neighbours.value is None else len([c for c in str(neighbours.value).split(";") if c])
        chosen["land_neighbour_count"] = Choice(count, neighbours.source, neighbours.vintage, neighbours.conflict)
        derived = card_names.derive(
            iso3,
            {f: c.value for f, c in chosen.items()},
            {f: (c.source, c.vintage) for f, c in chosen.items()},
            chooser.candidates,
            reviewed,
            chooser.report["renamed"],
        )
        chosen |= {f: Choice(*v) for f, v in derived.items()}
        row: dict[str, object] = {"iso3": iso3}
        for field in VALUE_COLUMNS:
            c = chosen[field]
            row |= {
                field: c.value,
                f"{field}__source": c.source,
                f"{field}__vintage": c.vintage,
                f"{field}__conflict": c.conflict,
            }
        rows.append(row)
    master = typed(pd.DataFrame(rows, columns=COLUMNS))
    report = chooser.report
    report["coverage"] = {f: int(master[f].notna().sum()) for f in VALUE_COLUMNS}
    report["core_territory"] = [
        e | {"before": fmt(e["before"]) if e["before"] is not None else "", "after": fmt(e["after"])}
        for e in report["core_territory"]
    ]
    report["core_territory_countries"] = sorted({e["iso3"] for e in report["core_territory"]})
    return master, report


def typed(master: pd.DataFrame) -> pd.DataFrame:
    kinds = {}
    for field in VALUE_COLUMNS:
        kind = int if field == "land_neighbour_count" else str if field in DERIVED else FIELDS[field][1]
        kinds[field] = {float: "float64", bool: "boolean", int: "Int64", str: "string"}[kind]
    provenance = {c: "string" for c in COLUMNS if "__" in c}
    return master.astype(kinds | provenance | {"iso3": "string"})
