"""Länder toppen!: 119 country cards chosen by a documented rule, the Antarctica card and 8 jokers.

Selection (docs/laender-toppen.md): eligible are UN members with every card value present and at least
`min_population` inhabitants (a familiar country below it, Iceland, stays eligible; a table with fewer
than 119 such countries, a test fixture, keeps them all). Familiar countries are
always in: the spec's `always` (the rulebook's countries), every land neighbour of Germany, every member
of the EU, EFTA and G20 (spec lists) and every country with more than `familiar_population` inhabitants.
Each continent (a country's `primary_continent`) gets a share of the 119 proportional to its eligible
countries (largest remainder); in each continent the best-known countries fill `known_fraction` of what is
left of its share, best known meaning the largest economy (inhabitants × GDP per capita PPP: a country's
weight in news, trade and travel, from the card's own values); the rest, if any, are added one at a time,
always the candidate (from a continent still under its share) with the fewest card-precision ties against
the cards already chosen, then the largest distance to them in the six categories (log scale for area,
peak, inhabitants and GDP; standardised), then the smaller ISO3 code.
"""

import math

import numpy as np
import pandas as pd

from pipeline.decks import counting
from pipeline.decks.card import Card
from pipeline.decks.spec import DeckSpec
from pipeline.decks.values import card_number, missing, sort_name
from pipeline.errors import GeodeckError
from pipeline.transform.observations import CONTINENTS

REQUIRED = ["name_de", "name_en", "continents", "capital_de", "highest_point_name_de", "flag"]
LOG_SCALE = {"area_km2", "highest_peak_m", "inhabitants_m", "gdp_pcap_usd"}


def value_columns(spec: DeckSpec) -> list[str]:
    return [str(spec.fields[c].column) for c in spec.categories]


