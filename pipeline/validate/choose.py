"""Choose one value per card country and field from the observations, and record why.

Every field is declared in pipeline/fields.toml. For each country and field: a reviewed override wins;
otherwise the sources are tried in the declared precedence and the first value the schema accepts and that
is not stale (fields.toml: recency) is taken (refused and stale values are reported). A field with a
referee (population, life expectancy, GDP per capita) takes the first value another source supports near
the referee, else the one closest to the referee, else none (`Chooser.refereed`; every decision reported;
the referee's values are never card values). A climate normal (fields.toml: period) is chosen by its period
first (`periods.py`: the preferred period, then other stated ones, then none; flagged unless preferred). A
value of a source class a card may not print (pipeline/source_classes.py: travel pages...) is taken only where
no other candidate exists, flagged on its provenance and reported. A paired field (FOLLOWS) comes only from
its key field's source (a peak's name from where its height came from; capital coordinates from where the
capital came from), else it is empty and reported. Every chosen value is compared with the other sources within the
field's tolerance, and disagreements become conflicts.
"""

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from pipeline import source_classes
from pipeline.fields import fields, master_columns, max_vintage_gap_years
from pipeline.validate import card_names, core_territory, periods
from pipeline.validate import overrides as overriding
from pipeline.validate.schema import refusal

VALUE_COLUMNS = master_columns()
PROVENANCE = ("source", "vintage", "conflict", "citation")
COLUMNS = ["iso3"] + VALUE_COLUMNS + [f"{c}__{s}" for c in VALUE_COLUMNS for s in PROVENANCE]
FOLLOWS = {f.name: f.follows for f in fields().values() if f.follows}
# columns derived from chosen values (card_names.py), not chosen among sources
DERIVED = tuple(f.name for f in fields().values() if f.master and f.derived)
CHOSEN = [f for f in VALUE_COLUMNS if f not in DERIVED and f not in FOLLOWS] + list(FOLLOWS)
REFEREES = {f.name: f.referee for f in fields().values() if f.referee}
PERIODS = {f.name: f.period.preferred for f in fields().values() if f.period}
CLASSED = source_classes.fields()
NO_INHABITANTS = "not permanently inhabited: the card shows dashes (rulebook note on Antarctica)"
NO_CAPITAL = "no capital (Antarctica)"
EMPTY_BY_DESIGN = {("ATA", f): NO_INHABITANTS for f in ("population", "life_expectancy", "gdp_pcap_ppp")} | {
    ("ATA", f): NO_CAPITAL for f in ("capital", "capital_lat", "capital_lon")
}


@dataclass(frozen=True)
class Candidate:
    source: str
    vintage: str
    value: Any
    note: str = ""


@dataclass(frozen=True)
class Choice:
    value: Any = None
    source: str = ""
    vintage: str = ""
    conflict: str = ""
    citation: str = ""  # who or what, where, when: a reviewed value's or an override's own citation


def rank(field: str, source: str) -> tuple[int, str]:
    """Sort key of a source for a field: declared position, then undeclared sources alphabetically."""
    order = fields()[field].precedence
    return (order.index(source), "") if source in order else (len(order), source)


def fmt(value) -> str:
    return format(value, ".10g") if isinstance(value, float) else str(value)


