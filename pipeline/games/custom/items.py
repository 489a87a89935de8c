"""A recipe's candidates: the rows its [items] select, each with the values its cards print, ranked by
familiarity (most familiar first), and why each country is a candidate or not.

Countries come from the country table the built-in decks are made from (build/geo/countries.parquet):
UN members (Antarctica and the others only by `include`) of the recipe's continents (their primary
continent), plus `include`, less `exclude`, then the `top` n by a field; familiarity is the size of the
economy (inhabitants × GDP per capita PPP, as Länder toppen ranks its best-known countries), countries
without it last. A user's table gives its rows in its own order, which is their familiarity.
"""

from collections import Counter

import pandas as pd

from pipeline.games.custom.recipe import Recipe, RecipeError, slug, table_field
from pipeline.games.custom.table import Table
from pipeline.i18n.catalogue import N_, translate

NAMED = ("name_en", "flag", "primary_continent")  # what a country needs to be a card
NO_TOP_FIELD = N_("items.top.field {value} is no column of the country table")
UNGROUPED = N_("items.groups: {codes} in no group; add them to one or exclude them")
NO_VALUE = N_("{key} {column} has no value for {codes}; exclude them (items.exclude) or compare another field")
AND_MORE = N_("{codes} and {n} more")
ID = 40  # characters of a card id's own part (a deck's ids are at most 60: pipeline/decks/schema.py)


def countries(recipe: Recipe, table: pd.DataFrame) -> pd.DataFrame:
    """The candidate countries, most familiar first."""
    items = recipe.items
    codes = set(table["iso3"])
    problems = [
        f"items.{key}: {code!r} is no country of the table; use ISO3 codes such as DEU"
        for key in ("include", "exclude")
        for code in getattr(items, key)
        if code not in codes
    ]
    member = table["un_member"].fillna(False).astype(bool) & (table["iso3"] != "ATA")
    within = table["primary_continent"].isin(items.continents) if items.continents else pd.Series(True, table.index)
    chosen = (member & within) | table["iso3"].isin(items.include)
    chosen &= ~table["iso3"].isin(items.exclude)
    pool = table[chosen].copy()
    pool = pool[pool[list(NAMED)].notna().all(axis=1)]
    if items.top:
        column, n = items.top
        if column not in table.columns:
            problems.append(translate(recipe.lang, NO_TOP_FIELD, value=repr(column)))
        else:
            pool = pool.sort_values([column, "iso3"], ascending=[False, True], kind="stable").iloc[:n]
    for key, column in recipe.compared():
        lacking = pool.loc[pool[column].isna(), "iso3"].tolist()
        if lacking:
            named = ", ".join(lacking[:8])
            if len(lacking) > 8:
                named = translate(recipe.lang, AND_MORE, codes=named, n=len(lacking) - 8)
            problems.append(translate(recipe.lang, NO_VALUE, key=key, column=repr(column), codes=named))
    if problems:
        raise RecipeError(str(recipe.path), problems)
    if items.groups:
        group_of = {code: group for group, codes in items.groups.items() for code in codes}
        if ungrouped := [code for code in pool["iso3"] if code not in group_of]:
            problems.append(translate(recipe.lang, UNGROUPED, codes=", ".join(ungrouped[:8])))
        pool = pool.assign(groups=pool["iso3"].map(group_of))
    if problems:
        raise RecipeError(str(recipe.path), problems)
    pool = familiar(pool)
    return pool.assign(card=pool["iso3"], label=pool["name_en"])


def familiar(table: pd.DataFrame) -> pd.DataFrame:
    """Countries most familiar first: by the size of their economy, those without it last."""
    economy = table["population"] * table["gdp_pcap_ppp"]
    table = table.assign(_economy=economy.fillna(-1.0)).sort_values(["_economy", "iso3"], ascending=[False, True])
    return table.drop(columns="_economy").reset_index(drop=True)


def others(recipe: Recipe, table: pd.DataFrame, taken: set[str], n: int) -> list[str]:
    """The `n` most familiar UN members outside `taken` and `items.exclude` that could be cards of the recipe
    (a name, a flag, a continent and a value of every compared field): what `items.include` could add."""
    member = table["un_member"].fillna(False).astype(bool) & (table["iso3"] != "ATA")
    usable = table[list(NAMED) + [column for _, column in recipe.compared()]].notna().all(axis=1)
    left = table[member & usable & ~table["iso3"].isin(taken | set(recipe.items.exclude))]
    return familiar(left)["iso3"].tolist()[:n]


def rows(recipe: Recipe, table: Table) -> pd.DataFrame:
    """The user's rows as candidates, in the file's order, each value under its category's card field
    (`recipe.table_field`); every value's provenance the file and its row's source. A card's id is its
    name's slug (at most `ID` characters), numbered where two names have one."""
    frame = table.rows
    ids = [slug(name)[:ID].strip("_") or f"item-{n}" for n, name in enumerate(frame["name"], 1)]
    counts = Counter(ids)
    frame = frame.assign(card=[f"{i}-{n}" if counts[i] > 1 else i for n, i in enumerate(ids, 1)], label=frame["name"])
    origin = f"{table.path.name} (sha256 {table.sha256[:16]})"
    for column in [table_field(c.field) for c in recipe.categories] + ["name", "groups"]:
        frame[f"{column}__source"] = origin
        frame[f"{column}__vintage"] = None
        frame[f"{column}__citation"] = frame["source"]
    return frame
