"""The World Game's player model: how likely a player answers a challenge right (docs/rules-engines.md).

    P(right) = 1 / (1 + exp(-(skill + slope × (familiarity - 0.5) - difficulty)))

`skill` is the player's level (SKILLS), `slope` how much more a player knows of familiar countries than of others (4;
a child 8: Berlin and Paris, hardly Bogotá), `difficulty` the challenge's (DIFFICULTY, in the rulebook's order:
continent easy, flag a little harder, location medium, capital difficult; +1 for the continent of a country on two
continents, which must both be named; -0.5 for a country with several capitals, any one counts), and `familiarity`
(0-1) the country's, a weighted mean (WEIGHTS) of its prominence (the reviewed memberships of
templates/world-game/familiarity.toml: Germany and its neighbours 1, the EU and the G20 0.75, others 0), its
population's and its area's percentiles in the deck and its closeness to the players' home (1 - great-circle distance
/ half the Earth's circumference; home defaults to the centre of Germany, where geodeck's players sit).
docs/world-game.md states the answer rates this is calibrated to, and the rates measured.
"""

import math
from collections.abc import Sequence
from functools import cache

from pipeline import readers
from pipeline.framework.core import percentiles
from pipeline.paths import TEMPLATES_DIR

FAMILIAR = TEMPLATES_DIR / "world-game" / "familiarity.toml"
# prominence first; size (population, area: how much a country is in the news and on the map) before
# closeness, so that Colombia (0.43) is more familiar than Burkina Faso (0.38; issue 35: 0.42 against 0.44
# when closeness weighed 0.3)
WEIGHTS = {"prominence": 0.45, "population": 0.25, "area": 0.15, "closeness": 0.15}

SKILLS = {"child": -0.5, "novice": 0.5, "skilled": 2.0, "expert": 3.8, "master": 5.5}  # the levels, weakest first
SLOPE, SLOPES = 4.0, {"child": 8.0}  # a child knows the familiar countries, hardly any other
DIFFICULTY = {
    "continent": 0.0,
    "flag": 1.0,
    "location": 1.5,
    "capital": 2.5,
    "location-reverse": 1.5,
    "capital-reverse": 2.0,
}
TWO_CONTINENTS, SEVERAL_CAPITALS = 1.0, -0.5
HOME = (51.2, 10.4)  # latitude, longitude: the centre of Germany
EARTH_RADIUS_KM = 6_371.0
HALF_EARTH_KM = math.pi * EARTH_RADIUS_KM  # half the circumference: the farthest a place can be


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


@cache
def prominence() -> dict[str, float]:
    """ISO3 code -> the highest prominence of the reviewed groups the country belongs to."""
    groups = readers.read_input("toml", FAMILIAR)["groups"].values()
    found: dict[str, float] = {}
    for group in groups:
        for code in group["members"]:
            found[code] = max(found.get(code, 0.0), float(group["prominence"]))
    return found


def familiarity(fields: Sequence[dict], home: tuple[float, float] = HOME) -> list[float]:
    """Each card's familiarity 0-1 (from its fields): WEIGHTS of its prominence, its population and area
    percentiles and its closeness to `home` (0.5 for a card without a label position)."""
    population = percentiles([f.get("population") for f in fields])
    area = percentiles([f.get("area_km2") for f in fields])
    known = prominence()
    found = []
    for f, pop, size in zip(fields, population, area):
        lat, lon = f.get("label_lat"), f.get("label_lon")
        close = 0.5 if lat is None or lon is None else 1 - distance_km(home, (lat, lon)) / HALF_EARTH_KM
        shares = {
            "prominence": known.get(f.get("iso3") or "", 0.0),
            "population": pop or 0.0,
            "area": size or 0.0,
            "closeness": close,
        }
        found.append(sum(WEIGHTS[k] * v for k, v in shares.items()))
    return found


def p_right(
    skill: float, known: float, kind: str, continents: int = 1, capitals: int = 1, slope: float = SLOPE
) -> float:
    """The probability that a player of `skill` answers a `kind` challenge on a country of familiarity `known`."""
    difficulty = DIFFICULTY[kind]
    if kind == "continent" and continents > 1:
        difficulty += TWO_CONTINENTS
    if kind == "capital" and capitals > 1:
        difficulty += SEVERAL_CAPITALS
    return 1 / (1 + math.exp(-(skill + slope * (known - 0.5) - difficulty)))


def chance(level: str, known: float, kind: str, continents: int = 1, capitals: int = 1) -> float:
    """`p_right` for a player of `level` (SKILLS, SLOPES)."""
    return p_right(SKILLS[level], known, kind, continents, capitals, SLOPES.get(level, SLOPE))


def nearest(fields: Sequence[dict]) -> list[list[int]]:
    """For each card the other cards, nearest first by the great-circle distance of their label points (a card
    without one: the others in deck order): whom a player who does not know an answer confuses it with."""
    points = [(f.get("label_lat"), f.get("label_lon")) for f in fields]
    found = []
    for i, here in enumerate(points):
        others = [j for j in range(len(points)) if j != i]
        if None not in here:
            far = HALF_EARTH_KM * 2
            others.sort(key=lambda j: far if None in points[j] else distance_km(here, points[j]))  # type: ignore[arg-type]
        found.append(others)
    return found
