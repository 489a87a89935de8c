"""The card rule: every country is shown by its core national territory.

The rulebook's notes say it for France (without overseas regions) and Denmark (without the Faroe
Islands and Greenland); geodeck applies it to every country for area, highest point and land
neighbours. Definition (one rule for every disputed territory): the figures the reference books print
for the state (the CIA World Factbook's total area and highest point, which follow the country's own
statistics office and the UN Demographic Yearbook), minus every part that has its own ISO 3166-1 code
(overseas regions such as Réunion or Mayotte, constituent countries such as Greenland, special
municipalities such as Saba; Western Sahara) and minus land whose annexation the UN Security Council has
declared void (the Golan Heights and East Jerusalem, resolutions 497 and 478). Integral parts without their
own code (Alaska, the Canaries, the Azores, Galápagos) stay. Nothing else is redrawn: in Kashmir India keeps
its 3,287,263 km² and Pakistan its 796,095 km² (each as its statistics office and the books print it), Cyprus
includes the north, Georgia Abkhazia and South Ossetia, Ukraine Crimea, Moldova Transnistria.

Mechanics: where a source states the core area (`area_core_km2`, e.g. the Factbook's metropolitan
France), that value replaces the same source's total; everything else goes through reviewed overrides
whose reason starts with "core national territory" (e.g. the Netherlands' Vaalserberg instead of Mount
Scenery on Saba; Israel without the Golan Heights). Every change is listed in the report.
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
