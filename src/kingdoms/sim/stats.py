"""Statistics for simulation reports."""

from __future__ import annotations

import math


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95 % by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
