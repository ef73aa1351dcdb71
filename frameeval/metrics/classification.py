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

from frameeval._params import NON_NEGATIVE, POSITIVE
from frameeval._validate import check_parameter
from frameeval.metrics.builders import make_builder
from frameeval.metrics.measure import REQUIRED, Measure, register
from frameeval.metrics.stats import BinaryCounts, ClassCounts, ratio

__all__ = [
    "ACCURACY",
    "BALANCED_ACCURACY",
    "COHEN_KAPPA",
    "COST_ERROR",
    "ERROR_RATE",
    "F1",
    "FBETA",
    "FNR",
    "FPR",
    "MARKEDNESS",
    "MCC",
    "NPV",
    "PRECISION",
    "RECALL",
    "TNR",
    "YOUDEN_J",
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "cost_error",
    "error_rate",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "harmonic",
    "markedness",
    "mcc",
    "npv",
    "precision",
    "recall",
    "specificity",
    "tnr",
    "tpr",
    "youden_j",
]

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


PRECISION = register(
    Measure(
        "precision",
        "binary",
        lambda c: ratio(c.tp, c.predicted),
        True,
        0.0,
        1.0,
        "2.8",
        "precision P (查准率): of the rows predicted positive, the share that are positive",
        "P = TP / (TP + FP)",
        "no row is predicted positive (TP + FP = 0)",
        (SOKOLOVA,),
        proportion=lambda c: (c.tp, c.tp + c.fp),
        example="0.6667",
    )
)
RECALL = register(
    Measure(
        "recall",
        "binary",
        lambda c: ratio(c.tp, c.actual),
        True,
        0.0,
        1.0,
        "2.9",
        "recall R (查全率), the true positive rate: of the positive rows, the share found",
        "R = TPR = TP / (TP + FN)  (TPR: eq 2.18)",
        "the group has no positive row (TP + FN = 0)",
        (SOKOLOVA, FAWCETT),
        aliases=("tpr",),
        proportion=lambda c: (c.tp, c.tp + c.fn),
        example="0.6667",
    )
)
FPR = register(
    Measure(
        "fpr",
        "binary",
        lambda c: ratio(c.fp, c.tn + c.fp),
        False,
        0.0,
        1.0,
        "2.19",
        "false positive rate: of the negative rows, the share predicted positive",
        "FPR = FP / (TN + FP)",
        "the group has no negative row (TN + FP = 0)",
        (FAWCETT,),
        proportion=lambda c: (c.fp, c.tn + c.fp),
        example="0.3333",
    )
)
TNR = register(
    Measure(
        "tnr",
        "binary",
        lambda c: ratio(c.tn, c.tn + c.fp),
        True,
        0.0,
        1.0,
        "—",
        "true negative rate (specificity): of the negative rows, the share predicted negative",
        "TNR = TN / (TN + FP) = 1 − FPR",
        "the group has no negative row (TN + FP = 0)",
        (FAWCETT,),
        aliases=("specificity",),
        proportion=lambda c: (c.tn, c.tn + c.fp),
        example="0.6667",
    )
)
FNR = register(
    Measure(
        "fnr",
        "binary",
        lambda c: ratio(c.fn, c.tp + c.fn),
        False,
        0.0,
        1.0,
        "2.25",
        "false negative rate (miss rate): of the positive rows, the share predicted negative",
        "FNR = FN / (TP + FN) = 1 − TPR  (the cost curve's FNR, eq 2.25)",
        "the group has no positive row (TP + FN = 0)",
        (FAWCETT,),
        proportion=lambda c: (c.fn, c.tp + c.fn),
        example="0.3333",
    )
)
NPV = register(
    Measure(
        "npv",
        "binary",
        lambda c: ratio(c.tn, c.tn + c.fn),
        True,
        0.0,
        1.0,
        "—",
        "negative predictive value: of the rows predicted negative, the share that are negative",
        "NPV = TN / (TN + FN)",
        "no row is predicted negative (TN + FN = 0)",
        (POWERS,),
        proportion=lambda c: (c.tn, c.tn + c.fn),
        example="0.6667",
    )
)
FBETA = register(
    Measure(
        "fbeta",
        "binary",
        _fbeta,
        True,
        0.0,
        1.0,
        "2.11",
        "F-beta, the weighted harmonic mean of precision and recall (recall counts β times as much)",
        "Fβ = (1+β²)·P·R / (β²·P + R) = (1+β²)·TP / ((1+β²)·TP + β²·FN + FP); macro: Fβ of "
        "macro-P and macro-R (eq 2.14), macro_mean: the mean of per-class Fβ",
        "TP + FP + FN = 0 (it is 0, not null, when TP = 0 but FP + FN > 0)",
        (SOKOLOVA,),
        parameters={"beta": 1.0},
        check=_check_beta,
        macro=_fbeta_macro,
        example="0.6667",
    )
)
F1 = register(FBETA.configure("f1", beta=1.0))
YOUDEN_J = register(
    Measure(
        "youden_j",
        "binary",
        lambda c: ratio(c.tp, c.tp + c.fn) + ratio(c.tn, c.tn + c.fp) - 1.0,
        True,
        -1.0,
        1.0,
        "—",
        "Youden's J (informedness, bookmaker informedness): TPR + TNR − 1, the height of the ROC "
        "point above the diagonal",
        "J = TP/(TP + FN) + TN/(TN + FP) − 1",
        "the group lacks positive or negative rows",
        ("Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3(1), 32–35.", POWERS),
        example="0.3333",
    )
)
MARKEDNESS = register(
    Measure(
        "markedness",
        "binary",
        lambda c: ratio(c.tp, c.tp + c.fp) + ratio(c.tn, c.tn + c.fn) - 1.0,
        True,
        -1.0,
        1.0,
        "—",
        "markedness: precision + NPV − 1 (how much a prediction marks the class)",
        "MK = TP/(TP + FP) + TN/(TN + FN) − 1",
        "no row is predicted positive, or none negative",
        (POWERS,),
        example="0.3333",
    )
)
COST_ERROR = register(
    Measure(
        "cost_error",
        "binary",
        lambda c, cost01, cost10: ratio(c.fn * float(cost01) + c.fp * float(cost10), c.total),
        False,
        0.0,
        None,
        "2.23",
        "cost-sensitive error rate of a binary task: misses cost cost01, false alarms cost10 "
        "(the book's class 0 is pos_label); any cost matrix: fe.cost_sensitive_error",
        "E(f; D; cost) = (FN·cost01 + FP·cost10) / m",
        "the group's total weight is 0",
        ("Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.",),
        parameters={"cost01": REQUIRED, "cost10": REQUIRED, "average": "binary"},
        check=check_costs,
        example="0.3333",
    )
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
    check_parameter(
        isinstance(adjusted, bool), func, f"adjusted must be True or False, got {adjusted!r}."
    )


def _balanced_accuracy(v: ClassCounts, adjusted: bool = False) -> pl.Expr:
    recalls = ratio(v.diagonal, v.actual)
    value = recalls.mean()
    if not adjusted:
        return value
    classes = recalls.drop_nulls().len().cast(pl.Float64)
    chance = 1.0 / classes
    # one class in truth: chance is 1, the rescaling 0/0 or x/0 — undefined (null), never ±inf
    return pl.when(classes > 1).then((value - chance) / (1.0 - chance))


ACCURACY = register(
    Measure(
        "accuracy",
        "label",
        lambda v: ratio(v.correct, v.total),
        True,
        0.0,
        1.0,
        "2.5",
        "accuracy (精度): the (weighted) share of rows whose prediction equals the truth",
        "acc = Σ w·I(f(x) = y) / Σ w  (weighted form eq 2.7)",
        "the group's total weight is 0",
        (SOKOLOVA,),
        proportion=lambda c: (c.correct, c.total),
        example="0.6667",
    )
)
ERROR_RATE = register(
    Measure(
        "error_rate",
        "label",
        lambda v: ratio(v.total - v.correct, v.total),
        False,
        0.0,
        1.0,
        "2.4",
        "error rate (错误率): the (weighted) share of misclassified rows",
        "E = Σ w·I(f(x) ≠ y) / Σ w = 1 − acc  (weighted form eq 2.6)",
        "the group's total weight is 0",
        (SOKOLOVA,),
        proportion=lambda c: (c.total - c.correct, c.total),
        example="0.3333",
    )
)
MCC = register(
    Measure(
        "mcc",
        "label",
        _mcc,
        True,
        -1.0,
        1.0,
        "—",
        "Matthews correlation coefficient (multiclass: Gorodkin's R_K), the correlation of truth "
        "and prediction",
        "MCC = (c·s − Σ_k p_k·t_k) / √((s² − Σ_k p_k²)(s² − Σ_k t_k²)) with c = Σ_k TP_k, s = Σ w, "
        "t_k, p_k the actual and predicted totals of class k; two classes: (TP·TN − FP·FN) / "
        "√((TP+FP)(TP+FN)(TN+FP)(TN+FN))",
        "truth or prediction holds one class only (a zero factor in the denominator; "
        "scikit-learn returns 0 there)",
        (
            "Matthews, B. W. (1975). Biochim. Biophys. Acta 405(2), 442–451.",
            "Gorodkin, J. (2004). Comparing two K-category assignments by a K-category correlation "
            "coefficient. Computational Biology and Chemistry 28(5–6), 367–374.",
        ),
        example="0.3333",
    )
)
COHEN_KAPPA = register(
    Measure(
        "cohen_kappa",
        "label",
        _kappa,
        True,
        -1.0,
        1.0,
        "—",
        "Cohen's kappa: agreement of truth and prediction beyond chance (weights= for ordered "
        "classes)",
        "κ = 1 − Σ_ij w_ij·O_ij / Σ_ij w_ij·E_ij with O the confusion matrix, E_ij = t_i·p_j / s and "
        "w_ij = [i ≠ j] (None), |i − j| ('linear') or (i − j)² ('quadratic'), i, j the positions of "
        "the classes in sorted order (an Enum's own order when truth and pred share one Enum "
        "dtype); unweighted: (p_o − p_e) / (1 − p_e)",
        "the chance disagreement is 0 (one class in truth and prediction alike)",
        (
            "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and "
            "Psychological Measurement 20(1), 37–46.",
            "Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213–220.",
        ),
        parameters={"weights": None},
        check=_check_kappa,
        example="0.3333",
    )
)
BALANCED_ACCURACY = register(
    Measure(
        "balanced_accuracy",
        "label",
        _balanced_accuracy,
        True,
        0.0,
        1.0,
        "—",
        "balanced accuracy: the mean over classes of per-class recall (adjusted=True rescales "
        "chance to 0)",
        "BA = (1/K) Σ_k TP_k / (TP_k + FN_k) over the K classes present in truth; adjusted: "
        "(BA − 1/K) / (1 − 1/K)  (scikit-learn's balanced_accuracy_score)",
        "the group's total weight is 0 (adjusted: also when truth holds one class)",
        (
            "Brodersen, K. H. et al. (2010). The balanced accuracy and its posterior distribution. "
            "ICPR 2010, 3121–3124.",
        ),
        parameters={"adjusted": False},
        check=_check_adjusted,
        example="0.6667",
    )
)

# ---------------------------------------------------------------------------------------------
# the expression builders, generated from the declarations
# ---------------------------------------------------------------------------------------------
accuracy = make_builder(ACCURACY)
error_rate = make_builder(ERROR_RATE)
precision = make_builder(PRECISION)
recall = make_builder(RECALL)
tpr = make_builder(RECALL, "tpr")
fpr = make_builder(FPR)
tnr = make_builder(TNR)
specificity = make_builder(TNR, "specificity")
fnr = make_builder(FNR)
npv = make_builder(NPV)
fbeta = make_builder(FBETA)
f1 = make_builder(F1)
youden_j = make_builder(YOUDEN_J)
markedness = make_builder(MARKEDNESS)
cost_error = make_builder(COST_ERROR)
mcc = make_builder(MCC)
cohen_kappa = make_builder(COHEN_KAPPA)
balanced_accuracy = make_builder(BALANCED_ACCURACY)

__test__ = {
    name: builder.__doc__ or ""
    for name, builder in {
        "accuracy": accuracy,
        "error_rate": error_rate,
        "precision": precision,
        "recall": recall,
        "fpr": fpr,
        "tnr": tnr,
        "fnr": fnr,
        "npv": npv,
        "fbeta": fbeta,
        "f1": f1,
        "youden_j": youden_j,
        "markedness": markedness,
        "cost_error": cost_error,
        "mcc": mcc,
        "cohen_kappa": cohen_kappa,
        "balanced_accuracy": balanced_accuracy,
    }.items()
}
