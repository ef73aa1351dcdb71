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

from frameeval._params import Number
from frameeval.metrics.measure import declare, publish
from frameeval.metrics.stats import UNIT_LOSS, weight_expr, weight_total

EPS = 2.220446049250313e-16
"""The default clip of :func:`log_loss`: float64 machine epsilon 2⁻⁵² (scikit-learn's choice)."""


#: the clipping of a probability
EPS_RULE = Number(low=0.0, high=0.5, closed="neither", text="a number in (0, 0.5)")


def check_eps(func: str, eps: Any) -> float:
    """``eps=``: a number in (0, 0.5)."""
    return float(EPS_RULE(func, "eps", eps))


# ---------------------------------------------------------------------------------------------
# the pieces: per-row loss, statistics, formula
# ---------------------------------------------------------------------------------------------
def _log_loss_term(actual: pl.Expr, p: pl.Expr, eps: float = EPS) -> pl.Expr:
    """−log q, q the probability of the row's actual class (``actual`` is 1.0 or 0.0)."""
    q = pl.when(actual == 1.0).then(p).otherwise(1.0 - p)
    return -(q.clip(eps, 1.0 - eps).log())


def _brier_term(actual: pl.Expr, p: pl.Expr) -> pl.Expr:
    """(y − p)², y = 1 for a positive row and 0 otherwise."""
    return (actual - p) ** 2


def _positive(truth: str, pos_label: Any) -> pl.Expr:
    return (pl.col(truth) == pos_label).cast(pl.Float64)


def log_loss_terms(truth: str, score: str, pos_label: Any = 1, eps: float = EPS) -> pl.Expr:
    """Per row: −log q, q the probability given to the row's actual class, clipped to
    [eps, 1 − eps] (q = score for a positive row, 1 − score for any other)."""
    return _log_loss_term(_positive(truth, pos_label), pl.col(score).cast(pl.Float64), eps)


def brier_terms(truth: str, score: str, pos_label: Any = 1) -> pl.Expr:
    """Per row: (y − p)², y = 1 for a positive row and 0 otherwise, p the score."""
    return _brier_term(_positive(truth, pos_label), pl.col(score).cast(pl.Float64))


def loss_statistics(terms: pl.Expr, weight: str | None) -> tuple[pl.Expr, pl.Expr]:
    """The sufficient statistics of a mean loss: (Σ w·loss, Σ w), both Float64 aggregates."""
    if weight is None:
        return terms.sum(), weight_total(None)
    return (weight_expr(weight) * terms).sum(), weight_total(weight)


def mean_loss_value(loss_sum: pl.Expr, weight_sum: pl.Expr, **_: Any) -> pl.Expr:
    """The formula of both measures: Σ w·loss / Σ w, null when Σ w = 0 (an empty group or one
    whose rows all weigh 0)."""
    return loss_sum / pl.when(weight_sum > 0).then(weight_sum)


def _check_eps(func: str, eps: Any, **_: Any) -> None:
    check_eps(func, eps)


BRIER_1950 = (
    "Brier, G. W. (1950). Verification of forecasts expressed in terms of "
    "probability. Monthly Weather Review 78(1), 1–3."
)
GOOD_1952 = (
    "Good, I. J. (1952). Rational decisions. Journal of the Royal Statistical Society "
    "B 14(1), 107–114."
)

LOG_LOSS = declare(
    name="log_loss",
    kind="probability",
    formula=mean_loss_value,
    higher_is_better=False,
    lower=0.0,
    upper=-math.log(EPS),
    equation="—",
    description=(
        "log loss (cross-entropy): the mean negative log-probability given to the actual class"
    ),
    formula_text="LL = −Σ w·log q / Σ w, q = p for a positive row and 1 − p otherwise, clipped to "
    "[eps, 1 − eps] (eps = 2⁻⁵² by default, as scikit-learn); scores outside [0, 1] are an error",
    undefined="the group is empty or its total weight is 0",
    references=(GOOD_1952,),
    parameters={"eps": EPS},
    check=_check_eps,
    term=_log_loss_term,
    example="0.5527",
)
BRIER_SCORE = declare(
    name="brier_score",
    kind="probability",
    formula=mean_loss_value,
    **UNIT_LOSS,
    equation="—",
    description="Brier score: the mean squared difference between the probability and the outcome",
    formula_text="BS = Σ w·(y − p)² / Σ w with y = 1 for a positive row, 0 otherwise",
    undefined="the group is empty or its total weight is 0",
    references=(BRIER_1950,),
    term=_brier_term,
    example="0.1917",
)

__all__ = publish(
    globals(), "EPS", "brier_terms", "log_loss_terms", "loss_statistics", "mean_loss_value"
)
