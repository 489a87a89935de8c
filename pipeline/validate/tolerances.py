"""Cross-source checks: how far two sources may disagree on a field before it is reported as a conflict.

A conflict never blocks the build: the declared precedence still decides, and the report shows every
value, the tolerance and the choice, so a reviewer can add an override where the winner is wrong.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    kind: str  # "relative" (share of the chosen value), "absolute" (in the field's unit) or "same set"
    amount: float = 0.0
    unit: str = ""

    def agree(self, chosen, other) -> bool:
        if self.kind == "relative":
            return abs(other - chosen) <= self.amount * abs(chosen)
        if self.kind == "absolute":
            return abs(other - chosen) <= self.amount
        return set(filter(None, str(chosen).split(";"))) == set(filter(None, str(other).split(";")))

    def __str__(self) -> str:
        if self.kind == "relative":
            return f"±{self.amount:.0%}"
        if self.kind == "absolute":
            return f"±{self.amount:g} {self.unit}".rstrip()
        return self.kind


# Factbook vs mledoze: both use national statistics; 2 % absorbs inland-water and survey differences.
AREA = Tolerance("relative", 0.02)
# Factbook vs 7summits: re-surveys move famous peaks by a few metres (Everest 8,848 -> 8,849, Mont Blanc).
HIGHEST_POINT = Tolerance("absolute", 50, "m")
# Factbook vs Gapminder vs World Bank: different reference years (2023-2025) and estimation methods.
POPULATION = Tolerance("relative", 0.05)
# Factbook vs Gapminder: different models (Factbook's own vs IHME/UN based) and years.
LIFE_EXPECTANCY = Tolerance("absolute", 3, "years")
# Factbook vs Gapminder: both PPP in constant 2021 int$ (Factbook values stated in another base are refused
# before any comparison, schema.GDP_DOLLAR_BASE), with different base data and years.
GDP_PCAP_PPP = Tolerance("relative", 0.25)
# Wikipedia vs CHELSA normals vs hand-collected tables: stations, periods and grid cells differ.
CAPITAL_TEMP = Tolerance("absolute", 2, "°C")
# Factbook vs mledoze: the set of land neighbours must be identical.
NEIGHBOURS = Tolerance("same set")

TOLERANCES = {
    "area_km2": AREA,
    "highest_point_m": HIGHEST_POINT,
    "population": POPULATION,
    "life_expectancy": LIFE_EXPECTANCY,
    "gdp_pcap_ppp": GDP_PCAP_PPP,
    "capital_temp_c": CAPITAL_TEMP,
    "land_neighbours": NEIGHBOURS,
}
