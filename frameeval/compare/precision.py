"""The precision at which rank-based procedures compare values (``digits=``): rounding so that
decimal ties stay ties."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval.compare.plan import DIGITS

#: Significant digits kept before values (and differences of values) are ranked.
RANK_DIGITS = 12


def check_digits(digits: Any, func: str) -> int | None:
    """``digits=`` of a rank-based procedure: an integer in [1, 15], or None (no rounding)."""
    value: int | None = DIGITS(func, "digits", digits)
    return value


def rounded(value: pl.Expr, digits: int | None, scale: pl.Expr | None = None) -> pl.Expr:
    """``value`` rounded to ``digits`` significant digits of ``scale`` (default: of ``value``).

    The one place where rank-based procedures round what they rank. With
    e = ⌊log₁₀ |scale|⌋ and s = digits − 1 − e,

        rounded(x) = round(x · 10^s) / 10^s           (10^−s · round(x / 10^−s) when s < 0)

    an integer count of units of 10^−s, divided by an exact power of ten: the correctly rounded
    double of that decimal. Two values equal as decimals (0.63 − 0.62 and 0.68 − 0.67, or
    0.69 · 100 and 69) therefore give the same double even when their floating-point forms
    differ in the last bits. A difference takes the scale of its operands (max(|a|, |b|)):
    its floating-point error is relative to them, not to itself. ``digits=None`` returns
    ``value`` unchanged; a zero (or null) scale leaves the value as it is.
    """
    if digits is None:
        return value
    reference = (value if scale is None else scale).abs()
    exponent = (pl.lit(digits - 1, dtype=pl.Float64) - reference.log10().floor()).clip(-300, 300)
    power = pl.lit(10.0).pow(exponent.abs())
    up = (value * power).round(0) / power
    down = (value / power).round(0) * power
    out = pl.when(exponent >= 0).then(up).otherwise(down)
    return pl.when(reference > 0).then(out).otherwise(value)


def rounded_difference(a: pl.Expr, b: pl.Expr, digits: int | None) -> pl.Expr:
    """a − b as rank-based procedures compare it: the difference of the values rounded to
    ``digits`` significant digits, itself rounded to ``digits`` significant digits of
    max(|a|, |b|) (:func:`rounded`), so 0.63 − 0.62 and 0.68 − 0.67 are one difference, 0.01."""
    a, b = rounded(a, digits), rounded(b, digits)
    return rounded(a - b, digits, pl.max_horizontal(a.abs(), b.abs()))
