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

from collections.abc import Callable
from typing import Any

import polars as pl

from frameeval._params import Number
from frameeval._validate import check_parameter
from frameeval.metrics.measure import declare, publish
from frameeval.metrics.stats import UNIT_LOSS, UNIT_SCORE, ScoreTable, positive_part, ratio

HANLEY = (
    "Hanley, J. A. & McNeil, B. J. (1982). The meaning and use of the area under a "
    "receiver operating characteristic (ROC) curve. Radiology 143(1), 29–36."
)
FAWCETT = (
    "Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27, 861–874."
)
DAVIS = (
    "Davis, J. & Goadrich, M. (2006). The relationship between precision-recall and ROC "
    "curves. ICML 2006, 233–240."
)


def _auc(t: ScoreTable) -> pl.Expr:
    # negatives strictly below each threshold, plus half of those tied with it
    below = t.n_negative - t.fp
    pairs, total = (t.positive * (below + 0.5 * t.negative)).sum(), t.n_positive * t.n_negative
    # pairs <= total exactly; float rounding of large weights can put it 1 ulp above
    return ratio(pl.min_horizontal(pairs, total), total)


def _precision_at(t: ScoreTable) -> pl.Expr:
    return ratio(t.tp, t.tp + t.fp)


def _average_precision(t: ScoreTable) -> pl.Expr:
    return ratio((t.positive * _precision_at(t)).sum(), t.n_positive)


def _pr_auc(t: ScoreTable) -> pl.Expr:
    recall = ratio(t.tp, t.n_positive)
    precision = _precision_at(t)
    area = (
        (recall - recall.shift(1, fill_value=0.0))
        * (precision + precision.shift(1, fill_value=1.0))
    ).sum() / 2.0
    return pl.when(t.n_positive > 0).then(area)


# ---------------------------------------------------------------------------------------------
# the row-level forms: exact identities of the formulas above, used by the expression builders
# (a per-group sort or rank is Polars' fast path; the per-distinct-score vectors of ScoreTable.of
# take its slow per-group path: 200x slower at 1,000 groups). fe.measures, ranking_report and
# the threshold table evaluate the declared formulas on the count table; the property tests
# check both faces agree (tests/test_measure_set.py).
# ---------------------------------------------------------------------------------------------
def _mass(truth: str, pos_label: Any, weight: str | None) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """(positive?, positive mass w·[y = +], negative mass w·[y ≠ +]) per row, masses Float64."""
    positive = pl.col(truth) == pos_label
    w = pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0, dtype=pl.Float64)
    return positive, w * positive.cast(pl.Float64), w * (~positive).cast(pl.Float64)


def _auc_counts(
    truth: str, score: str, pos_label: Any, weight: str | None
) -> tuple[pl.Expr, pl.Expr]:
    """(Σ over (+, −) pairs of w⁺w⁻·(I(s⁺ > s⁻) + ½·I(s⁺ = s⁻)),  W⁺·W⁻) as Float64."""
    s = pl.col(score)
    if weight is None:
        positive = pl.col(truth) == pos_label
        n_pos = positive.sum().cast(pl.Float64)
        n_neg = pl.len().cast(pl.Float64) - n_pos
        # Mann–Whitney: the rank sum of the positives (mid-ranks for ties) minus its minimum;
        # rank × [positive] rather than a filter: the same exact sum (half-integers), and
        # Polars' grouped sum of a product is cheaper than that of a filtered rank
        rank_sum = (s.rank("average") * positive).sum()
        return rank_sum - n_pos * (n_pos + 1.0) / 2.0, n_pos * n_neg
    positive, wp, wn = _mass(truth, pos_label, weight)

    def below(ties_last: pl.Expr) -> pl.Expr:
        # rows by score ascending, ties ordered by ``ties_last``: the negative mass accumulated
        # before each positive row is that of the negatives below it (ties after) or at most
        # its score (ties before)
        return (wp.sort_by(s, ties_last) * wn.sort_by(s, ties_last).cum_sum()).sum()

    pairs = (below(~positive) + below(positive)) / 2.0
    return pairs, wp.sum() * wn.sum()


def _at_least(values: pl.Expr, s: pl.Expr) -> pl.Expr:
    """Per row: Σ values over the rows whose score is ≥ its own."""
    last = s.rank("max", descending=True).cast(pl.Int64) - 1
    return values.sort_by(s, descending=True).cum_sum().gather(last)


