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
    """Σ w over the group (the row count without ``weight=``)."""
    if weight is None:
        return pl.len()
    return pl.col(weight).cast(pl.Float64).sum()


def total(condition: pl.Expr, weight: str | None) -> pl.Expr:
    """Σ w·[condition] over the group (the book's Σ p(x)·I(·), eq 2.5).

    Unweighted it is a UInt32 count (Polars' fast path); every use divides it (true division
    gives Float64) or subtracts a smaller count from it, never multiplies two counts.
    """
    if weight is None:
        return condition.sum()
    return (weight_expr(weight) * condition.cast(pl.Float64)).sum()


def binary_counts(truth: str, pred: str, pos_label: Any, weight: str | None) -> dict[str, pl.Expr]:
    """TP, FP, FN, TN (Table 2.1) with ``pos_label`` as the positive class, and the number of
    actual positives (``actual``), predicted positives (``predicted``) and negatives
    (``negative``).

    Unweighted, FP, FN, TN and the negatives are differences of four integer counts — TP, the
    actual positives, the predicted positives and the total — which is exact, so a measure costs
    at most four aggregations. Weighted, each is its own sum: a difference of two float sums
    loses a small count next to large weights (catastrophic cancellation; e.g. negatives of
    weight 1e-3 beside positives of weight 1e9 gave FPR 0.16672 for 1/6).
    """
    actual = pl.col(truth) == pos_label
    predicted = pl.col(pred) == pos_label
    tp = total(actual & predicted, weight)
    n_actual = total(actual, weight)
    n_predicted = total(predicted, weight)
    if weight is None:
        negative = weight_total(weight) - n_actual
        fp = n_predicted - tp
        fn = n_actual - tp
        tn = negative - fp
    else:
        negative = total(~actual, weight)
        fp = total(~actual & predicted, weight)
        fn = total(actual & ~predicted, weight)
        tn = total(~actual & ~predicted, weight)
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "actual": n_actual,
        "predicted": n_predicted,
        "negative": negative,
    }


def ratio(numerator: pl.Expr, denominator: pl.Expr, zero_division: float | None) -> pl.Expr:
    """numerator / denominator, with ``zero_division`` (default null) for 0/0.

    Every ratio here has 0 <= numerator <= c·denominator, so a zero denominator means 0/0 = NaN,
    which becomes ``zero_division``; no branch evaluates the sums twice.
    """
    return (numerator / denominator).fill_nan(pl.lit(zero_division, dtype=pl.Float64))
