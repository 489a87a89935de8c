"""Choosing a deck of places from a table of candidate towns, for any country's grid game.

Candidates are a table with `lat`, `lon`, `population`, a division column (state, region), the columns the
game's extremes compare (grid numbers, population) and optionally `beside`, the larger place a place stands
beside ("" when it stands on its own; pipeline.games.grid.selection). `select` starts from the pins, one
seeded place per missing division, the well-known places (below) and a farthest-point spread (seeded), then a
seeded local search swaps one town at a time and keeps a swap when it lowers

    weight_ties * mean P(tie for an extreme)       (each extreme x layouts of k cards)
  + weight_spread * covering radius / 100 km       (largest distance from a candidate to its nearest card)
  + weight_population * KS(log population, log-uniform from min_population to the largest city)
  + weight_familiarity * mean over cards of the log population a card passes over (familiarity)

and never leaves a division uncovered. A card passes over a place that has more inhabitants and is no card
when the place lies within `familiar_km` of it (Netphen beside Siegen, Remseck beside Stuttgart) or, wherever
it lies, ranks among the `well_known` share of the deck's size of the most populous candidates that stand on
their own (Heidelberg beside the larger Mannheim: a city every player knows, which no smaller card near it
passes over); what a card passes over is the log population it gives away (the larger's minus its own, on the
scale of the population term), so the search takes the larger and better-known place of each part of the
country, and the well-known cities wherever they lie, unless the tie rates or the spread need the small one.
Tie probabilities are exact (counting subsets), all extremes and layouts in one numpy pass over the deck's
sorted values. No candidate-by-candidate distance matrix: a swap costs one pass over the candidates (distances
to the new card, and each candidate's nearest and second-nearest card), so choosing 96 of 5,000 towns takes
well under a second.
"""

import math
from typing import Protocol

import numpy as np
import pandas as pd

from pipeline.geo.grid import from_lonlat

Extremes = dict[str, tuple[str, int]]  # extreme -> (column, sign): a tie for the minimum of sign * column


