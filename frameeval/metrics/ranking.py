"""Ranking measures of chapter 2.3.3–2.3.4 as Polars aggregate expressions.

A ranking measure reads the true label ``truth`` and a continuous ``score`` (larger = more
positive) instead of a hard prediction. Each builder returns a ``pl.Expr`` named after the
measure, usable in ``select``, ``group_by().agg()`` and ``.over()``; with ``weight=`` every count
becomes a weight sum (the data distribution 𝒟 of eqs 2.3, 2.5). A group that has only one class
(or whose positives or negatives weigh 0 in total) has no ranking to judge: its value is ``null``.

Ties are part of the definition, not an accident of the implementation: a run of equal scores is
one threshold, so on the ROC curve it is one diagonal step and in the AUC a tied (positive,
negative) pair counts one half (eqs 2.21–2.22). Without weights every measure is computed from
ranks inside the group (``roc_auc`` is the rank-sum, Mann–Whitney, form); with weights from the
rows sorted by score and accumulated. Values are formed from (weighted) counts and divided once,
so with integer counts the AUC is the exact ratio correctly rounded. For many groups with
weights, :func:`frameeval.ranking_report` (one aggregation per group × distinct score) is faster.

The cost-curve coordinates :func:`p_cost` and :func:`normalized_cost` (eqs 2.24–2.25) are
element-wise expressions of rates, probabilities and costs.
"""

from __future__ import annotations

import math

import polars as pl

from frameeval._validate import check_parameter
from frameeval.metrics._builders import make_builder
from frameeval.metrics._stats import ScoreTable, ratio
from frameeval.metrics.measure import Measure, register

__all__ = [
    "AVERAGE_PRECISION",
    "PR_AUC",
    "RANK_LOSS",
    "ROC_AUC",
    "average_precision",
    "normalized_cost",
    "p_cost",
    "pr_auc",
    "rank_loss",
    "roc_auc",
]

HANLEY = ("Hanley, J. A. & McNeil, B. J. (1982). The meaning and use of the area under a "
          "receiver operating characteristic (ROC) curve. Radiology 143(1), 29–36.")
FAWCETT = ("Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters "
           "27, 861–874.")
DAVIS = ("Davis, J. & Goadrich, M. (2006). The relationship between precision-recall and ROC "
         "curves. ICML 2006, 233–240.")


def _auc(t: ScoreTable) -> pl.Expr:
    # negatives strictly below each threshold, plus half of those tied with it
    below = t.n_negative - t.fp
    return ratio((t.positive * (below + 0.5 * t.negative)).sum(), t.n_positive * t.n_negative)


def _precision_at(t: ScoreTable) -> pl.Expr:
    return ratio(t.tp, t.tp + t.fp)


def _average_precision(t: ScoreTable) -> pl.Expr:
    return ratio((t.positive * _precision_at(t)).sum(), t.n_positive)


def _pr_auc(t: ScoreTable) -> pl.Expr:
    recall = ratio(t.tp, t.n_positive)
    precision = _precision_at(t)
    area = ((recall - recall.shift(1, fill_value=0.0))
            * (precision + precision.shift(1, fill_value=1.0))).sum() / 2.0
    return pl.when(t.n_positive > 0).then(area)


ROC_AUC = register(Measure(
    "roc_auc", "score", _auc, True, 0.0, 1.0, "2.22",
    "area under the ROC curve: the probability that a random positive scores above a random "
    "negative, a tie counting one half",
    "AUC = 1 − ℓ_rank = Σ_k m⁺_k·(M⁻(< t_k) + ½·m⁻_k) / (M⁺·M⁻) over the distinct scores t_k, "
    "m±_k the positive / negative mass at t_k (the trapezoid area of the ROC curve, eq 2.20)",
    "the group has no positive or no negative row (or they weigh 0): no pair to rank",
    (HANLEY, FAWCETT), example="0.8333",
))
RANK_LOSS = register(Measure(
    "rank_loss", "score", lambda t: 1.0 - _auc(t), False, 0.0, 1.0, "2.21",
    "ranking loss: the share of (positive, negative) pairs ranked the wrong way, a tie "
    "counting one half",
    "ℓ_rank = 1/(m⁺m⁻) Σ_{x⁺} Σ_{x⁻} (I(f(x⁺) < f(x⁻)) + ½·I(f(x⁺) = f(x⁻))) = 1 − AUC",
    "the group has only one class", (HANLEY,), example="0.1667",
))
AVERAGE_PRECISION = register(Measure(
    "average_precision", "score", _average_precision, True, 0.0, 1.0, "—",
    "average precision: precision averaged over the positives, step-wise (scikit-learn's "
    "average_precision_score)",
    "AP = Σ_k (R_k − R_{k−1})·P_k over the distinct scores in descending order, R_0 = 0",
    "the group has no positive row (or they weigh 0)", (DAVIS,), example="0.8056",
))
PR_AUC = register(Measure(
    "pr_auc", "score", _pr_auc, True, 0.0, 1.0, "2.20",
    "area under the P-R curve by the trapezoid rule from (R, P) = (0, 1) (prefer "
    "average_precision to compare learners)",
    "Σ_k (R_k − R_{k−1})·(P_k + P_{k−1}) / 2 with (R_0, P_0) = (0, 1)  (eq 2.20 on the P-R "
    "curve)",
    "the group has no positive row", (DAVIS,), example="0.8472",
))

