"""The World Game's player model: how likely a player answers a challenge right (docs/rules-engines.md).

    P(right) = 1 / (1 + exp(-(skill + 4 × (familiarity - 0.5) - difficulty)))

`skill` is the player's (SKILLS), `difficulty` the challenge's (DIFFICULTY, in the rulebook's order: continent
easy, flag a little harder, location medium, capital difficult; +1 for the continent of a country on two
continents, which must both be named; -0.5 for a country with several capitals, any one counts), and
`familiarity` (0-1) the country's: the mean of three shares, its population's and its area's percentile in
the deck and its closeness to the players' home (1 - great-circle distance / half the Earth's
circumference; home defaults to the centre of Germany, where geodeck's players sit).
"""

import math
from collections.abc import Sequence

from pipeline.games.core import percentiles

SKILLS = {"novice": 0.5, "skilled": 2.0, "expert": 3.5}
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


def familiarity(fields: Sequence[dict], home: tuple[float, float] = HOME) -> list[float]:
    """Each card's familiarity 0-1 (from its fields): mean of its population and area percentiles and its
    closeness to `home` (0.5 for a card without a label position)."""
    population = percentiles([f.get("population") for f in fields])
    area = percentiles([f.get("area_km2") for f in fields])
    found = []
    for f, pop, size in zip(fields, population, area):
        lat, lon = f.get("label_lat"), f.get("label_lon")
        close = 0.5 if lat is None or lon is None else 1 - distance_km(home, (lat, lon)) / HALF_EARTH_KM
        found.append(((pop or 0.0) + (size or 0.0) + close) / 3)
    return found


def p_right(skill: float, known: float, kind: str, continents: int = 1, capitals: int = 1) -> float:
    """The probability that a player of `skill` answers a `kind` challenge on a country of familiarity `known`."""
    difficulty = DIFFICULTY[kind]
    if kind == "continent" and continents > 1:
        difficulty += TWO_CONTINENTS
    if kind == "capital" and capitals > 1:
        difficulty += SEVERAL_CAPITALS
    return 1 / (1 + math.exp(-(skill + 4 * (known - 0.5) - difficulty)))
