"""The card rule: every country is shown by its core national territory.

The rulebook's notes say it for France (without overseas regions) and Denmark (without the Faroe
Islands and Greenland); geodeck applies it to every country for area, highest point and land
neighbours. Definition: the core territory is the state's internationally recognised territory minus
every part that has its own ISO 3166-1 code (overseas regions such as Réunion or Mayotte, constituent
countries such as Greenland, special municipalities such as Saba; Western Sahara; not the Golan Heights).
Integral parts without their own code (Alaska, the Canaries, the Azores, Galápagos) stay. Where no
border is internationally recognised (Kashmir), each state counts the territory it administers: Pakistan
with Gilgit-Baltistan (where K2 stands), India without what Pakistan and China administer.

Mechanics: where a source states the core area (`area_core_km2`, e.g. the Factbook's metropolitan
France), that value replaces the same source's total; everything else goes through reviewed overrides
whose reason starts with "core national territory" (e.g. the Netherlands' Vaalserberg instead of Mount
Scenery on Saba; Pakistan's and India's areas). Every change is listed in the report.
"""

import pandas as pd

CORE_AREA = "area_core_km2"


def apply_core_area(table: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    """`area_km2` rows with each source's stated core area instead of its total, and the changes made."""
    core = table[table["field"] == CORE_AREA]
    rest = table[table["field"] != CORE_AREA]
    if core.empty:
        return rest, []
    totals = rest[rest["field"] == "area_km2"].set_index(["iso3", "source"])["value"]
    changes = []
    for row in core.itertuples(index=False):
        before = totals.get((row.iso3, row.source))
        if before is None or before != row.value:
            changes.append(
                {
                    "iso3": row.iso3,
                    "field": "area_km2",
                    "source": row.source,
                    "before": before,
                    "after": row.value,
                    "how": f"{CORE_AREA} stated by {row.source}" + (f" ({row.note})" if row.note else ""),
                }
            )
    keys = set(zip(core["iso3"], core["source"]))
    replaced = rest["field"].eq("area_km2") & pd.Series(
        [k in keys for k in zip(rest["iso3"], rest["source"])], index=rest.index
    )
    core_rows = core.assign(field="area_km2", note=[f"core national territory; {n}".rstrip("; ") for n in core["note"]])
    return pd.concat([rest[~replaced], core_rows], ignore_index=True), changes
