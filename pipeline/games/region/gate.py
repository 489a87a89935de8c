"""The editorial gate: what a geography editor checks before a region deck is published (issue 41, docs/regions.md;
thresholds and their reasons in `[gate]` of templates/region/settings.toml). Each check gives one line per problem.

Of the country's data (`data_problems`, the same for every deck the search tries):
- every card's division is the one its GeoNames admin1 code names (the reviewed mapping's, else GeoNames' admin-1
  table): London in "Oxfordshire" fails;
- every division of the candidates has a known capital (the reviewed table's, else a place Natural Earth marks);
- every capital a reviewed table names is a candidate under that name, in the country's language (GeoNames'
  English "Vienna" in a German deck of Austria leaves the table's Wien without its place).

Of one deck (`deck_problems`): the capital, the `largest` most populous places and every division capital among the
candidates are cards; no division holds more than its share of the cards by a wide margin; no two cards lie within
`near_km`; no card has more inhabitants than its whole agglomeration, nor the very figure of another place
within `twin_km` (a district's figure). A figure a reviewed table cites (a `population` row) is the editor's word:
neither the district check nor the second source's flag judges it.

`flagged` lists the cards whose population is more than `second_source_off` from the second source (Natural
Earth's pop_min): flagged in the provenance and the CHANGELOG, not refused.
"""

import numpy as np
import pandas as pd

from pipeline.games.region import admin1, candidates, reviewed


def settings() -> dict:
    from pipeline.games.region.build import settings as region_settings

    return region_settings()["gate"]


def data_problems(store, iso3: str, table: pd.DataFrame) -> list[str]:
    """The problems of the country's candidates (module docstring), one line each."""
    iso2 = candidates.country_codes().get(iso3) or ""
    english = admin1.divisions(store, iso2)
    current = reviewed.divisions(iso3)
    named = {k: reviewed.division_name(r) for k, r in current.items()} if current else english
    problems = [
        f"{n} is in {named.get(d, f'no known division (GeoNames admin1 code {d!r})')} by its GeoNames admin1 code "
        f"{d!r}, but its card says {s!r}"
        for n, d, s in zip(table["name"], table["division"], table["state"])
        if named.get(d) != s
    ]
    if current:
        known = {k for k, r in current.items() if r["capitals"]}
    else:
        known = set(table.loc[table["capital"] != "", "division"])
    unknown = sorted({s for d, s in zip(table["division"], table["state"]) if d not in known})
    if unknown:
        problems.append(
            f"no capital known for {', '.join(unknown)}: Natural Earth marks none near a GeoNames place; name them in "
            f"{reviewed.shown(reviewed.DIVISIONS)}"
        )
    if current:  # a capital the table names is printed as the table names it (Wien, not GeoNames' "Vienna")
        names = set(table["name"])
        held = set(table["division"])
        problems += [
            f"{seat}, capital of {reviewed.division_name(r)} in {reviewed.shown(reviewed.DIVISIONS)}, is no place of "
            f"the deck's candidates: GeoNames names it otherwise (add a `name` row to "
            f"{reviewed.shown(reviewed.PLACES)}) or it is below the deck's floor"
            for k, r in current.items()
            if k in held
            for seat in r["capitals"].split(";")
            if seat and seat not in names
        ]
    return problems


def deck_problems(table: pd.DataFrame, config: dict) -> list[str]:
    """The problems of the deck `table` marks `in_deck` among its candidates (module docstring), one line each."""
    pool = table.loc[table["suburb"] == ""] if "suburb" in table else table
    deck = table.loc[table["in_deck"].astype(bool)]
    return [
        *_missing(pool, deck, config["largest"]),
        *_crowded(pool, deck, config),
        *_near(deck, config["near_km"]),
        *_districts(deck, config["district_ratio"]),
        *_twins(table, deck, config["twin_km"]),
    ]


def _missing(pool: pd.DataFrame, deck: pd.DataFrame, largest: int) -> list[str]:
    chosen = set(deck["geonameid"])
    order = pool.sort_values("population", ascending=False, kind="stable")
    wanted: dict[int, str] = {}
    for g, n, s, c in zip(order["geonameid"], order["name"], order["state"], order["capital"]):
        if c == "division":
            wanted[g] = f"{n} (capital of {s})"
    for i, (g, n) in enumerate(zip(order["geonameid"][:largest], order["name"][:largest])):
        wanted[g] = f"{n} (no. {i + 1} by inhabitants)"
    for g, n, c in zip(order["geonameid"], order["name"], order["capital"]):
        if c == "country":
            wanted[g] = f"{n} (the capital)"
    missing = [why for g, why in wanted.items() if g not in chosen]
    return [f"not a card: {', '.join(missing)}"] if missing else []