def _above(values: pl.Expr, s: pl.Expr) -> pl.Expr:
    """Per row: Σ values over the rows whose score is > its own."""
    first = s.rank("min", descending=True).cast(pl.Int64) - 1
    # the sum of the rows before the first row of its tie group (an exclusive cumulative sum,
    # not "inclusive minus own value", which cancels a 1e-3 mass after one of 1e9)
    before = values.sort_by(s, descending=True).cum_sum().shift(1, fill_value=0.0)
    return before.gather(first)


def _precisions(
    truth: str, score: str, pos_label: Any, weight: str | None
) -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """Per positive row i (rows of weight 0 left out): its mass, P(s_i) — the precision of
    "positive iff score ≥ s_i" — and P⁻(s_i), that of the next higher distinct score (1 above
    the top score), plus the group's positive mass.

    Without weights these come from ranks: among the positives, rank("max") of the descending
    score is TP(≥ s_i) and rank("min") − 1 is TP(> s_i); among all rows, N(≥ s_i) and N(> s_i).
    """
    s = pl.col(score)
    positive = pl.col(truth) == pos_label
    if weight is None:
        tp_ge = s.filter(positive).rank("max", descending=True)
        tp_gt = s.filter(positive).rank("min", descending=True) - 1
        n_ge = s.rank("max", descending=True).filter(positive)
        n_gt = s.rank("min", descending=True).filter(positive) - 1
        mass = pl.lit(1.0, dtype=pl.Float64)
        total = positive.sum().cast(pl.Float64)
    else:
        carries = pl.col(weight) > 0
        s = s.filter(carries)
        w = pl.col(weight).cast(pl.Float64).filter(carries)
        is_pos = positive.filter(carries)
        wp = w * is_pos.cast(pl.Float64)
        tp_ge, n_ge = _at_least(wp, s).filter(is_pos), _at_least(w, s).filter(is_pos)
        tp_gt, n_gt = _above(wp, s).filter(is_pos), _above(w, s).filter(is_pos)
        mass = w.filter(is_pos)
        total = wp.sum()
    precision = tp_ge / n_ge
    before = pl.when(n_gt > 0).then(tp_gt / n_gt).otherwise(1.0)
    return mass, precision, before, total


def _auc_rows(
    truth: str,
    score: str,
    positive: pl.Expr,
    weight: str | None,
    read: Callable[[pl.Expr], pl.Expr] | None = None,
) -> pl.Expr:
    if weight is None:
        # Mann–Whitney U = (the positives' rank sum) − M⁺(M⁺ + 1)/2 over M⁺·M⁻ pairs, each
        # written with M⁺ once: M⁺(M⁺ + 1)/2 = ((M⁺ + ½)² − ¼)/2 and, with n = M⁺ + M⁻ the
        # group's rows (its length: no sum), M⁺·M⁻ = n²/4 − (M⁺ − n/2)² — exact below 2^25
        # positives and 2^26 rows per group. An eager group_by runs no common-subexpression
        # elimination: each written M⁺ is a grouped sum of its own (the form with M⁺ eight
        # times and M⁻ as a sum cost a third more). No pair (M⁺·M⁻ = 0): the documented null.
        is_pos = pl.col(truth) == positive
        sums = [is_pos.sum(), pl.len(), (pl.col(score).rank("average") * is_pos).sum()]
        if read is not None:  # an eager query's Shared: each aggregate once, as a field
            sums = [read(aggregate) for aggregate in sums]
        m_pos, n = sums[0].cast(pl.Float64), sums[1].cast(pl.Float64)
        u = sums[2] - ((m_pos + 0.5) ** 2 - 0.25) / 2.0
        pairs = n * n / 4.0 - (m_pos - n / 2.0) ** 2
        return u / positive_part(pairs)
    pairs, total = _auc_counts(truth, score, positive, weight)
    # pairs <= total exactly; float rounding of large weights can put it 1 ulp above
    return pl.min_horizontal(pairs, total) / positive_part(total)


def _average_precision_rows(
    truth: str, score: str, positive: pl.Expr, weight: str | None
) -> pl.Expr:
    mass, precision, _, total = _precisions(truth, score, positive, weight)
    return (mass * precision).sum() / positive_part(total)


