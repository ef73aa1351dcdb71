"""The counts kernel: (weighted) confusion counts as aggregate expressions.

Every label measure is a ratio of these counts, so one definition serves the expression builders
(``fe.precision(...)`` inside any ``group_by().agg()``) and the frame functions. Counts are
Float64 (weighted sums) so products never overflow Polars' 32-bit row counts.
"""

from __future__ import annotations

from typing import Any

import polars as pl


def weight_expr(weight: str | None) -> pl.Expr:
    """Per-row weight as Float64 (1.0 without ``weight=``)."""
    return pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0, dtype=pl.Float64)


def weight_total(weight: str | None) -> pl.Expr:
    """Σ w over the group (the row count, as Float64, without ``weight=``)."""
    if weight is None:
        return pl.len().cast(pl.Float64)
    return pl.col(weight).cast(pl.Float64).sum()


def total(condition: pl.Expr, weight: str | None) -> pl.Expr:
    """Σ w·[condition] over the group, Float64 (the book's Σ p(x)·I(·), eq 2.5)."""
    if weight is None:
        return condition.sum().cast(pl.Float64)
    return (weight_expr(weight) * condition.cast(pl.Float64)).sum()


def binary_counts(truth: str, pred: str, pos_label: Any, weight: str | None) -> dict[str, pl.Expr]:
    """TP, FP, FN, TN (Table 2.1) with ``pos_label`` as the positive class."""
    actual = pl.col(truth) == pos_label
    predicted = pl.col(pred) == pos_label
    return {
        "tp": total(actual & predicted, weight),
        "fp": total(~actual & predicted, weight),
        "fn": total(actual & ~predicted, weight),
        "tn": total(~actual & ~predicted, weight),
    }


def ratio(numerator: pl.Expr, denominator: pl.Expr, zero_division: float | None) -> pl.Expr:
    """numerator / denominator; ``zero_division`` (default null) where the denominator is 0."""
    return (
        pl.when(denominator > 0)
        .then(numerator / denominator)
        .otherwise(pl.lit(zero_division, dtype=pl.Float64))
    )
