"""The project's one rounding rule: half up (away from zero) on a number's shortest decimal form, so 2.675
rounds to 2.68 and 0.5 to 1 (Python's round() gives 2.67 and 0)."""

from decimal import ROUND_HALF_UP, Decimal


def round_half_up(value: float, decimals: int = 0) -> float:
    return float(Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