def _pr_auc_rows(truth: str, score: str, positive: pl.Expr, weight: str | None) -> pl.Expr:
    mass, precision, before, total = _precisions(truth, score, positive, weight)
    return (mass * (precision + before)).sum() / 2.0 / positive_part(total)


ROC_AUC = declare(
    name="roc_auc",
    kind="score",
    formula=_auc,
    **UNIT_SCORE,
    equation="2.22",
    description=(
        "area under the ROC curve: the probability that a random positive scores above a random "
        "negative, a tie counting one half"
    ),
    formula_text=(
        "AUC = 1 − ℓ_rank = Σ_k m⁺_k·(M⁻(< t_k) + ½·m⁻_k) / (M⁺·M⁻) over the distinct scores "
        "t_k, m±_k the positive / negative mass at t_k (the trapezoid area of the ROC curve, eq "
        "2.20)"
    ),
    undefined="the group has no positive or no negative row (or they weigh 0): no pair to rank",
    references=(HANLEY, FAWCETT),
    rows=_auc_rows,
    example="0.8333",
    display="ROC AUC",
)
RANK_LOSS = declare(
    name="rank_loss",
    kind="score",
    formula=lambda t: 1.0 - _auc(t),
    **UNIT_LOSS,
    equation="2.21",
    description="ranking loss: the share of (positive, negative) pairs ranked the wrong way, a tie "
    "counting one half",
    formula_text=(
        "ℓ_rank = 1/(m⁺m⁻) Σ_{x⁺} Σ_{x⁻} (I(f(x⁺) < f(x⁻)) + ½·I(f(x⁺) = f(x⁻))) = 1 − AUC"
    ),
    undefined="the group has only one class",
    references=(HANLEY,),
    rows=lambda truth, score, positive, weight, read=None: (
        1.0 - _auc_rows(truth, score, positive, weight, read)
    ),
    example="0.1667",
)
AVERAGE_PRECISION = declare(
    name="average_precision",
    kind="score",
    formula=_average_precision,
    **UNIT_SCORE,
    equation="—",
    description=(
        "average precision: precision averaged over the positives, step-wise (scikit-learn's "
        "average_precision_score)"
    ),
    formula_text=(
        "AP = Σ_k (R_k − R_{k−1})·P_k over the distinct scores in descending order, R_0 = 0"
    ),
    undefined="the group has no positive row (or they weigh 0)",
    references=(DAVIS,),
    rows=_average_precision_rows,
    example="0.8056",
)
PR_AUC = declare(
    name="pr_auc",
    kind="score",
    formula=_pr_auc,
    **UNIT_SCORE,
    equation="2.20",
    description="area under the P-R curve by the trapezoid rule from (R, P) = (0, 1) (prefer "
    "average_precision to compare learners)",
    formula_text=(
        "Σ_k (R_k − R_{k−1})·(P_k + P_{k−1}) / 2 with (R_0, P_0) = (0, 1)  (eq 2.20 on the P-R "
        "curve)"
    ),
    undefined="the group has no positive row",
    references=(DAVIS,),
    rows=_pr_auc_rows,
    example="0.8472",
    display="P-R AUC",
)


# ---------------------------------------------------------------------------------------------
# cost-curve coordinates (element-wise)
# ---------------------------------------------------------------------------------------------
def _operand(value: str | pl.Expr | float, func: str, role: str, upper: float | None) -> pl.Expr:
    """A column name, an expression, or a number checked to lie in [0, upper]."""
    if isinstance(value, pl.Expr):
        return value.cast(pl.Float64)
    if isinstance(value, str):
        return pl.col(value).cast(pl.Float64)
    ok = Number(low=0.0, high=upper).holds(value)
    rule = f"in [0, {upper:g}]" if upper is not None else "a finite number >= 0"
    check_parameter(
        ok, func, f"{role} must be a column name, an expression or a number {rule}, got {value!r}."
    )
    return pl.lit(float(value), dtype=pl.Float64)


def p_cost(
    p: str | pl.Expr | float, cost01: str | pl.Expr | float, cost10: str | pl.Expr | float
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


__all__ = publish(globals(), "normalized_cost", "p_cost")
