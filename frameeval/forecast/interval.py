"""Prediction intervals as expressions: coverage, width and the interval (Winkler) score.

Each builder returns a ``pl.Expr`` aggregate, so it works in any ``select``, ``group_by().agg()``
or ``.over()``, weighted with ``weight=``. Inputs are checked by the measures' rules
(:func:`frameeval._inputs.guarded_numbers`, decided when Polars plans the query): ``truth``, ``lower``,
``upper`` and ``weight`` must be numeric, complete and finite, weights ≥ 0, and every row must
have ``lower <= upper``; a failure is a typed ``FrameEvalError`` naming the function, the
column and the value. ``alpha`` must lie in (0, 1).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._inputs import guarded_numbers
from frameeval._validate import check_alpha, check_parameter, failure
from frameeval.exceptions import InvalidValueError
from frameeval.metrics.stats import positive_part


def _number(column: str) -> pl.Expr:
    # non-strict: a string column never reaches the value, the guard raises first
    return pl.col(column).cast(pl.Float64, strict=False)


def _weighted_mean(term: pl.Expr, weight: str | None) -> pl.Expr:
    """Σ w·term / Σ w (the mean without ``weight``); null for an empty group or Σ w = 0."""
    if weight is None:
        return term.sum() / positive_part(pl.len().cast(pl.Float64))  # empty: null
    w = _number(weight)
    return (w * term).sum() / positive_part(w.sum())


def _inputs(func: str, weight: Any, **columns: Any) -> tuple[str | None, dict[str, str]]:
    """The checked ``weight=`` and column names (role → column, in the order given)."""
    check_parameter(
        weight is None or isinstance(weight, str),
        func,
        f"weight must be a column name or None, got {weight!r}.",
    )
    for role, value in columns.items():  # loop-ok: the argument names
        check_parameter(
            isinstance(value, str), func, f"{role} must be a column name (a string), got {value!r}."
        )
    return weight, dict(columns)


def _mean(func: str, term: pl.Expr, names: dict[str, str], weight: str | None) -> pl.Expr:
    """The (weighted) mean of ``term``, named ``func``, behind the input rules of the columns
    ``names`` (role → column) and the rule lower <= upper."""
    lower, upper = names["lower"], names["upper"]
    bad = _number(lower) > _number(upper)
    crossed = failure(
        bad.any(),
        InvalidValueError,
        f"{func}(): column {lower!r} (lower=) must be <= column {upper!r} (upper=) in every "
        "row, got lower {} > upper {}.",
        _number(lower).filter(bad).first(),
        _number(upper).filter(bad).first(),
    )
    roles = [(column, role) for role, column in names.items()]
    value = _weighted_mean(term, weight)
    return guarded_numbers(func, value, roles, weight, [crossed]).alias(func)


def interval_coverage(truth: str, lower: str, upper: str, *, weight: str | None = None) -> pl.Expr:
    """Share of rows whose true value lies inside its prediction interval [lower, upper].

    Read it against the interval's nominal level: a central 90 % interval should cover about
    0.9 of the truths.

    Parameters
    ----------
    truth
        Column with the true values (numeric, finite).
    lower, upper
        Columns with each row's interval bounds (numeric, finite, ``lower <= upper``).
    weight
        Optional column of non-negative weights.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``interval_coverage``.

    Notes
    -----
    coverage = Σᵢ wᵢ·[lᵢ ≤ yᵢ ≤ uᵢ] / Σᵢ wᵢ (closed interval). Range [0, 1]; neither
    direction is better, the target is the nominal level. Null for an empty group or a zero
    total weight.

    References
    ----------
    Gneiting, T., & Raftery, A. E. (2007). Strictly proper scoring rules, prediction, and
    estimation. Journal of the American Statistical Association 102(477), 359–378.

    See Also
    --------
    interval_width, interval_score

    Examples
    --------
    >>> df = fe.datasets.interval_forecasts()
    >>> round(df.select(fe.interval_coverage("y", "lo", "hi")).item(), 4)
    0.5
    """
    func = "interval_coverage"
    weight, names = _inputs(func, weight, truth=truth, lower=lower, upper=upper)
    t, low, high = (_number(c) for c in names.values())
    inside = ((low <= t) & (t <= high)).cast(pl.Float64)
    return _mean(func, inside, names, weight)


def interval_width(lower: str, upper: str, *, weight: str | None = None) -> pl.Expr:
    """Mean width of the prediction intervals, upper − lower (their sharpness).

    Parameters
    ----------
    lower, upper, weight
        As in :func:`interval_coverage`.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``interval_width``.

    Notes
    -----
    width = Σᵢ wᵢ·(uᵢ − lᵢ) / Σᵢ wᵢ. Range [0, ∞); narrower is sharper, but only at the same
    coverage (see :func:`interval_score`, which weighs both). Null for an empty group or a zero
    total weight.

    See Also
    --------
    interval_coverage, interval_score

    Examples
    --------
    >>> df = fe.datasets.interval_forecasts()
    >>> round(df.select(fe.interval_width("lo", "hi")).item(), 4)
    1.0833
    """
    func = "interval_width"
    weight, names = _inputs(func, weight, lower=lower, upper=upper)
    return _mean(func, _number(names["upper"]) - _number(names["lower"]), names, weight)


def interval_score(
    truth: str, lower: str, upper: str, *, alpha: float, weight: str | None = None
) -> pl.Expr:
    """Interval (Winkler) score of central (1 − alpha) prediction intervals: width plus a
    penalty of 2/alpha per unit by which the truth falls outside.

    A proper scoring rule for the pair of quantiles (alpha/2, 1 − alpha/2): it rewards narrow
    intervals and punishes misses, so it is minimised in expectation by the true quantiles.

    Parameters
    ----------
    truth, lower, upper, weight
        As in :func:`interval_coverage`.
    alpha
        The intervals' miscoverage: they are central (1 − alpha) intervals, alpha in (0, 1)
        (0.1 for 90 % intervals).

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``interval_score``.

    Notes
    -----
    IS_α(l, u; y) = (u − l) + (2/α)·(l − y)·[y < l] + (2/α)·(y − u)·[y > u] (Gneiting &
    Raftery 2007, eq 43), averaged as Σᵢ wᵢ·ISᵢ / Σᵢ wᵢ. Range [0, ∞), lower is better. Null
    for an empty group or a zero total weight. (α/2)·IS_α equals the sum of the pinball losses
    of l at level α/2 and of u at level 1 − α/2, which is how it enters the weighted interval
    score (:func:`weighted_interval_score`).

    References
    ----------
    Winkler, R. L. (1972). A decision-theoretic approach to interval estimation. Journal of the
    American Statistical Association 67(337), 187–191.

    Gneiting, T., & Raftery, A. E. (2007). Strictly proper scoring rules, prediction, and
    estimation. Journal of the American Statistical Association 102(477), 359–378.

    See Also
    --------
    interval_coverage, interval_width, weighted_interval_score

    Examples
    --------
    >>> df = fe.datasets.interval_forecasts()
    >>> round(df.select(fe.interval_score("y", "lo", "hi", alpha=0.2)).item(), 4)
    3.5833
    """
    func = "interval_score"
    weight, names = _inputs(func, weight, truth=truth, lower=lower, upper=upper)
    a = check_alpha(alpha, func)
    t, low, high = (_number(c) for c in names.values())
    term = (
        (high - low)
        + (2.0 / a) * (low - t).clip(lower_bound=0.0)
        + (2.0 / a) * (t - high).clip(lower_bound=0.0)
    )
    return _mean(func, term, names, weight)


__all__ = ["interval_coverage", "interval_score", "interval_width"]