class Chooser:
    """Holds the candidates and collects the report while choosing."""

    def __init__(self, table: pd.DataFrame, universe: list[str], overrides: dict):
        self.universe, self.overrides = set(universe), overrides
        inside = table["iso3"].isin(universe)
        self.report = {
            "countries": len(universe),
            "conflicts": [],
            "overrides": [],
            "core_territory": [],
            "neighbours_outside_universe": [],
            "refused": [],
            "stale": [],
            "referee": [],
            "periods": [],
            "source_classes": [],
            "old": [],
            "empty": [],
            "duplicates": [],
            "renamed": [],
            "undeclared_sources": [],
            "outside_universe": table[~inside].groupby("source").size().sort_index().astype(int).to_dict(),
        }
        table, self.report["core_territory"] = core_territory.apply_core_area(table[inside])
        self.candidates: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self.referees: dict[tuple[str, str], Candidate] = {}
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
            if row.field in REFEREES and row.source == REFEREES[row.field].source:
                self.referees[row.iso3, row.field] = Candidate(row.source, str(row.vintage), row.value, row.note)
                continue
            value = (
                self.card_neighbours(row.iso3, row.source, row.value) if row.field == "land_neighbours" else row.value
            )
            self.candidates[row.iso3, row.field].append(Candidate(row.source, str(row.vintage), value, row.note))
        declared = {(f.name, s) for f in fields().values() for s in fields()[f.follows or f.name].precedence}
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
        override = self.overrides.get((iso3, field))
        candidates = self.ordered(iso3, field, lead_source if override is None else None)
        if (iso3, field) in EMPTY_BY_DESIGN:
            self.report["empty"].append({"iso3": iso3, "field": field, "reason": EMPTY_BY_DESIGN[iso3, field]})
            return Choice()
        valid = [c for c in candidates if refusal(field, c.value, c.note) is None]
        stale = self.stale(iso3, field, valid)
        valid = [c for c in valid if c not in stale]
        if override is not None:
            chosen = Candidate(
                overriding.SOURCE, override.citation, override.value, source_classes.note(override.source_class)
            )
            self.note_override(override, valid[0] if valid else None)
            why = f"override: {override.reason}"
        else:
            self.note_refused(iso3, field, [c for c in candidates if c not in valid and c not in stale], valid)
            if not valid:
                self.report["empty"].append(
                    {"iso3": iso3, "field": field, "reason": _none(field, candidates, lead_source)}
                )
                return Choice()
            picked, decision = self.refereed(iso3, field, valid) if field in REFEREES else (valid[0], "")
            if picked is None:
                self.report["empty"].append({"iso3": iso3, "field": field, "reason": decision})
                return Choice()
            chosen = picked
            why = decision or _why(field, len(candidates))
            if chosen is not candidates[0] and not decision:
                why = f"fallback: {candidates[0].source} {'stale' if candidates[0] in stale else 'refused'}"
        citation = override.citation if override is not None else cited(chosen)
        vintage = self.flagged(iso3, field, chosen, period=override is None)
        return Choice(chosen.value, chosen.source, vintage, self.conflict(iso3, field, chosen, valid, why), citation)

    def ordered(self, iso3: str, field: str, lead_source: str | None) -> list[Candidate]:
        """The field's candidates in the order they are tried: by precedence, the preferred period first, the
        source classes a card may print first; only the lead field's source's (`lead_source`, where FOLLOWS
        pairs the field and no override sets it)."""
        candidates = sorted(self.candidates.get((iso3, field), []), key=lambda c: rank(field, c.source))
        if field in PERIODS:
            candidates = periods.ordered(
                candidates, PERIODS[field], lambda c: c.vintage, lambda c: rank(field, c.source)
            )
        if field in CLASSED:
            candidates = sorted(
                candidates, key=lambda c: not source_classes.allowed(source_classes.of(c.source, c.note))
            )
        if field in FOLLOWS and lead_source is not None:
            candidates = [c for c in candidates if c.source == lead_source]
        return candidates

    def note_refused(self, iso3: str, field: str, refused: list[Candidate], valid: list[Candidate]) -> None:
        """Report each candidate the schema refused, and what the field fell back to."""
        for c in refused:
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

    def flagged(self, iso3: str, field: str, chosen: Candidate, period: bool) -> str:
        """The chosen value's vintage, flagged (and reported) where it is of another period than the field's
        preferred one (`period`: not an override's), or of a source class a card may not print."""
        vintage = chosen.vintage
        if field in PERIODS and period:
            vintage = periods.flagged(chosen.vintage, PERIODS[field])
            if vintage != chosen.vintage:
                entry = {"iso3": iso3, "field": field, "value": fmt(chosen.value), "source": chosen.source}
                self.report["periods"].append(entry | {"vintage": vintage, "note": chosen.note})
        klass = source_classes.of(chosen.source, chosen.note)
        if field in CLASSED and not source_classes.allowed(klass):
            vintage = f"{vintage}; {source_classes.flag(klass)}"
            entry = {"iso3": iso3, "field": field, "value": fmt(chosen.value), "source": chosen.source}
            self.report["source_classes"].append(entry | {"class": klass or "undeclared", "note": chosen.note})
        return vintage

    def refereed(self, iso3: str, field: str, valid: list[Candidate]) -> tuple[Candidate | None, str]:
        """The card value of a refereed field. Near the referee: a candidate within the tolerance of the
        referee's value, widened by the field's drift per year between their years (every candidate when the
        referee has no value). Supported: another card source agrees within the tolerance. The first
        supported candidate near the referee wins (precedence order), else the first supported one (two
        card sources outvote the referee), else the closest near the referee; None when there is none
        (refused: no two sources support a value). Every decision but the plain one (the first candidate)
        is reported."""
        tolerance, referee = fields()[field].tolerance, REFEREES[field]
        assert tolerance is not None
        judge = self.referees.get((iso3, field))
        target = judge.value * referee.base_factor if judge else None
        near: dict[int, tuple[float, str]] = {}
        for i, c in enumerate(valid):
            years = abs((vintage_year(c.vintage) or 0) - (vintage_year(judge.vintage) or 0)) if judge else 0
            widen = referee.drift_per_year * years
            if target is None or tolerance.agree(target, c.value, widen):
                distance = abs(c.value - target) if target is not None else 0.0
                near[i] = (distance, f"{tolerance} + {widen:g} for {years} years")
        supported = [
            i for i, c in enumerate(valid) if any(tolerance.agree(c.value, o.value) for o in valid if o is not c)
        ]
        pick = next((i for i in supported if i in near), supported[0] if supported else None)
        if pick == 0:
            return valid[0], ""
        entry: dict[str, Any] = {
            "iso3": iso3,
            "field": field,
            "values": {c.source: f"{fmt(c.value)} ({c.vintage})" for c in valid},
            "referee": f"{fmt(target)} ({judge.vintage})" if judge else "",
            "case": "conflict" if len(valid) > 1 else "single source",
            "chosen": "",
        }
        self.report["referee"].append(entry)
        if pick is not None:
            chosen = valid[pick]
            entry["why"] = f"{chosen.source}: the first value another source supports" + (
                f", within {near[pick][1]} of {referee.source}" if judge and pick in near else ""
            )
        elif judge is None:
            entry["why"] = f"refused: no two sources agree and {referee.source} has no value"
            return None, entry["why"]
        elif not near:
            entry["why"] = f"refused: no value within the tolerance of {referee.source}"
            return None, entry["why"]
        else:
            best = min(near, key=lambda i: (near[i][0], i))
            chosen = valid[best]
            entry["why"] = f"{chosen.source}: closest to {referee.source} (allowed {near[best][1]})"
        entry["chosen"] = chosen.source
        return chosen, f"referee: {entry['why']}"

    def stale(self, iso3: str, field: str, valid: list[Candidate]) -> list[Candidate]:
        """The valid candidates more than max_vintage_gap_years() older than the freshest (reported)."""
        if not fields()[field].recency:
            return []
        years = {c: vintage_year(c.vintage) for c in valid}
        known = [y for y in years.values() if y is not None]
        if not known:
            return []
        freshest = max(known)
        old = [c for c, y in years.items() if y is not None and freshest - y > max_vintage_gap_years()]
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
        tolerance = fields()[field].tolerance
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