def eligible(countries: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """UN members (not Antarctica) with names, German capital, mountain, flag and all six values."""
    needed = REQUIRED + value_columns(spec)
    complete = countries[needed].notna().all(axis=1) & (countries[needed] != "").all(axis=1)
    member = countries["un_member"].fillna(False).astype(bool)
    return countries[member & complete & (countries["iso3"] != "ATA")]


def quotas(primary: pd.Series, total: int) -> dict[str, int]:
    """Largest-remainder shares of `total` per continent, proportional to the eligible counts."""
    counts = primary.value_counts()
    exact = counts / counts.sum() * total
    shares = exact.apply(math.floor)
    remainders = (exact - shares).sort_values(ascending=False, kind="stable")
    order = sorted(remainders.index, key=lambda c: (-round(remainders[c], 12), CONTINENTS.index(c)))
    for continent in order[: total - int(shares.sum())]:
        shares[continent] += 1
    return {c: int(shares[c]) for c in counts.index}


def open_shares(share: dict[str, int], taken: dict[str, int], left: int) -> dict[str, int]:
    """The `left` cards after the familiar ones, split over the continents still under their share in
    proportion to what each still lacks (largest remainder): a continent whose familiar countries exceed its
    share (Europe) takes its excess from the others, never from the total."""
    lacking = {c: n - taken.get(c, 0) for c, n in share.items() if n > taken.get(c, 0)}
    if not lacking or left <= 0:
        return {}
    return quotas(pd.Series([c for c, n in lacking.items() for _ in range(n)]), left)


def card_values(pool: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """The six category values at card precision, one column per category field."""
    return pd.DataFrame(
        {name: [card_number(v, spec.fields[name]) for v in pool[spec.fields[name].column]] for name in spec.categories},
        index=pool["iso3"].to_numpy(),
    )


def features(values: pd.DataFrame) -> np.ndarray:
    """Standardised category values (log10 for the skewed ones) for the spread distance."""
    cols = []
    for name in values.columns:
        col = values[name].astype(float)
        if name in LOG_SCALE:
            col = np.log10(col.clip(lower=0) + 1)
        std = col.std(ddof=0) or 1.0
        cols.append(((col - col.mean()) / std).to_numpy())
    return np.column_stack(cols)


def familiar_groups(countries: pd.DataFrame, spec: DeckSpec) -> dict[str, list[str]]:
    """The countries every edition carries (module docstring), each with the groups it is familiar by."""
    neighbours = countries.loc[countries["iso3"] == "DEU", "land_neighbours"]
    floor = spec.options.get("familiar_population", math.inf)
    groups = {
        "named in the rulebook": spec.options.get("always", []),
        "land neighbour of Germany": str(neighbours.iloc[0]).split(";") if len(neighbours) else [],
        **{f"{group.upper()} member": spec.options.get(group, []) for group in ("eu", "efta", "g20")},
        f"over {floor:,} inhabitants": countries.loc[countries["population"] > floor, "iso3"].tolist(),
    }
    found: dict[str, list[str]] = {}
    for words, codes in groups.items():
        for code in codes:
            found.setdefault(code, []).append(words)
    return found


def familiar(countries: pd.DataFrame, spec: DeckSpec) -> set[str]:
    """The familiar countries; one without complete card values is a user error naming it, so the rule
    never drops one silently, unless the spec's `without_value` gives the reason it is left out."""
    codes = set(familiar_groups(countries, spec))
    excused = set(spec.options.get("without_value", {}))
    missing = sorted((codes & set(countries["iso3"])) - set(eligible(countries, spec)["iso3"]) - excused)
    if missing:
        raise GeodeckError(
            f"familiar countries without complete card values for laender-toppen: {', '.join(missing)}; "
            "fix their values in the validate stage (sources/overrides.csv) or the lists in the deck spec"
        )
    return codes


def select(countries: pd.DataFrame, spec: DeckSpec) -> list[str]:
    """The ISO3 codes of the deck's country cards (see module docstring)."""
    chosen, _ = choose(countries, spec)
    return sorted(chosen)


def choose(countries: pd.DataFrame, spec: DeckSpec) -> tuple[list[str], dict[str, str]]:
    """The deck's country cards (ISO3), and for every candidate why it is in or out (module docstring): the
    familiar countries, then each continent's best known (`_best_known`), then the spread (`_spread`)."""
    total = spec.options["country_cards"]
    groups = familiar_groups(countries, spec)
    known = familiar(countries, spec)
    pool = _pool(countries, spec, known, total)
    primary = pool["primary_continent"]
    share = quotas(primary, total)
    values = card_values(pool, spec)
    iso = pool["iso3"].tolist()
    chosen = [i for i, code in enumerate(iso) if code in known]
    why = {iso[i]: "familiar: " + ", ".join(groups[iso[i]]) for i in chosen}
    if len(chosen) > total:
        raise GeodeckError(
            f"{len(chosen)} familiar countries for laender-toppen, more than its {total} country cards; "
            "raise familiar_population in templates/decks/laender-toppen.toml"
        )
    chosen += _best_known(pool, spec, share, chosen, total, why)
    _spread(pool, values, share, chosen, total, why)
    return [iso[i] for i in chosen], why


def _pool(countries: pd.DataFrame, spec: DeckSpec, known: set[str], total: int) -> pd.DataFrame:
    """The candidates, by ISO3: the eligible countries at or above `min_population` and the familiar ones (all
    eligible ones when too few are above the floor); refused when fewer than `total`."""
    pool = eligible(countries, spec)
    recognised = pool[(pool["population"] >= spec.options.get("min_population", 0)) | pool["iso3"].isin(known)]
    pool = recognised if len(recognised) >= total else pool  # too few above the floor: it does not apply
    pool = pool.sort_values("iso3").reset_index(drop=True)
    if len(pool) < total:
        raise GeodeckError(
            f"only {len(pool)} countries have complete data for laender-toppen, "
            f"{total} needed; check build/validate/countries.parquet and rebuild validate"
        )
    return pool


def _best_known(
    pool: pd.DataFrame, spec: DeckSpec, share: dict, familiar_rows: list[int], total: int, why: dict[str, str]
) -> list[int]:
    """Per continent the best known of its open share (`known_fraction` of it, by economy: population times
    GDP per head) beside the familiar rows; every other candidate's rank written into `why`."""
    primary, iso = pool["primary_continent"], pool["iso3"].tolist()
    taken = primary.iloc[familiar_rows].value_counts().to_dict()
    open_share = open_shares(share, taken, total - len(familiar_rows))
    added: list[int] = []
    for continent in share:
        best_known = max(int(open_share.get(continent, 0) * spec.options.get("known_fraction", 0.0)), 0)
        rest = pool[(primary == continent) & ~pool.index.isin(familiar_rows)]
        rest = rest.assign(economy=rest["population"] * rest["gdp_pcap_ppp"])
        rest = rest.sort_values(["economy", "iso3"], ascending=[False, True], kind="stable")
        for rank, i in enumerate(rest.index, start=1):
            taken_by = f"the {best_known} best known" if best_known else "its familiar countries"
            why[iso[i]] = (
                f"best known of {continent}: " if rank <= best_known else f"{continent}'s share taken by {taken_by}: "
            ) + f"economy rank {rank} of its {len(rest)} countries besides the familiar"
        added += rest.index[:best_known].tolist()
    return added


def _spread(
    pool: pd.DataFrame, values: pd.DataFrame, share: dict, chosen: list[int], total: int, why: dict[str, str]
) -> None:
    """Fill `chosen` up to `total` from the open continents, each time the candidate with the fewest values
    tied with the cards before it, then the farthest from them (its reason into `why`)."""
    primary, iso = pool["primary_continent"], pool["iso3"].tolist()
    points = features(values)
    taken = primary.iloc[chosen].value_counts().to_dict()
    continent_of, columns = primary.tolist(), [values[name].tolist() for name in values.columns]
    seen = [{column[i] for i in chosen} for column in columns]
    near = np.full(len(iso), math.inf)  # each candidate's distance to the nearest chosen card
    for i in chosen:
        near = np.minimum(near, np.linalg.norm(points - points[i], axis=1))
    while len(chosen) < total:
        open_continents = {c for c, n in share.items() if taken.get(c, 0) < n} or set(share)
        best = None
        for i in set(range(len(iso))) - set(chosen):
            if continent_of[i] not in open_continents:
                continue
            ties = sum(column[i] in known_values for column, known_values in zip(columns, seen))
            key = (ties, -round(float(near[i]) if chosen else 0.0, 9), iso[i])
            if best is None or key < best[0]:
                best = (key, i)
        assert best is not None, "an open continent always has a candidate"
        i = best[1]
        why[iso[i]] = f"spread: {best[0][0]} values tied with the cards before it, distance {-best[0][1]:.2f}"
        chosen.append(i)
        taken[continent_of[i]] = taken.get(continent_of[i], 0) + 1
        for column, known_values in zip(columns, seen):
            known_values.add(column[i])
        near = np.minimum(near, np.linalg.norm(points - points[i], axis=1))


def reasons(countries: pd.DataFrame, spec: DeckSpec) -> pd.DataFrame:
    """Why each country is a card or not (pipeline.decks.reasons): the selection's reason for its candidates;
    the Antarctica card; else not a UN member, a missing card value, or under `min_population`."""
    _, why = choose(countries, spec)
    needed = REQUIRED + value_columns(spec)
    floor = spec.options.get("min_population", 0)
    rows = []
    for row in countries.to_dict("records"):
        code, lacking = row["iso3"], [c for c in needed if missing(row.get(c)) or row.get(c) == ""]
        if code in why:
            reason = why[code]
        elif lacking and code in spec.options.get("without_value", {}):
            reason = spec.options["without_value"][code]
        elif code == "ATA":
            reason = "the Antarctica card"
        elif not row.get("un_member"):
            reason = "not a UN member state"
        elif lacking:
            reason = f"no card value for {', '.join(lacking)}"
        else:
            reason = f"population under {floor:,} ({row['population'] / 1e6:.2f} M)"
        rows.append((f"{spec.id_prefix}-{code}", code if missing(row.get("name_en")) else row["name_en"], reason))
    return pd.DataFrame(rows, columns=["card", "label", "reason"])


def country_card(row: dict, spec: DeckSpec, kind: str) -> Card:
    card = Card.from_row(f"{spec.id_prefix}-{row['iso3']}", kind, row, spec)
    fields, prov = card.fields, card.provenance
    if fields["continents"]:
        fields["continents"] = counting.shown_continents(
            row["iso3"], fields["continents"], row["primary_continent"], spec
        )
    area, people = row.get("area_km2"), row.get("population")
    density = None if missing(area) or missing(people) or not area else people / area
    fields["population_density"] = card_number(density, spec.fields["population_density"])
    if fields["population_density"] is not None:
        prov["population_density"] = {
            "source": f"{row['population__source']} / {row['area_km2__source']}",
            "vintage": None if missing(row.get("population__vintage")) else str(row["population__vintage"]),
        }
    return card


def antarctica_card(row: dict, spec: DeckSpec) -> Card:
    """The categories the spec's `[optional] antarctica` does not name (area, highest peak, temperature); the
    others (inhabitants, life expectancy, GDP) and the density are dashes."""
    card = country_card(row, spec, "antarctica")
    for name in spec.optional["antarctica"]:
        card.fields[name] = None
        card.provenance.pop(name, None)
    card.fields["continents"] = ["Antarctica"]
    absent = [n for n in spec.categories if n not in spec.optional["antarctica"] and card.fields[n] is None]
    if absent:
        raise GeodeckError(
            f"build/geo/countries.parquet: Antarctica (ATA) lacks {', '.join(absent)}; "
            "fix the validate stage's ATA row, or name them in the deck spec's [optional] antarctica"
        )
    return card


def joker_cards(spec: DeckSpec) -> list[Card]:
    """The spec's joker pairs, checked: two different continents each, all seven covered."""
    pairs = [sorted(pair, key=CONTINENTS.index) for pair in spec.options["jokers"]]
    covered = {c for pair in pairs for c in pair}
    if any(len(set(p)) != 2 for p in pairs) or covered != set(CONTINENTS):
        raise GeodeckError(
            "templates/decks/laender-toppen.toml: every joker needs two different continents "
            "and together they must cover all seven; fix `jokers`"
        )
    return [Card(f"{spec.id_prefix}-joker-{n}", "joker", {"continents": pair}) for n, pair in enumerate(pairs, start=1)]


def cards(countries: pd.DataFrame, spec: DeckSpec) -> list[Card]:
    rows = {r["iso3"]: r for r in countries.to_dict("records")}
    if "ATA" not in rows:
        raise GeodeckError("build/geo/countries.parquet has no Antarctica (ATA) row; rebuild validate and geo")
    chosen = [rows[code] for code in select(countries, spec)]
    chosen.sort(key=lambda r: (CONTINENTS.index(r["primary_continent"]), sort_name(r["name_de"]), r["iso3"]))
    return [country_card(r, spec, "country") for r in chosen] + [antarctica_card(rows["ATA"], spec)] + joker_cards(spec)
