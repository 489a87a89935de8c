"""95 % intervals and three-way verdicts: a measured interval against an allowed band.

Proportions get Wilson's score interval (good near 0 and 1, where the normal one leaves [0, 1]); means
get Student's t interval from their count, sum and sum of squares; a ratio of sums (a card's wins over
its fair share) gets the ratio estimator's linearised (delta-method) t interval. Each takes the error
`alpha` it may make (two-sided; 0.05: a 95 % interval); a verdict's interval gets its share of the
family's 5 % (Bonferroni, `runner`). A verdict passes when the whole interval lies inside the band widened
by its margin (a difference a table does not notice), fails when the whole interval lies outside the band,
and is undecided (run more games) otherwise: an interval narrower than the margin always decides. An
undecided interval that lies wholly within ± `equivalence` of the band (closer to its thresholds than a table
notices: `noticed`) is *level* with it, an equivalence test (TOST): decided, it counts as a pass.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

from scipy import special  # not scipy.stats: the same quantiles, a third of its import time

from pipeline.i18n.catalogue import N_

ALPHA = 0.05  # a 95 % interval
PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"
TIES = N_("ties: {category}")  # the name of a category's ties verdict (the ties plot finds its band by it)


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_json(self) -> dict:
        return {"value": round(self.value, 4), "low": round(self.low, 4), "high": round(self.high, 4)}

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def z_quantile(alpha: float) -> float:
    """The standard normal's 1 - alpha/2 quantile (1.96 for alpha 0.05)."""
    return float(-special.ndtri(alpha / 2))


def wilson(successes: float, n: int, alpha: float = ALPHA) -> Interval:
    """Wilson score interval of a proportion; fractional successes (shared wins) are allowed."""
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z = z_quantile(alpha)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def t_quantile(n: int, alpha: float = ALPHA) -> float:
    return float(-special.stdtrit(n - 1, alpha / 2)) if n > 1 else math.inf


def mean(n: int, total: float, squares: float, alpha: float = ALPHA) -> Interval:
    """Student's t interval of a mean from the count, sum and sum of squares of the values."""
    if n == 0:
        return Interval(0.0, -math.inf, math.inf)
    m = total / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    variance = max(0.0, (squares - n * m * m) / (n - 1))
    half = t_quantile(n, alpha) * math.sqrt(variance / n)
    return Interval(m, m - half, m + half)


def mean_of(values: list[float]) -> Interval:
    return mean(len(values), math.fsum(values), math.fsum(v * v for v in values))


def ratio(n: int, a: float, w: float, aa: float, ww: float, aw: float, alpha: float = ALPHA) -> Interval:
    """Interval of R = Σw / Σa from n pairs (a_i, w_i) given Σa, Σw, Σa², Σw², Σaw (delta method)."""
    if n < 2 or a == 0:
        return Interval(w / a if a else 0.0, -math.inf, math.inf)
    r = w / a
    residuals = max(0.0, (ww - 2 * r * aw + r * r * aa) / (n - 1))
    half = t_quantile(n, alpha) * math.sqrt(residuals / n) / (a / n)
    return Interval(r, r - half, r + half)


def judge(interval: Interval, low: float, high: float, margin: float = 0.0) -> str:
    """pass: the whole interval in [low - margin, high + margin]; fail: the whole interval outside [low, high];
    else undecided."""
    if interval.high < low or interval.low > high:
        return FAIL
    if low - margin <= interval.low and interval.high <= high + margin:
        return PASS
    return UNDECIDED


def level(interval: Interval, low: float, high: float, within: float) -> bool:
    """Whether the whole interval lies within ± `within` of the band [low, high]: the figure may be beyond a
    threshold, but by less than `within` (two one-sided tests, each at the interval's error)."""
    return within > 0 and low - within <= interval.low and interval.high <= high + within


def noticed(interval: Interval, low: float, high: float, games: int) -> float:
    """The smallest difference from the band a table notices in a share of `games` games it played: two
    standard errors of its count at the threshold nearest the measured value, 2·√(b(1 − b)/games)."""
    bound = min((low, high), key=lambda b: abs(b - interval.value))
    bound = min(1.0, max(0.0, bound))
    return 2 * math.sqrt(bound * (1 - bound) / games) if games > 0 else 0.0


def games_to_decide(interval: Interval, low: float, high: float, margin: float, games: int) -> int | None:
    """About how many games would decide an undecided verdict measured on `games` games: each side of its
    interval narrows as 1/sqrt(games) around its value until the interval fits the widened band or leaves
    the band; None when no number of games would (no margin and a value on a bound). The sides shrink
    separately: a share of 0 (no long game yet) has no room below it and needs none there."""
    value, below, above = interval.value, interval.value - interval.low, interval.high - interval.value
    shrink = []  # how far each way of deciding needs the sides to shrink (a factor of the half-widths)
    room_low, room_high = value - (low - margin), high + margin - value
    if room_low > 0 and room_high > 0:
        shrink.append(min(_room(room_low, below), _room(room_high, above)))
    if value < low:
        shrink.append(_room(low - value, above))
    elif value > high:
        shrink.append(_room(value - high, below))
    factor = max(shrink, default=0.0)
    if factor <= 0:
        return None
    return max(games + 1, math.ceil(games / factor**2)) if factor < math.inf else games + 1


def _room(distance: float, half: float) -> float:
    """The factor a half-width must shrink by to fit in `distance` (inf: it has none)."""
    return distance / half if half > 0 else math.inf


Judge = Callable[[float], dict]  # a verdict, judged with the error `alpha` it is given (its share of the family's)


def settled(found: dict) -> Judge:
    """A verdict whose figure has no interval (a count): the same at every error."""
    return lambda alpha: found


def worst(results: list[str]) -> str:
    """fail beats undecided beats pass; no results: pass."""
    return FAIL if FAIL in results else UNDECIDED if UNDECIDED in results else PASS


def verdict(
    name: str,
    interval: Interval,
    low: float,
    high: float,
    reason: str,
    detail: str = "",
    margin: float = 0.0,
    playouts: str = "",
    checks: int = 1,
    equivalence: float = 0.0,
) -> dict:
    """One verdict of a report: a measured interval against the allowed band [low, high] (a pass may
    exceed it by `margin`; an undecided interval within ± `equivalence` of a bound passes as `level`), and
    why that band; `playouts` names the kind of playout it is measured on (more games of it decide it),
    `checks` the intervals it judges (Bonferroni: each gets a share)."""
    result = judge(interval, low, high, margin)
    even = result == UNDECIDED and level(interval, low, high, equivalence)
    return {
        "name": name,
        **interval.to_json(),
        "band": [round(low, 4), round(high, 4)],
        "margin": round(margin, 4),
        "equivalence": round(equivalence, 4),
        "result": PASS if even else result,
        "level": even,
        "detail": detail,
        "reason": reason,
        "playouts": playouts,
        "checks": checks,
    }