def kept_citation(derived: Choice, base: Choice) -> Choice:
    """A derived card name keeps the citation of the value it comes from (a reviewed capital's citation
    stays on its English and German names) unless a reviewed table gave it its own."""
    same = derived.source.split(" + ")[0] == base.source
    return replace(derived, citation=base.citation) if same and not derived.citation else derived


def cited(candidate: Candidate) -> str:
    """A reviewed value's citation (its observation note: the reviewed table's reason and source), and a
    proxy's note (the city measured is not the capital printed: city_names.PROXIES); other sources are cited
    once, by their sources/*.toml."""
    shown = candidate.source == card_names.REVIEWED or "proxy: " in candidate.note
    return candidate.note if shown and candidate.note else ""


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
        chosen["land_neighbour_count"] = Choice(
            count, neighbours.source, neighbours.vintage, neighbours.conflict, neighbours.citation
        )
        derived = card_names.derive(
            iso3,
            {f: c.value for f, c in chosen.items()},
            {f: (c.source, c.vintage) for f, c in chosen.items()},
            chooser.candidates,
            reviewed,
            chooser.report["renamed"],
        )
        for f, v in derived.items():  # in order: a German name after the English one it is derived from
            chosen[f] = kept_citation(Choice(*v), chosen[fields()[f].derived or f])
        row: dict[str, object] = {"iso3": iso3}
        for field in VALUE_COLUMNS:
            c = chosen[field]
            row |= {field: c.value} | {f"{field}__{part}": getattr(c, part) for part in PROVENANCE}
        rows.append(row)
    master = typed(pd.DataFrame(rows, columns=COLUMNS))
    report = chooser.report
    report["coverage"] = {f: int(master[f].notna().sum()) for f in VALUE_COLUMNS}
    report["core_territory"] = [
        e | {"before": fmt(e["before"]) if e["before"] is not None else "", "after": fmt(e["after"])}
        for e in report["core_territory"]
    ]
    report["core_territory_countries"] = sorted({e["iso3"] for e in report["core_territory"]})
    report["old"] = old_values(master)
    return master, report


