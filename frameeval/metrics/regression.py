"""Regression measures (eq 2.2 and its density form 2.3), declared once each.

Their sufficient statistics are sums: Σ w·term over the rows and Σ w, so they merge across
partitions by addition.
"""

from __future__ import annotations

import polars as pl

from frameeval.metrics._builders import make_builder
from frameeval.metrics._stats import ratio
from frameeval.metrics.measure import Measure, register

__all__ = ["MAE", "MSE", "RMSE", "mae", "mse", "rmse"]


def _squared(y: pl.Expr, f: pl.Expr) -> pl.Expr:
    return (f - y) ** 2


def _absolute(y: pl.Expr, f: pl.Expr) -> pl.Expr:
    return (f - y).abs()


def _mean(term_sum: pl.Expr, weight_sum: pl.Expr) -> pl.Expr:
    return ratio(term_sum, weight_sum)


MSE = register(
    Measure(
        "mse",
        "regression",
        _mean,
        False,
        0.0,
        None,
        "2.2",
        "mean squared error",
        "E(f; D) = Σ w·(f(x) − y)² / Σ w  (over a density: eq 2.3)",
        "the group is empty or its total weight is 0",
        term=_squared,
        example="0.4167",
    )
)
RMSE = register(
    Measure(
        "rmse",
        "regression",
        lambda s, w: _mean(s, w).sqrt(),
        False,
        0.0,
        None,
        "2.2",
        "root mean squared error, √MSE (same units as the target)",
        "RMSE = √(Σ w·(f(x) − y)² / Σ w)",
        "the group is empty or its total weight is 0",
        term=_squared,
        example="0.6455",
    )
)
MAE = register(
    Measure(
        "mae",
        "regression",
        _mean,
        False,
        0.0,
        None,
        "—",
        "mean absolute error",
        "MAE = Σ w·|f(x) − y| / Σ w",
        "the group is empty or its total weight is 0",
        term=_absolute,
        example="0.5",
    )
)

mse = make_builder(MSE)
rmse = make_builder(RMSE)
mae = make_builder(MAE)

__test__ = {"mse": mse.__doc__ or "", "rmse": rmse.__doc__ or "", "mae": mae.__doc__ or ""}
