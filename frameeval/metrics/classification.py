"""Label measures (chapter 2.3.1–2.3.2 and the ones users expect next), declared once each.

Each :class:`~frameeval.metrics.measure.Measure` below is the only place its formula is written;
its expression builder (``fe.precision``, ``fe.mcc``…), its columns in :func:`frameeval.measures`
and in the reports, and its threshold-table column are generated from it.

* **binary** measures read TP, FP, FN, TN of a positive class (Table 2.1); ``average=`` gives
  their macro (eq 2.12–2.14), micro (eqs 2.15–2.17) and support-weighted forms over classes;
* **label** measures read the whole multiclass confusion summary (accuracy, MCC, κ, balanced
  accuracy); for two classes they equal their binary definitions.

A 0/0 is ``null`` (``zero_division=`` replaces it), never NaN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from frameeval._params import FLAG, NON_NEGATIVE, POSITIVE
from frameeval._validate import check_parameter
from frameeval.metrics.measure import REQUIRED, Measure, declare, publish, register
from frameeval.metrics.stats import UNIT_LOSS, UNIT_SCORE, BinaryCounts, ClassCounts, ratio

FAWCETT = (
    "Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27, 861–874."
)
POWERS = (
    "Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC, "
    "informedness, markedness and correlation. J. Machine Learning Technologies 2(1), "
    "37–63."
)
SOKOLOVA = (
    "Sokolova, M. & Lapalme, G. (2009). A systematic analysis of performance measures "
    "for classification tasks. Information Processing & Management 45(4), 427–437."
)


# ---------------------------------------------------------------------------------------------
# binary measures: formulas over TP, FP, FN, TN
# ---------------------------------------------------------------------------------------------
def harmonic(p: pl.Expr, r: pl.Expr, beta: float) -> pl.Expr:
    """Fβ(P, R) = (1+β²)PR / (β²P + R); 0 when P = R = 0; null when P or R is null."""
    b2 = float(beta) ** 2
    den = b2 * p + r
    return (
        pl.when(den > 0)
        .then((1 + b2) * p * r / den)
        .otherwise(pl.when(p.is_not_null() & r.is_not_null()).then(0.0))
    )


def _check_beta(func: str, beta: Any, **_: Any) -> None:
    POSITIVE(func, "beta", beta)


def check_costs(func: str, cost01: Any, cost10: Any, **_: Any) -> None:
    NON_NEGATIVE(func, "cost01", cost01)
    NON_NEGATIVE(func, "cost10", cost10)


def _fbeta(c: BinaryCounts, beta: float = 1.0) -> pl.Expr:
    b2 = float(beta) ** 2
    # (1 + β²)TP + β²FN + FP = β²(TP + FN) + (TP + FP)
    return ratio((1 + b2) * c.tp, b2 * c.actual + c.predicted)


def _fbeta_macro(mean_of: Callable[[Measure], pl.Expr], beta: float = 1.0) -> pl.Expr:
    # the declarations themselves, not registry names: registering another "precision" must
    # not change F-beta (eq 2.14 is the harmonic mean of *these* macro-P and macro-R)
    return harmonic(mean_of(PRECISION), mean_of(RECALL), beta)


PRECISION = declare(
    name="precision",
    kind="binary",
    formula=lambda c: ratio(c.tp, c.predicted),
    **UNIT_SCORE,
    equation="2.8",
    description="precision P (查准率): of the rows predicted positive, the share that are positive",
    formula_text="P = TP / (TP + FP)",
    undefined="no row is predicted positive (TP + FP = 0)",
    references=(SOKOLOVA,),
    proportion=lambda c: (c.tp, c.tp + c.fp),
    example="0.6667",
)
RECALL = declare(
    name="recall",
    kind="binary",
    formula=lambda c: ratio(c.tp, c.actual),
    **UNIT_SCORE,
    equation="2.9",
    description="recall R (查全率), the true positive rate: of the positive rows, the share found",
    formula_text="R = TPR = TP / (TP + FN)  (TPR: eq 2.18)",
    undefined="the group has no positive row (TP + FN = 0)",
    references=(SOKOLOVA, FAWCETT),
    aliases=("tpr",),
    proportion=lambda c: (c.tp, c.tp + c.fn),
    example="0.6667",
)
FPR = declare(
    name="fpr",
    kind="binary",
    formula=lambda c: ratio(c.fp, c.tn + c.fp),
    **UNIT_LOSS,
    equation="2.19",
    description="false positive rate: of the negative rows, the share predicted positive",
    formula_text="FPR = FP / (TN + FP)",
    undefined="the group has no negative row (TN + FP = 0)",
    references=(FAWCETT,),
    proportion=lambda c: (c.fp, c.tn + c.fp),
    example="0.3333",
)
TNR = declare(
    name="tnr",
    kind="binary",
    formula=lambda c: ratio(c.tn, c.tn + c.fp),
    **UNIT_SCORE,
    equation="—",
    description=(
        "true negative rate (specificity): of the negative rows, the share predicted negative"
    ),
    formula_text="TNR = TN / (TN + FP) = 1 − FPR",
    undefined="the group has no negative row (TN + FP = 0)",
    references=(FAWCETT,),
    aliases=("specificity",),
    proportion=lambda c: (c.tn, c.tn + c.fp),
    example="0.6667",
)
FNR = declare(
    name="fnr",
    kind="binary",
    formula=lambda c: ratio(c.fn, c.tp + c.fn),
    **UNIT_LOSS,
    equation="2.25",
    description=(
        "false negative rate (miss rate): of the positive rows, the share predicted negative"
    ),
    formula_text="FNR = FN / (TP + FN) = 1 − TPR  (the cost curve's FNR, eq 2.25)",
    undefined="the group has no positive row (TP + FN = 0)",
    references=(FAWCETT,),
    proportion=lambda c: (c.fn, c.tp + c.fn),
    example="0.3333",
)
NPV = declare(
    name="npv",
    kind="binary",
    formula=lambda c: ratio(c.tn, c.tn + c.fn),
    **UNIT_SCORE,
    equation="—",
    description=(
        "negative predictive value: of the rows predicted negative, the share that are negative"
    ),
    formula_text="NPV = TN / (TN + FN)",
    undefined="no row is predicted negative (TN + FN = 0)",
    references=(POWERS,),
    proportion=lambda c: (c.tn, c.tn + c.fn),
    example="0.6667",
)
FBETA = declare(
    name="fbeta",
    kind="binary",
    formula=_fbeta,
    **UNIT_SCORE,
    equation="2.11",
    description=(
        "F-beta, the weighted harmonic mean of precision and recall (recall counts β times as much)"
    ),
    formula_text=(
        "Fβ = (1+β²)·P·R / (β²·P + R) = (1+β²)·TP / ((1+β²)·TP + β²·FN + FP); macro: Fβ of "
        "macro-P and macro-R (eq 2.14), macro_mean: the mean of per-class Fβ"
    ),
    undefined="TP + FP + FN = 0 (it is 0, not null, when TP = 0 but FP + FN > 0)",
    references=(SOKOLOVA,),
    parameters={"beta": 1.0},
    check=_check_beta,
    macro=_fbeta_macro,
    example="0.6667",
)
F1 = register(FBETA.configure("f1", beta=1.0))
YOUDEN_J = declare(
    name="youden_j",
    kind="binary",
    formula=lambda c: ratio(c.tp, c.tp + c.fn) + ratio(c.tn, c.tn + c.fp) - 1.0,
    higher_is_better=True,
    lower=-1.0,
    upper=1.0,
    equation="—",
    description=(
        "Youden's J (informedness, bookmaker informedness): TPR + TNR − 1, the height of the ROC "
        "point above the diagonal"
    ),
    formula_text="J = TP/(TP + FN) + TN/(TN + FP) − 1",
    undefined="the group lacks positive or negative rows",
    references=(
        "Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3(1), 32–35.",
        POWERS,
    ),
    example="0.3333",
)
MARKEDNESS = declare(
    name="markedness",
    kind="binary",
    formula=lambda c: ratio(c.tp, c.tp + c.fp) + ratio(c.tn, c.tn + c.fn) - 1.0,
    higher_is_better=True,
    lower=-1.0,
    upper=1.0,
    equation="—",
    description="markedness: precision + NPV − 1 (how much a prediction marks the class)",
    formula_text="MK = TP/(TP + FP) + TN/(TN + FN) − 1",
    undefined="no row is predicted positive, or none negative",
    references=(POWERS,),
    example="0.3333",
)
COST_ERROR = declare(
    name="cost_error",
    kind="binary",
    formula=lambda c, cost01, cost10: ratio(c.fn * float(cost01) + c.fp * float(cost10), c.total),
    higher_is_better=False,
    lower=0.0,
    upper=None,
    equation="2.23",
    description=(
        "cost-sensitive error rate of a binary task: misses cost cost01, false alarms cost10 "
        "(the book's class 0 is pos_label); any cost matrix: fe.cost_sensitive_error"
    ),
    formula_text="E(f; D; cost) = (FN·cost01 + FP·cost10) / m",
    undefined="the group's total weight is 0",
    references=(
        "Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.",
    ),
    parameters={"cost01": REQUIRED, "cost10": REQUIRED, "average": "binary"},
    check=check_costs,
    example="0.3333",
)


# ---------------------------------------------------------------------------------------------
# multiclass (label) measures: formulas over the confusion summary
# ---------------------------------------------------------------------------------------------
def _cross(x: pl.Expr) -> pl.Expr:
    """s² − Σ_k x_k² = 2·Σ_{i<j} x_i·x_j with s = Σ_k x_k, as a sum of products of *different*
    classes: 0 exactly when one class holds all the mass, and no cancellation otherwise."""
    return 2.0 * (x * x.cum_sum().shift(1, fill_value=0.0)).sum()


def _mcc(v: ClassCounts) -> pl.Expr:
    t, p = v.actual, v.predicted
    s, c = v.total, v.correct
    num = c * s - (t * p).sum()
    den = (_cross(p) * _cross(t)).sqrt()
    # rounding can leave |num| a hair above den (a perfect prediction under extreme weights)
    return pl.when(den > 0).then((num / den).clip(-1.0, 1.0))


def _check_kappa(func: str, weights: Any, **_: Any) -> None:
    check_parameter(
        weights in (None, "linear", "quadratic"),
        func,
        f"weights must be None, 'linear' or 'quadratic', got {weights!r}.",
    )


#: the spacing of Float64 numbers at 1 (2⁻⁵²)
_EPSILON = 2.0**-52


def _kappa(v: ClassCounts, weights: str | None = None) -> pl.Expr:
    s = v.total
    t, p = v.actual, v.predicted
    if weights is None:
        observed = s - v.correct
        expected = s - (t * p).sum() / s
    else:
        power = 1 if weights == "linear" else 2
        observed = v.disagreement(power)
        i = pl.int_range(0, t.len(), dtype=pl.Int64).cast(pl.Float64)
        if power == 2:
            expected = (
                (i * i * t).sum() * s + (i * i * p).sum() * s - 2.0 * (i * t).sum() * (i * p).sum()
            ) / s
        else:
            below = p.cum_sum()  # Σ_{j ≤ i} p_j
            moment = (i * p).cum_sum()  # Σ_{j ≤ i} j·p_j
            reach = i * below - moment + ((i * p).sum() - moment) - i * (s - below)
            expected = (t * reach).sum() / s
    # chance disagreement 0 (one class in truth and prediction): κ is 0/0. With non-integer
    # weights the difference s − Σtp/s rounds to a few ulps of s instead of 0 (and κ to ε/ε =
    # 1); anything within 4 ulps of s is that zero. With integer counts a true chance
    # disagreement is at least 1, far above it.
    rounding = 4.0 * _EPSILON * s.abs()
    return 1.0 - ratio(observed, pl.when(expected.abs() > rounding).then(expected))


def _check_adjusted(func: str, adjusted: Any, **_: Any) -> None:
    FLAG(func, "adjusted", adjusted)


def _balanced_accuracy(v: ClassCounts, adjusted: bool = False) -> pl.Expr:
    recalls = ratio(v.diagonal, v.actual)
    value = recalls.mean()
    if not adjusted:
        return value
    classes = recalls.drop_nulls().len().cast(pl.Float64)
    chance = 1.0 / classes
    # one class in truth: chance is 1, the rescaling 0/0 or x/0 — undefined (null), never ±inf
    return pl.when(classes > 1).then((value - chance) / (1.0 - chance))


ACCURACY = declare(
    name="accuracy",
    kind="label",
    formula=lambda v: ratio(v.correct, v.total),
    **UNIT_SCORE,
    equation="2.5",
    description="accuracy (精度): the (weighted) share of rows whose prediction equals the truth",
    formula_text="acc = Σ w·I(f(x) = y) / Σ w  (weighted form eq 2.7)",
    undefined="the group's total weight is 0",
    references=(SOKOLOVA,),
    proportion=lambda c: (c.correct, c.total),
    example="0.6667",
)
ERROR_RATE = declare(
    name="error_rate",
    kind="label",
    formula=lambda v: ratio(v.total - v.correct, v.total),
    **UNIT_LOSS,
    equation="2.4",
    description="error rate (错误率): the (weighted) share of misclassified rows",
    formula_text="E = Σ w·I(f(x) ≠ y) / Σ w = 1 − acc  (weighted form eq 2.6)",
    undefined="the group's total weight is 0",
    references=(SOKOLOVA,),
    proportion=lambda c: (c.total - c.correct, c.total),
    example="0.3333",
)
MCC = declare(
    name="mcc",
    kind="label",
    formula=_mcc,
    higher_is_better=True,
    lower=-1.0,
    upper=1.0,
    equation="—",
    description=(
        "Matthews correlation coefficient (multiclass: Gorodkin's R_K), the correlation of truth "
        "and prediction"
    ),
    formula_text=(
        "MCC = (c·s − Σ_k p_k·t_k) / √((s² − Σ_k p_k²)(s² − Σ_k t_k²)) with c = Σ_k TP_k, s = Σ "
        "w, t_k, p_k the actual and predicted totals of class k; two classes: (TP·TN − FP·FN) / "
        "√((TP+FP)(TP+FN)(TN+FP)(TN+FN))"
    ),
    undefined="truth or prediction holds one class only (a zero factor in the denominator; "
    "scikit-learn returns 0 there)",
    references=(
        "Matthews, B. W. (1975). Biochim. Biophys. Acta 405(2), 442–451.",
        "Gorodkin, J. (2004). Comparing two K-category assignments by a K-category correlation "
        "coefficient. Computational Biology and Chemistry 28(5–6), 367–374.",
    ),
    example="0.3333",
)
COHEN_KAPPA = declare(
    name="cohen_kappa",
    kind="label",
    formula=_kappa,
    higher_is_better=True,
    lower=-1.0,
    upper=1.0,
    equation="—",
    description=(
        "Cohen's kappa: agreement of truth and prediction beyond chance (weights= for ordered "
        "classes)"
    ),
    formula_text=(
        "κ = 1 − Σ_ij w_ij·O_ij / Σ_ij w_ij·E_ij with O the confusion matrix, E_ij = t_i·p_j / s "
        "and w_ij = [i ≠ j] (None), |i − j| ('linear') or (i − j)² ('quadratic'), i, j the "
        "positions of the classes in sorted order (an Enum's own order when truth and pred share "
        "one Enum dtype); unweighted: (p_o − p_e) / (1 − p_e)"
    ),
    undefined="the chance disagreement is 0 (one class in truth and prediction alike)",
    references=(
        "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and "
        "Psychological Measurement 20(1), 37–46.",
        "Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213–220.",
    ),
    parameters={"weights": None},
    check=_check_kappa,
    example="0.3333",
)
BALANCED_ACCURACY = declare(
    name="balanced_accuracy",
    kind="label",
    formula=_balanced_accuracy,
    **UNIT_SCORE,
    equation="—",
    description=(
        "balanced accuracy: the mean over classes of per-class recall (adjusted=True rescales "
        "chance to 0)"
    ),
    formula_text=(
        "BA = (1/K) Σ_k TP_k / (TP_k + FN_k) over the K classes present in truth; adjusted: (BA "
        "− 1/K) / (1 − 1/K)  (scikit-learn's balanced_accuracy_score)"
    ),
    undefined="the group's total weight is 0 (adjusted: also when truth holds one class)",
    references=(
        "Brodersen, K. H. et al. (2010). The balanced accuracy and its posterior distribution. "
        "ICPR 2010, 3121–3124.",
    ),
    parameters={"adjusted": False},
    check=_check_adjusted,
    example="0.6667",
)

__all__ = publish(globals(), "harmonic")