def _crowded(pool: pd.DataFrame, deck: pd.DataFrame, config: dict) -> list[str]:
    people = pool.groupby("state")["population"].sum()
    share = people / people.sum()
    cards = deck.groupby("state").size()
    out = []
    for state, count in cards.items():
        expected = float(share.get(state, 0.0))
        allowed = max(config["share_factor"] * expected, expected + config["share_margin"])
        if count >= config["share_cards"] and count / len(deck) > allowed:
            out.append(
                f"{state} holds {count} of {len(deck)} cards ({count / len(deck):.0%}) for {expected:.0%} of the "
                f"candidates' inhabitants (at most {allowed:.0%})"
            )
    return out


def _near(deck: pd.DataFrame, near_km: float) -> list[str]:
    lat, lon = np.radians(deck["lat"].to_numpy(float)), np.radians(deck["lon"].to_numpy(float))
    dlat, dlon = lat[:, None] - lat[None, :], lon[:, None] - lon[None, :]
    a = np.sin(dlat / 2) ** 2 + np.cos(lat[:, None]) * np.cos(lat[None, :]) * np.sin(dlon / 2) ** 2
    km = 2 * 6371.0088 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))
    names = deck["name"].to_numpy()
    return [
        f"{names[i]} and {names[j]} are {km[i, j]:.2f} km apart: one place printed twice"
        for i, j in zip(*np.nonzero(np.triu(km <= near_km, k=1)))
    ]


def _districts(deck: pd.DataFrame, ratio: float) -> list[str]:
    if "agglomeration" not in deck:
        return []
    above = (deck["agglomeration"] > 0) & (deck["population"] > ratio * deck["agglomeration"]) & ~cited(deck)
    return [
        f"{n} has {p:,} inhabitants, more than its whole agglomeration's {a:,} (Natural Earth): a district's figure"
        for n, p, a in zip(deck["name"][above], deck["population"][above], deck["agglomeration"][above])
    ]


def _twins(table: pd.DataFrame, deck: pd.DataFrame, twin_km: float) -> list[str]:
    """Cards carrying the very figure of another place within `twin_km`: one is the other's district
    (GeoNames' "Meikle Earnock" with Hamilton's 54,480, 1.9 km away)."""
    cards = pd.DataFrame({k: deck[k].to_numpy() for k in ("geonameid", "name", "population", "lat", "lon")})
    others = pd.DataFrame({k: table[k].to_numpy() for k in ("geonameid", "name", "population", "lat", "lon")})
    pairs = cards.assign(card=np.arange(len(cards))).merge(
        others.assign(other=np.arange(len(others))), on="population", suffixes=("", "_other")
    )
    pairs = pairs.loc[pairs["geonameid"] != pairs["geonameid_other"]].sort_values(["card", "other"])
    km = 111.2 * np.hypot(
        pairs["lat_other"] - pairs["lat"], (pairs["lon_other"] - pairs["lon"]) * np.cos(np.radians(pairs["lat"]))
    )
    near = pairs.loc[km <= twin_km]
    return [
        f"{n} and {m} both have {p:,} inhabitants, {k:.1f} km apart: one is the other's district"
        for n, m, p, k in zip(near["name"], near["name_other"], near["population"], km[km <= twin_km])
    ]


def flagged(deck: pd.DataFrame, off: float) -> pd.Series:
    """Whether each card's population is more than `off` (a share) from Natural Earth's pop_min for it."""
    second = deck["second"] if "second" in deck else pd.Series(0, index=deck.index)
    return (second > 0) & ((deck["population"] - second).abs() > off * second) & ~cited(deck)


def cited(deck: pd.DataFrame) -> pd.Series:
    """Whether each card's population is a reviewed table's cited figure (a `population` row: an editor's word)."""
    fixed = deck["reviewed"] if "reviewed" in deck else pd.Series("", index=deck.index)
    return fixed.astype(str).str.contains("population;")
