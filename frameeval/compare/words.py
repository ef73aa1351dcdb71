"""How the comparison results are written in words and tables: p-values, values by their
scale, intervals."""

from __future__ import annotations

import numpy as np
import polars as pl


def format_p(p: float | None) -> str:
    """A p-value in words, the one rule every sentence of ``frameeval.compare`` uses:
    ``"p < 0.001"`` below 0.001, otherwise ``"p = "`` and three significant digits
    (``"p = 0.0123"``, ``"p = 0.500"``; never ``"p = 0.0"``); ``"p undefined"`` for a null or
    NaN."""
    if p is None or not np.isfinite(p):
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:#.3g}"


#: Digits after the decimal point of a metric value or an average rank, in the results table
#: and in every sentence that cites one (the verdict, the headline): one rounding for both.
DECIMALS = 3


def value_decimals(x: float | None) -> int:
    """The display rule's digits after the point, by the value's scale: :data:`DECIMALS` (3)
    below 10 (accuracies, AUCs, average ranks: ``0.923``, ``1.625``), then four significant
    digits — 2 below 100, 1 below 1,000, none above (an RMSE of ``123.4``, not ``123.456``)."""
    a = abs(x) if x is not None and np.isfinite(x) else 0.0
    return DECIMALS if a < 10 else 2 if a < 100 else 1 if a < 1000 else 0


def decimals_expr(x: pl.Expr) -> pl.Expr:
    """``x`` rounded as :func:`format_value` prints it (by :func:`value_decimals`)."""
    a = x.abs()
    return (
        pl.when(a < 10)
        .then(x.round(DECIMALS))
        .when(a < 100)
        .then(x.round(2))
        .when(a < 1000)
        .then(x.round(1))
        .otherwise(x.round(0))
    )


def format_value(x: float | None, decimals: int | None = None) -> str:
    """A metric value or an average rank as every table, verdict and headline prints it:
    ``decimals`` digits after the point, by default by the value's scale
    (:func:`value_decimals`: ``1.625`` → ``"1.625"``, never ``"1.62"``; ``123.456`` →
    ``"123.5"``); ``"undefined"`` for a null or NaN, ``"∞"`` / ``"−∞"`` for an infinity."""
    if x is None or np.isnan(x):
        return "undefined"
    if not np.isfinite(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{value_decimals(x) if decimals is None else decimals}f}"


def format_interval(
    x: float | None, low: float | None, high: float | None, decimals: int | None = None
) -> str:
    """A value with its interval as the results table prints it: ``"0.912 [0.887, 0.934]"``
    (the bounds with the value's digits); the value alone when either bound is null or NaN."""
    digits = value_decimals(x) if decimals is None else decimals
    value = format_value(x, digits)
    if low is None or high is None or np.isnan(low) or np.isnan(high):
        return value
    return f"{value} [{format_value(low, digits)}, {format_value(high, digits)}]"


def format_p_expr(p: pl.Expr) -> pl.Expr:
    """:func:`format_p` on a column of p-values (String), for sentences built in a plan."""

    def words(series: pl.Series) -> pl.Series:
        # loop-ok: words, one per group, after the statistics
        return pl.Series([format_p(x) for x in series.to_list()], dtype=pl.String)

    return p.cast(pl.Float64).map_batches(words, return_dtype=pl.String)
