"""Proper scoring rules of a binary probabilistic prediction as Polars aggregate expressions.

A probability measure reads the true label ``truth`` and ``score``, the predicted probability
that the row is of the positive class ``pos_label``. Both measures here are means of a per-row
loss, so their sufficient statistics are two sums: Σ w·loss and Σ w (the row count without
``weight=``). Each is written as three small pieces, so a measure declaration can reuse them:

* the per-row loss (:func:`log_loss_terms`, :func:`brier_terms`),
* the statistics (Σ w·loss, Σ w; :func:`loss_statistics`),
* the formula from the statistics (:func:`mean_loss_value`: Σ w·loss / Σ w, null when Σ w = 0).

A score outside [0, 1] is not a probability: it is a typed error (``InvalidValueError``), never
clipped. Inside the logarithm of the log loss the probability is clipped to [eps, 1 − eps] (eps
= 2⁻⁵², the float64 machine epsilon, as scikit-learn ≥ 1.5 does), so a confident wrong
prediction costs −log(eps) ≈ 36.04 instead of infinity.

The multiclass forms (one probability column per class, or a list column) are frame functions:
:func:`frameeval.multiclass_log_loss` and :func:`frameeval.multiclass_brier_score`.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from frameeval._validate import attach_guard, check_parameter, expression_guard
from frameeval.metrics._counts import weight_expr, weight_total

__all__ = [
    "EPS",
    "brier_score",
    "brier_terms",
    "log_loss",
    "log_loss_terms",
    "loss_statistics",
    "mean_loss_value",
]

EPS = 2.220446049250313e-16
"""The default clip of :func:`log_loss`: float64 machine epsilon 2⁻⁵² (scikit-learn's choice)."""


def check_eps(func: str, eps: Any) -> float:
    """``eps=``: a number in (0, 0.5)."""
    ok = (
        isinstance(eps, int | float)
        and not isinstance(eps, bool)
        and math.isfinite(eps)
        and 0.0 < eps < 0.5
    )
    check_parameter(ok, func, f"eps must be a number in (0, 0.5), got {eps!r}.")
    return float(eps)


# ---------------------------------------------------------------------------------------------
# the pieces: per-row loss, statistics, formula
# ---------------------------------------------------------------------------------------------
def log_loss_terms(truth: str, score: str, pos_label: Any = 1, eps: float = EPS) -> pl.Expr:
    """Per row: −log q, q the probability given to the row's actual class, clipped to
    [eps, 1 − eps] (q = score for a positive row, 1 − score for any other)."""
    p = pl.col(score).cast(pl.Float64)
    q = pl.when(pl.col(truth) == pos_label).then(p).otherwise(1.0 - p)
    return -(q.clip(eps, 1.0 - eps).log())


def brier_terms(truth: str, score: str, pos_label: Any = 1) -> pl.Expr:
    """Per row: (y − p)², y = 1 for a positive row and 0 otherwise, p the score."""
    y = (pl.col(truth) == pos_label).cast(pl.Float64)
    return (y - pl.col(score).cast(pl.Float64)) ** 2


def loss_statistics(terms: pl.Expr, weight: str | None) -> tuple[pl.Expr, pl.Expr]:
    """The sufficient statistics of a mean loss: (Σ w·loss, Σ w), both Float64 aggregates."""
    if weight is None:
        return terms.sum(), weight_total(None).cast(pl.Float64)
    return (weight_expr(weight) * terms).sum(), weight_total(weight)


def mean_loss_value(loss_sum: pl.Expr, weight_sum: pl.Expr) -> pl.Expr:
    """The formula of both measures: Σ w·loss / Σ w, null when Σ w = 0 (an empty group or one
    whose rows all weigh 0)."""
    return loss_sum / pl.when(weight_sum > 0).then(weight_sum)


def _guarded(value: pl.Expr, name: str, truth: str, score: str, weight: str | None) -> pl.Expr:
    guard = expression_guard(
        name, labels=[(truth, "truth")], probabilities=[(score, "score")], weight=weight
    )
    return attach_guard(value, guard).alias(name)


# ---------------------------------------------------------------------------------------------
# expression builders
# ---------------------------------------------------------------------------------------------
def log_loss(
    truth: str,
    score: str,
    *,
    pos_label: Any = 1,
    weight: str | None = None,
    eps: float = EPS,
) -> pl.Expr:
    """Log loss (cross-entropy) of the predicted probability of the positive class.

    Parameters
    ----------
    truth
        Column with the true label; ``pos_label`` is the positive class, every other value is
        negative.
    score
        Column with the predicted probability of ``pos_label``: numeric, finite, in [0, 1].
    pos_label
        The positive class (default 1; ``True`` for a boolean column, the class name for
        strings).
    weight
        Optional column of non-negative weights (scikit-learn's ``sample_weight``).
    eps
        The probability of the actual class is clipped to [eps, 1 − eps] inside the logarithm.
        Default 2⁻⁵² ≈ 2.2e-16, the float64 machine epsilon, as scikit-learn ≥ 1.5.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``log_loss``.

    Notes
    -----
    With y = 1 for a positive row and 0 otherwise and p the score,

        L = −Σ w·( y·log p + (1 − y)·log(1 − p) ) / Σ w,

    the natural logarithm, each probability clipped to [eps, 1 − eps]. It is a strictly proper
    scoring rule: its expectation is minimal only when p is the true probability. Range
    [0, −log eps ≈ 36.04], lower is better; a constant prediction of the positive rate π scores
    the entropy −π log π − (1 − π) log(1 − π). **Null** for an empty group or zero total weight.
    A score outside [0, 1], null, NaN or ±inf is an ``InvalidValueError`` / ``MissingValueError``
    (never clipped). Equal to scikit-learn's ``log_loss(y, p, sample_weight=w)``.

    References
    ----------
    Good, I. J. (1952). Rational decisions. Journal of the Royal Statistical Society B 14(1),
    107–114.
    Gneiting, T. & Raftery, A. E. (2007). Strictly proper scoring rules, prediction, and
    estimation. Journal of the American Statistical Association 102(477), 359–378.

    See Also
    --------
    brier_score, frameeval.multiclass_log_loss

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [0.9, 0.2, 0.7, 0.6, 0.4, 0.1]})
    >>> round(df.select(fe.log_loss("y", "p")).item(), 6)
    0.302032
    """
    eps = check_eps("log_loss", eps)
    loss_sum, weight_sum = loss_statistics(log_loss_terms(truth, score, pos_label, eps), weight)
    return _guarded(mean_loss_value(loss_sum, weight_sum), "log_loss", truth, score, weight)


def brier_score(
    truth: str, score: str, *, pos_label: Any = 1, weight: str | None = None
) -> pl.Expr:
    """Brier score: the mean squared difference between the probability and the outcome.

    Parameters are those of :func:`log_loss` (without ``eps``).

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``brier_score``.

    Notes
    -----
    With y = 1 for a positive row and 0 otherwise and p the score,

        BS = Σ w·(y − p)² / Σ w,

    a strictly proper scoring rule (Brier 1950); it is the mean squared error (eq 2.2) of the
    probability as a regression of the 0/1 outcome. Range [0, 1], lower is better; a constant
    prediction of the positive rate π scores π(1 − π). :func:`frameeval.brier_decomposition`
    splits it into reliability, resolution and uncertainty (Murphy 1973). **Null** for an empty
    group or zero total weight. A score outside [0, 1], null, NaN or ±inf is a typed error.
    Equal to scikit-learn's ``brier_score_loss(y, p, sample_weight=w)``.

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of probability. Monthly
    Weather Review 78(1), 1–3.

    See Also
    --------
    log_loss, frameeval.multiclass_brier_score, frameeval.brier_decomposition

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [0.9, 0.2, 0.7, 0.6, 0.4, 0.1]})
    >>> round(df.select(fe.brier_score("y", "p")).item(), 6)
    0.078333
    """
    loss_sum, weight_sum = loss_statistics(brier_terms(truth, score, pos_label), weight)
    return _guarded(mean_loss_value(loss_sum, weight_sum), "brier_score", truth, score, weight)
