"""95 % intervals and three-way verdicts: a measured interval against an allowed band.

Proportions get Wilson's score interval (good near 0 and 1, where the normal one leaves [0, 1]); means
get Student's t interval from their count, sum and sum of squares; a ratio of sums (a card's wins over
its fair share) gets the ratio estimator's linearised (delta-method) t interval. A verdict passes when
the whole interval is inside the band, fails when the whole interval is outside it, and is undecided
(run more games) when the interval straddles a bound.
"""

import math
from dataclasses import dataclass

from scipy import stats

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_json(self) -> dict:
        return {"value": round(self.value, 4), "low": round(self.low, 4), "high": round(self.high, 4)}

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson(successes: float, n: int) -> Interval:
    """Wilson score interval of a proportion; fractional successes (shared wins) are allowed."""
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def t_quantile(n: int) -> float:
    return float(stats.t.ppf(0.975, n - 1)) if n > 1 else math.inf


def mean(n: int, total: float, squares: float) -> Interval:
    """Student's t interval of a mean from the count, sum and sum of squares of the values."""
    if n == 0:
        return Interval(0.0, -math.inf, math.inf)
    m = total / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    variance = max(0.0, (squares - n * m * m) / (n - 1))
    half = t_quantile(n) * math.sqrt(variance / n)
    return Interval(m, m - half, m + half)


def mean_of(values: list[float]) -> Interval:
    return mean(len(values), math.fsum(values), math.fsum(v * v for v in values))


def ratio(n: int, a: float, w: float, aa: float, ww: float, aw: float) -> Interval:
    """Interval of R = Σw / Σa from n pairs (a_i, w_i) given Σa, Σw, Σa², Σw², Σaw (delta method)."""
    if n < 2 or a == 0:
        return Interval(w / a if a else 0.0, -math.inf, math.inf)
    r = w / a
    residuals = max(0.0, (ww - 2 * r * aw + r * r * aa) / (n - 1))
    half = t_quantile(n) * math.sqrt(residuals / n) / (a / n)
    return Interval(r, r - half, r + half)


def judge(interval: Interval, low: float, high: float) -> str:
    """pass: the whole interval in [low, high]; fail: the whole interval outside; else undecided."""
    if interval.high < low or interval.low > high:
        return FAIL
    if low <= interval.low and interval.high <= high:
        return PASS
    return UNDECIDED


def worst(results: list[str]) -> str:
    """fail beats undecided beats pass; no results: pass."""
    return FAIL if FAIL in results else UNDECIDED if UNDECIDED in results else PASS


def verdict(name: str, interval: Interval, low: float, high: float, reason: str, detail: str = "") -> dict:
    """One verdict of a report: a measured interval against the allowed band [low, high], and why that band."""
    return {
        "name": name,
        **interval.to_json(),
        "band": [round(low, 4), round(high, 4)],
        "result": judge(interval, low, high),
        "detail": detail,
        "reason": reason,
    }
