"""Regression measures (eqs 2.2 and 2.3's continuous form) as Polars aggregate expressions."""

from __future__ import annotations

import polars as pl

from frameeval._validate import attach_guard, expression_guard
from frameeval.metrics._counts import ratio, weight_expr, weight_total


def _weighted_mean(term: pl.Expr, weight: str | None) -> pl.Expr:
    if weight is None:
        return term.mean()
    return ratio((weight_expr(weight) * term).sum(), weight_total(weight), None)


def _guarded(value: pl.Expr, name: str, truth: str, pred: str, weight: str | None) -> pl.Expr:
    guard = expression_guard(name, numbers=[(truth, "truth"), (pred, "pred")], weight=weight)
    return attach_guard(value, guard).alias(name)


def mse(truth: str, pred: str, *, weight: str | None = None) -> pl.Expr:
    """Mean squared error.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``mse``.

    Notes
    -----
    E(f; D) = Σ w·(f(x) − y)² / Σ w  (eq 2.2; over a density, eq 2.3 / 2.4). Lower is better,
    range [0, ∞). Null for an empty group or zero total weight.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.5, 2.0, 2.0]})
    >>> df.select(fe.mse("y", "f")).item()
    0.4166666666666667
    """
    return _guarded(_squared_error(truth, pred, weight), "mse", truth, pred, weight)


def _squared_error(truth: str, pred: str, weight: str | None) -> pl.Expr:
    term = (pl.col(pred).cast(pl.Float64) - pl.col(truth).cast(pl.Float64)) ** 2
    return _weighted_mean(term, weight)


def rmse(truth: str, pred: str, *, weight: str | None = None) -> pl.Expr:
    """Root mean squared error, √MSE (same units as the target).

    Returns an expression named ``rmse``; null where :func:`mse` is null.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.0, 2.0, 5.0]})
    >>> round(df.select(fe.rmse("y", "f")).item(), 6)
    1.154701
    """
    # its own guard, so an invalid value is reported as rmse(), not mse()
    return _guarded(_squared_error(truth, pred, weight).sqrt(), "rmse", truth, pred, weight)


def mae(truth: str, pred: str, *, weight: str | None = None) -> pl.Expr:
    """Mean absolute error, Σ w·|f(x) − y| / Σ w. Lower is better.

    Returns an expression named ``mae``; null for an empty group or zero total weight.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.5, 2.0, 2.0]})
    >>> df.select(fe.mae("y", "f")).item()
    0.5
    """
    term = (pl.col(pred).cast(pl.Float64) - pl.col(truth).cast(pl.Float64)).abs()
    return _guarded(_weighted_mean(term, weight), "mae", truth, pred, weight)