roc_auc = make_builder(ROC_AUC)
rank_loss = make_builder(RANK_LOSS)
average_precision = make_builder(AVERAGE_PRECISION)
pr_auc = make_builder(PR_AUC)

__test__ = {
    "roc_auc": roc_auc.__doc__ or "",
    "rank_loss": rank_loss.__doc__ or "",
    "average_precision": average_precision.__doc__ or "",
    "pr_auc": pr_auc.__doc__ or "",
}


# ---------------------------------------------------------------------------------------------
# cost-curve coordinates (element-wise)
# ---------------------------------------------------------------------------------------------
def _operand(value: str | pl.Expr | float, func: str, role: str, upper: float | None) -> pl.Expr:
    """A column name, an expression, or a number checked to lie in [0, upper]."""
    if isinstance(value, pl.Expr):
        return value.cast(pl.Float64)
    if isinstance(value, str):
        return pl.col(value).cast(pl.Float64)
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
        and (upper is None or value <= upper)
    )
    rule = f"in [0, {upper:g}]" if upper is not None else "a finite number >= 0"
    check_parameter(
        ok, func, f"{role} must be a column name, an expression or a number {rule}, got {value!r}."
    )
    return pl.lit(float(value), dtype=pl.Float64)


def p_cost(
    p: str | pl.Expr | float,
    cost01: str | pl.Expr | float,
    cost10: str | pl.Expr | float,
) -> pl.Expr:
    """Probability cost P(+)cost, the x-axis of the cost curve (eq 2.24).

    Parameters
    ----------
    p
        Probability that an instance is positive (the deployment class prior): a column name,
        an expression or a number in [0, 1].
    cost01
        Cost of predicting a positive as negative (a miss; the book's class 0 is the positive
        class, as in :func:`frameeval.cost_error`): column, expression or number ≥ 0.
    cost10
        Cost of predicting a negative as positive (a false alarm).

    Returns
    -------
    pl.Expr
        Float64 expression named ``p_cost``.

    Notes
    -----
    P(+)cost = p·cost01 / (p·cost01 + (1 − p)·cost10)  (eq 2.24): the weighted share of
    positives once each positive counts cost01 times and each negative cost10 times. With equal
    costs it is p. Range [0, 1]. Null when p·cost01 + (1 − p)·cost10 = 0.

    References
    ----------
    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> pl.select(fe.p_cost(0.2, cost01=4, cost10=1)).item()
    0.5
    """
    pp = _operand(p, "p_cost", "p", 1.0)
    c01 = _operand(cost01, "p_cost", "cost01", None)
    c10 = _operand(cost10, "p_cost", "cost10", None)
    return ratio(pp * c01, pp * c01 + (1.0 - pp) * c10, None).alias("p_cost")


def normalized_cost(
    fpr: str | pl.Expr | float,
    fnr: str | pl.Expr | float,
    p: str | pl.Expr | float,
    cost01: str | pl.Expr | float,
    cost10: str | pl.Expr | float,
) -> pl.Expr:
    """Normalised expected cost cost_norm, the y-axis of the cost curve (eq 2.25).

    Parameters
    ----------
    fpr, fnr
        False positive rate (eq 2.19) and false negative rate FNR = 1 − TPR of the classifier:
        column names, expressions or numbers in [0, 1].
    p, cost01, cost10
        As in :func:`p_cost`.

    Returns
    -------
    pl.Expr
        Float64 expression named ``norm_cost``.

    Notes
    -----
    cost_norm = (FNR·p·cost01 + FPR·(1 − p)·cost10) / (p·cost01 + (1 − p)·cost10)  (eq 2.25):
    the expected cost per instance divided by its largest possible value (every instance
    wrong). In terms of x = P(+)cost it is FNR·x + FPR·(1 − x), the segment from (0, FPR) to
    (1, FNR) that one ROC point draws in figure 2.5. Range [0, 1], lower is better. Null when
    p·cost01 + (1 − p)·cost10 = 0.

    References
    ----------
    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> round(pl.select(fe.normalized_cost(0.1, 0.3, p=0.2, cost01=4, cost10=1)).item(), 12)
    0.2
    """
    func = "normalized_cost"
    fp_rate = _operand(fpr, func, "fpr", 1.0)
    fn_rate = _operand(fnr, func, "fnr", 1.0)
    pp = _operand(p, func, "p", 1.0)
    c01 = _operand(cost01, func, "cost01", None)
    c10 = _operand(cost10, func, "cost10", None)
    numerator = fn_rate * pp * c01 + fp_rate * (1.0 - pp) * c10
    return ratio(numerator, pp * c01 + (1.0 - pp) * c10, None).alias("norm_cost")