class Settings(Protocol):
    """What the selection reads from a game's settings (a frozen dataclass will do)."""

    @property
    def size(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def min_population(self) -> int: ...
    @property
    def iterations(self) -> int: ...
    @property
    def layouts(self) -> tuple[int, ...]: ...
    @property
    def weight_ties(self) -> float: ...
    @property
    def weight_spread(self) -> float: ...
    @property
    def weight_population(self) -> float: ...
    @property
    def weight_familiarity(self) -> float: ...
    @property
    def familiar_km(self) -> float: ...
    @property
    def well_known(self) -> float: ...


def comb_table(n: int, k_max: int) -> np.ndarray:
    """math.comb(i, k) for i ≤ n, k ≤ k_max, as floats (exact below 2**53)."""
    return np.array([[math.comb(i, k) for k in range(k_max + 1)] for i in range(n + 1)], dtype=float)


def tie_probabilities(values: np.ndarray, layouts, comb: np.ndarray | None = None) -> np.ndarray:
    """Exact probabilities, one row per row of `values` and one column per layout size k, that k cards
    drawn at random from the row share its minimum. Of the C(n, k) layouts, those with a single card at
    the minimum are, for each card, the (k-1)-subsets of the cards above its value: 1 - sum over cards of
    C(cards above, k-1) / C(n, k). Every count is an integer below 2**53, so the figures do not depend
    on the order of summation."""
    ordered = np.sort(np.atleast_2d(values), axis=1)
    n = ordered.shape[1]
    ks = np.asarray(layouts)
    comb = comb_table(n, int(ks.max())) if comb is None else comb
    last = np.ones(ordered.shape, dtype=bool)  # the last card of each run of equal values
    last[:, :-1] = ordered[:, 1:] != ordered[:, :-1]
    above = np.where(last, np.arange(n - 1, -1, -1), -1)  # cards above the run, at its last card
    above = np.maximum.accumulate(above[:, ::-1], axis=1)[:, ::-1]  # ... for every card of the run
    alone = comb[:, ks - 1][above].sum(axis=1)
    return (comb[n, ks] - alone) / comb[n, ks]


def tie_probability(values: np.ndarray, k: int, comb: np.ndarray | None = None) -> float:
    """Exact probability that k cards drawn at random from `values` share the minimum value."""
    return float(tie_probabilities(values, (k,), comb)[0, 0])


class Objective:
    """The selection objective over candidate row positions (see the module docstring)."""

    def __init__(self, pool: pd.DataFrame, s: Settings, extremes: Extremes, crs: str | None = None):
        self.s = s
        self.comb = comb_table(s.size, max(s.layouts))
        self.values = np.stack([sign * pool[column].to_numpy() for column, sign in extremes.values()])
        lat, lon = pool["lat"].to_numpy(float), pool["lon"].to_numpy(float)
        crs = crs or f"+proj=aeqd +lat_0={lat.mean()} +lon_0={lon.mean()} +datum=WGS84 +units=m"
        self.x, self.y = from_lonlat(crs).transform(lon, lat)
        self.spread_from = np.flatnonzero(pool["population"].to_numpy() >= s.min_population)
        self.x_from, self.y_from = self.x[self.spread_from], self.y[self.spread_from]
        lo, hi = math.log(s.min_population), math.log(pool["population"].max())
        self.log_pop = (np.log(pool["population"].to_numpy(float)) - lo) / (hi - lo)
        self.steps: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # the empirical CDF's steps for n cards
        self.larger = larger_nearby(self.x, self.y, pool["population"].to_numpy(), self.spread_from, s.familiar_km)
        self.well_known = well_known(pool, s)

    def km(self, cards, rows=None) -> np.ndarray:
        """Distances in km from candidates of `spread_from` (all, or those at positions `rows`) to each card
        (columns)."""
        x, y = (self.x_from, self.y_from) if rows is None else (self.x_from[rows], self.y_from[rows])
        cards = np.atleast_1d(cards)
        return np.hypot(x[:, None] - self.x[None, cards], y[:, None] - self.y[None, cards]) / 1000

    def ties(self, chosen: np.ndarray) -> float:
        return float(np.mean(tie_probabilities(self.values[:, chosen], self.s.layouts, self.comb).ravel()))

    def radius_km(self, chosen: np.ndarray) -> float:
        return float(self.km(chosen).min(axis=1).max())

    def population_ks(self, chosen: np.ndarray) -> float:
        u = np.sort(np.clip(self.log_pop[chosen], 0, 1))
        n = len(u)
        if n not in self.steps:
            self.steps[n] = (np.arange(1, n + 1) / n, np.arange(n) / n)
        above, below = self.steps[n]
        return float(max((above - u).max(), (u - below).max()))

    def passed_over(self, chosen: np.ndarray) -> float:
        """The mean, over the cards, of the log population each passes over: the most populous place that is
        no card among its larger neighbours (LARGER nearest in population within familiar_km) and the well-known
        places, less its own."""
        if not self.s.weight_familiarity:
            return 0.0
        in_deck = np.zeros(len(self.log_pop) + 1, dtype=bool)  # the last slot: "no neighbour" (-1)
        in_deck[chosen] = in_deck[-1] = True  # "no neighbour" is never passed over
        larger = self.larger[chosen]
        free = ~in_deck[larger]
        known = self.well_known[~in_deck[self.well_known]][:1]  # the most populous well-known place left out
        best = np.maximum(
            np.where(free, self.log_pop[larger], -np.inf).max(axis=1), self.log_pop[known].max(initial=-np.inf)
        )
        return float(np.maximum(best - self.log_pop[chosen], 0).mean())

    def score(self, chosen: np.ndarray, radius_km: float, bound: float = math.inf) -> float:
        """The objective of `chosen`, whose covering radius is `radius_km`; math.inf, without computing
        the tie rates, when the other terms already reach `bound` (a non-negative tie term can only
        add to them, rounding included)."""
        spread = self.s.weight_spread * radius_km / 100
        population = self.s.weight_population * self.population_ks(chosen)
        familiar = self.s.weight_familiarity * self.passed_over(chosen)
        if self.s.weight_ties >= 0 and spread + population + familiar >= bound:
            return math.inf
        return self.s.weight_ties * self.ties(chosen) + spread + population + familiar

    def __call__(self, chosen: np.ndarray) -> float:
        return self.score(chosen, self.radius_km(chosen))


def well_known(pool: pd.DataFrame, s: Settings) -> np.ndarray:
    """Positions of the well-known places, most populous first: the `well_known` share of the deck's size of the
    most populous candidates of `min_population`+ that stand on their own (`beside` "", when the column is there)."""
    people = pool["population"].to_numpy()
    alone = (people >= s.min_population) & (pool["beside"].to_numpy() == "" if "beside" in pool else True)
    rows = np.flatnonzero(alone)
    return rows[np.argsort(-people[rows], kind="stable")][: round(s.size * s.well_known)]


LARGER = 8  # the larger neighbours of a place that the familiarity term looks at, most populous first


def larger_nearby(x: np.ndarray, y: np.ndarray, population: np.ndarray, eligible: np.ndarray, km: float) -> np.ndarray:
    """For each place, the positions of the (at most LARGER) most populous `eligible` places within `km` of it
    that have more inhabitants, most populous first, padded with -1; distances in metres from x, y."""
    larger = np.full((len(x), LARGER), -1, dtype=int)
    if km <= 0 or not len(eligible):
        return larger
    by_size = eligible[np.argsort(-population[eligible], kind="stable")]
    for start in range(0, len(x), 512):  # in blocks: no places x places matrix for 5,000 towns
        rows = np.arange(start, min(start + 512, len(x)))
        near = np.hypot(x[rows, None] - x[None, by_size], y[rows, None] - y[None, by_size]) <= km * 1000
        near &= population[None, by_size] > population[rows, None]
        for row, hits in zip(rows, near):
            found = by_size[hits][:LARGER]
            larger[row, : len(found)] = found
    return larger


class Cover:
    """Each candidate's distance to its nearest and second-nearest card, kept as cards are swapped, so the
    covering radius after a swap needs the distances to the new card only where they can matter."""

    PROBE = 32  # candidates furthest from the deck, probed first for a lower bound of the radius after a swap

    def __init__(self, objective: Objective, chosen: np.ndarray):
        self.objective = objective
        self.km = objective.km(chosen)  # candidates x deck slots
        rows = len(self.km)
        self.slots, self.first, self.second = np.zeros((rows, 2), dtype=int), np.zeros(rows), np.zeros(rows)
        self._nearest(np.arange(rows))

    def _nearest(self, rows: np.ndarray) -> None:
        two = np.argpartition(self.km[rows], 1, axis=1)[:, :2]
        self.slots[rows] = two
        self.first[rows], self.second[rows] = np.take_along_axis(self.km[rows], two, axis=1).T
        probe = min(self.PROBE, len(self.first))
        self.far = np.argpartition(self.first, -probe)[-probe:]

    def radius(self) -> float:
        return float(self.first.max())

    def radius_if(self, slot: int, card: int) -> float:
        """The covering radius with the card in `slot` replaced by `card`: the largest, over candidates, of
        the distance to the nearest remaining card or to `card`. Only candidates further from the
        remaining cards than a lower bound (probed on the PROBE candidates furthest from the deck) can
        reach the maximum, so only their distances to `card` are measured."""
        without = np.where(self.slots[:, 0] == slot, self.second, self.first)
        bound = np.minimum(without[self.far], self.objective.km(card, self.far)[:, 0]).max()
        if len(rows := np.flatnonzero(without > bound)):
            bound = max(bound, np.minimum(without[rows], self.objective.km(card, rows)[:, 0]).max())
        return float(bound)

    def replace(self, slot: int, card: int) -> None:
        km = self.km[:, slot] = self.objective.km(card)[:, 0]
        stale = (self.slots == slot).any(axis=1)  # the replaced card was their nearest or second nearest
        nearest = ~stale & (km < self.first)
        second = ~stale & ~nearest & (km < self.second)
        self.second[nearest], self.slots[nearest, 1] = self.first[nearest], self.slots[nearest, 0]
        self.first[nearest], self.slots[nearest, 0] = km[nearest], slot
        self.second[second], self.slots[second, 1] = km[second], slot
        self._nearest(np.flatnonzero(stale))


def select(
    pool: pd.DataFrame, pinned: list[int], s: Settings, extremes: Extremes, division: str, crs: str | None = None
) -> np.ndarray:
    """Row positions (in `pool`) of the chosen deck, sorted; deterministic for a given seed. Distances are
    measured in `crs` (metres; default: an azimuthal equidistant projection centred on the candidates).
    The caller checks that `pool` holds at least `s.size` candidates and at most `s.size` pins."""
    rng = np.random.default_rng(s.seed)
    objective = Objective(pool, s, extremes, crs)
    states = pool[division].to_numpy()
    seeds = list(dict.fromkeys(pinned))
    for state in sorted(set(states) - set(states[seeds])):  # one seeded town per missing division
        seeds.append(int(rng.choice(np.flatnonzero(states == state))))
    seeds += [int(row) for row in objective.well_known if row not in seeds][: max(s.size - len(seeds), 0)]
    near = objective.km(seeds).min(axis=1)
    while len(seeds) < s.size:  # farthest candidate from the deck so far
        far = objective.spread_from[np.flatnonzero(near == near.max())]
        pick = int(rng.choice(np.setdiff1d(far, seeds)))
        seeds.append(pick)
        near = np.minimum(near, objective.km(pick)[:, 0])
    chosen = np.array(seeds)
    free = np.flatnonzero(~np.isin(np.arange(len(chosen)), np.arange(len(set(pinned)))))
    outside = np.setdiff1d(objective.spread_from, chosen)
    codes = np.unique(states, return_inverse=True)[1]
    cards_in = np.bincount(codes[chosen], minlength=codes.max() + 1)  # cards per division
    cover = Cover(objective, chosen)
    score = objective.score(chosen, cover.radius())
    swaps = s.iterations if len(free) and len(outside) else 0  # every candidate a card, or every card a pin
    for _ in range(swaps):
        slot, new = int(rng.choice(free)), int(rng.choice(outside))
        old = chosen[slot]
        if cards_in[codes[old]] == 1 and codes[new] != codes[old]:
            continue  # the swap would leave a division without a card
        chosen[slot] = new
        trial = objective.score(chosen, cover.radius_if(slot, new), bound=score)
        if trial < score:
            score, outside = trial, np.append(outside[outside != new], old)
            cover.replace(slot, new)
            cards_in[codes[old]] -= 1
            cards_in[codes[new]] += 1
        else:
            chosen[slot] = old
    return np.sort(chosen)


def layouts(rng: np.random.Generator, n: int, k: int, draws: int) -> np.ndarray:
    """`draws` rows of `rng.choice(n, size=k, replace=False)`: the same numbers from the same stream, in
    one numpy pass instead of `draws` calls (60,000 calls take ~0.6 s). numpy draws them by Floyd's
    algorithm and a shuffle, each number by Lemire's method from one 32-bit half of PCG64's output;
    this replays that on the raw output. When it cannot (another bit generator, n > 10,000, a rejected
    draw) or its first rows differ from rng.choice's (another numpy), it calls rng.choice."""
    saved = rng.bit_generator.state
    replayed = _replay_choice(rng, n, k, draws) if saved["bit_generator"] == "PCG64" and 0 < k <= n <= 10_000 else None
    if replayed is not None:
        check = np.random.Generator(np.random.PCG64())
        check.bit_generator.state = saved
        if all((check.choice(n, size=k, replace=False) == row).all() for row in replayed[:4]):
            return replayed
    rng.bit_generator.state = saved
    return np.array([rng.choice(n, size=k, replace=False) for _ in range(draws)]).reshape(draws, k)


def _replay_choice(rng: np.random.Generator, n: int, k: int, draws: int) -> np.ndarray | None:
    generator = rng.bit_generator
    state, per_draw = generator.state, 2 * k - 1  # k numbers for Floyd's algorithm, k - 1 for the shuffle
    pending = [state["uinteger"]] if state["has_uint32"] else []
    words = generator.random_raw(-(-(draws * per_draw - len(pending)) // 2))
    halves = np.concatenate([np.array(pending, dtype=np.uint64), np.c_[words & 0xFFFFFFFF, words >> 32].ravel()])
    state = dict(generator.state)
    state["has_uint32"], state["uinteger"] = int(len(halves) > draws * per_draw), int(halves[-1])
    generator.state = state
    halves = halves[: draws * per_draw].reshape(draws, per_draw)

    def bounded(column: int, top: int) -> np.ndarray | None:  # numbers in 0..top, None on a rejection
        scaled = halves[:, column] * np.uint64(top + 1)
        if ((scaled & np.uint64(0xFFFFFFFF)) < (0xFFFFFFFF - top) % (top + 1)).any():
            return None
        return (scaled >> np.uint64(32)).astype(np.int64)

    picks = np.empty((draws, k), dtype=np.int64)
    for column, top in enumerate(range(n - k, n)):  # Floyd: a number already taken is replaced by `top`
        if (value := bounded(column, top)) is None:
            return None
        picks[:, column] = np.where((picks[:, :column] == value[:, None]).any(axis=1), top, value)
    rows = np.arange(draws)
    for column, last in enumerate(range(k - 1, 0, -1), start=k):  # Fisher-Yates, from the last place
        if (other := bounded(column, last)) is None:
            return None
        swapped = picks[rows, other]
        picks[rows, other] = picks[:, last]
        picks[:, last] = swapped
    return picks