def old_values(master: pd.DataFrame) -> list[dict]:
    """Chosen values of recency fields more than max_vintage_gap_years() older than the field's newest."""
    old = []
    for field in (f.name for f in fields().values() if f.recency and f.master):
        years = [vintage_year(v) for v in master[f"{field}__vintage"].fillna("")]
        newest = max((y for y in years if y is not None), default=None)
        for iso3, year in zip(master["iso3"], years):
            if year is not None and newest is not None and newest - year > max_vintage_gap_years():
                old.append({"iso3": iso3, "field": field, "year": int(year), "newest": int(newest)})
    return old


def typed(master: pd.DataFrame) -> pd.DataFrame:
    kinds = {}
    for field in VALUE_COLUMNS:
        kinds[field] = {float: "float64", bool: "boolean", int: "Int64", str: "string"}[fields()[field].dtype]
    provenance = {c: "string" for c in COLUMNS if "__" in c}
    return master.astype(kinds | provenance | {"iso3": "string"})


def _none(field: str, candidates: list[Candidate], lead_source: str) -> str:
    """Why a field has no value: every candidate refused, its lead field's source without one, or none."""
    if candidates:
        return "every source's value was refused"
    if field in FOLLOWS:
        return (
            f"no value from {lead_source}, the source of {FOLLOWS[field]}"
            if lead_source
            else f"{FOLLOWS[field]} is empty"
        )
    return "no source has a value"


def _why(field: str, candidates: int) -> str:
    """Why the first valid candidate is the value (of `candidates`)."""
    if field in FOLLOWS:
        return f"same source as {FOLLOWS[field]}"
    if field in PERIODS and candidates > 1:
        return f"period {PERIODS[field]} first, then " + " > ".join(fields()[field].precedence)
    return "precedence " + " > ".join(fields()[field].precedence) if candidates > 1 else "only source"
