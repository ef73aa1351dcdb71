"""Label measures of chapter 2.3.1–2.3.2 as Polars aggregate expressions.

Each builder returns a ``pl.Expr`` named after the measure, usable in ``select``,
``group_by().agg()`` and ``.over()``. With ``weight=`` every count becomes a weighted sum — the
book's general forms over a data distribution 𝒟 (eqs 2.3, 2.5). A ratio whose denominator is zero
(0/0, or a group whose weights are all zero) is ``null``; ``zero_division=`` replaces it.

Each expression carries a guard: a null label, a null/NaN/inf/negative weight in the group makes
the expression raise (a Polars error whose text is the frameeval message; ``fe.collect`` and the
frame functions re-raise it as ``MissingValueError`` / ``NegativeValueError``).
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from frameeval._validate import attach_guard, check_parameter, check_zero_division, expression_guard
from frameeval.metrics._counts import binary_counts, ratio, total, weight_expr, weight_total

Average = Literal["binary", "macro", "micro"]


def _guarded(value: pl.Expr, name: str, truth: str, pred: str, weight: str | None) -> pl.Expr:
    guard = expression_guard(
        name, labels=[(truth, "truth"), (pred, "pred")], weight=weight
    )
    return attach_guard(value, guard).alias(name)


def accuracy(truth: str, pred: str, *, weight: str | None = None) -> pl.Expr:
    """Accuracy: the (weighted) share of rows whose prediction equals the truth.

    Parameters
    ----------
    truth, pred
        Columns with the true and the predicted label (any number of classes).
    weight
        Optional column of non-negative weights p(x).

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``accuracy``.

    Notes
    -----
    acc = Σ w·I(f(x) = y) / Σ w  (eq 2.2; weighted form eq 2.5). Range [0, 1], higher is better.
    Null when the group's total weight is 0.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> df.group_by("g").agg(fe.accuracy("y", "p")).sort("g")["accuracy"].round(4).to_list()
    [0.6667, 0.6667]
    """
    correct = pl.col(truth) == pl.col(pred)
    value = ratio(total(correct, weight), weight_total(weight), None)
    return _guarded(value, "accuracy", truth, pred, weight)


def error_rate(truth: str, pred: str, *, weight: str | None = None) -> pl.Expr:
    """Error rate: the (weighted) share of misclassified rows.

    Notes
    -----
    E = Σ w·I(f(x) ≠ y) / Σ w  (eq 2.1; weighted form eq 2.3) = 1 − accuracy. Range [0, 1],
    lower is better. Null when the group's total weight is 0.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.error_rate("y", "p")).item(), 4)
    0.3333
    """
    wrong = pl.col(truth) != pl.col(pred)
    value = ratio(total(wrong, weight), weight_total(weight), None)
    return _guarded(value, "error_rate", truth, pred, weight)


def _per_class_sum(
    truth: str, pred: str, weight: str | None, term: pl.Expr
) -> pl.Expr:
    """Σ over correct rows of w·term (term built from per-class totals via .over())."""
    correct = (pl.col(truth) == pl.col(pred)).cast(pl.Float64)
    return (weight_expr(weight) * correct * term).sum()


def _class_total(column: str, weight: str | None) -> pl.Expr:
    """Total weight of the row's class in ``column`` (n_true(c) or n_pred(c))."""
    return weight_total(weight).over(column)


def _present(column: str, weight: str | None) -> pl.Expr:
    """Number of classes with positive total weight in ``column``."""
    if weight is None:
        return pl.col(column).n_unique().cast(pl.Float64)
    return pl.col(column).filter(pl.col(weight) > 0).n_unique().cast(pl.Float64)


def _union(truth: str, pred: str, weight: str | None) -> pl.Expr:
    """Number of classes in truth ∪ pred with positive total weight (all of them without
    ``weight=``). The label set of a macro average is ``_union(truth, pred, None)``: every class
    that occurs, as in scikit-learn and :func:`frameeval.classification_report`."""
    if weight is None:
        return pl.concat([pl.col(truth), pl.col(pred)]).n_unique().cast(pl.Float64)
    positive = pl.col(weight) > 0
    return (
        pl.concat([pl.col(truth).filter(positive), pl.col(pred).filter(positive)])
        .n_unique()
        .cast(pl.Float64)
    )


def _macro(
    sum_defined: pl.Expr, n_defined: pl.Expr, n_classes: pl.Expr, zero_division: float | None
) -> pl.Expr:
    """Mean of per-class values; classes whose value is 0/0 are skipped or set to zero_division.

    The per-class values are summed row by row (Σ w/n_c), which can round a perfect class to
    1 + 2⁻⁵²; the mean is clipped back into [0, 1].
    """
    if zero_division is None:
        return ratio(sum_defined, n_defined, None).clip(0.0, 1.0)
    value = ratio(sum_defined + zero_division * (n_classes - n_defined), n_classes, None)
    return value.clip(0.0, 1.0) if 0.0 <= zero_division <= 1.0 else value


def _micro(truth: str, pred: str, weight: str | None, zero_division: float | None) -> pl.Expr:
    """Micro P = micro R = micro F: Σ_c TP_c / Σ_c (TP_c + FP_c) = accuracy (single-label)."""
    correct = total(pl.col(truth) == pl.col(pred), weight)
    return ratio(correct, weight_total(weight), zero_division)


def _safe_inverse(denominator: pl.Expr) -> pl.Expr:
    return pl.when(denominator > 0).then(1.0 / denominator).otherwise(0.0)


def _check_average(func: str, average: str) -> None:
    check_parameter(
        average in ("binary", "macro", "micro"),
        func,
        f"average must be 'binary', 'macro' or 'micro', got {average!r}.\n"
        "Hint: 'weighted' and per-class values are in fe.classification_report().",
    )


def precision(
    truth: str,
    pred: str,
    *,
    pos_label: Any = 1,
    average: Average = "binary",
    weight: str | None = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Precision P (查准率): of the rows predicted positive, the share that are positive.

    Parameters
    ----------
    truth, pred
        Label columns.
    pos_label
        The positive class for ``average="binary"`` (any class of a multiclass task gives its
        one-vs-rest precision).
    average
        ``"binary"``: precision of ``pos_label``. ``"macro"``: mean over classes of per-class
        precision (classes of truth ∪ pred; with ``weight=``, a class whose rows all weigh 0 is
        still a class, whose values are 0/0, as in scikit-learn). ``"micro"``: from the summed per-class counts (equals
        accuracy for single-label data).
    weight
        Optional non-negative weights.
    zero_division
        Value in [0, 1] for 0/0 (no predicted positives). Default None: null, and for
        ``"macro"`` a class whose precision is 0/0 is left out of the mean (scikit-learn's
        ``zero_division=np.nan``; NaN is accepted and means None).

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``precision``.

    Notes
    -----
    P = TP / (TP + FP)  (eq 2.8). Range [0, 1], higher is better. Macro: eq 2.12 over classes.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.precision("y", "p")).item(), 4)
    0.6667
    """
    _check_average("precision", average)
    zero_division = check_zero_division("precision", zero_division)
    if average == "binary":
        c = binary_counts(truth, pred, pos_label, weight)
        value = ratio(c["tp"], c["predicted"], zero_division)
    elif average == "micro":
        value = _micro(truth, pred, weight, zero_division)
    else:
        per_class = _per_class_sum(truth, pred, weight, _safe_inverse(_class_total(pred, weight)))
        value = _macro(per_class, _present(pred, weight), _union(truth, pred, None),
                       zero_division)
    return _guarded(value, "precision", truth, pred, weight)


def recall(
    truth: str,
    pred: str,
    *,
    pos_label: Any = 1,
    average: Average = "binary",
    weight: str | None = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Recall R (查全率), the true positive rate: of the positive rows, the share found.

    Parameters are those of :func:`precision`; for ``"macro"`` a class absent from ``truth``
    has recall 0/0.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``recall``.

    Notes
    -----
    R = TPR = TP / (TP + FN)  (eqs 2.9, 2.18). Range [0, 1], higher is better. Null when the
    group has no positive rows.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.recall("y", "p")).item(), 4)
    0.6667
    """
    _check_average("recall", average)
    zero_division = check_zero_division("recall", zero_division)
    if average == "binary":
        c = binary_counts(truth, pred, pos_label, weight)
        value = ratio(c["tp"], c["actual"], zero_division)
    elif average == "micro":
        value = _micro(truth, pred, weight, zero_division)
    else:
        per_class = _per_class_sum(truth, pred, weight, _safe_inverse(_class_total(truth, weight)))
        value = _macro(per_class, _present(truth, weight), _union(truth, pred, None),
                       zero_division)
    return _guarded(value, "recall", truth, pred, weight)


def tpr(truth: str, pred: str, *, pos_label: Any = 1, weight: str | None = None) -> pl.Expr:
    """True positive rate TPR = TP / (TP + FN) (eq 2.18); the same as :func:`recall`.

    Returns an expression named ``tpr``; null when the group has no positive rows.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.tpr("y", "p")).item(), 4)
    0.6667
    """
    c = binary_counts(truth, pred, pos_label, weight)
    return _guarded(ratio(c["tp"], c["actual"], None), "tpr", truth, pred, weight)


def fpr(truth: str, pred: str, *, pos_label: Any = 1, weight: str | None = None) -> pl.Expr:
    """False positive rate FPR = FP / (TN + FP) (eq 2.19).

    Returns an expression named ``fpr``; null when the group has no negative rows. Range [0, 1],
    lower is better.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.fpr("y", "p")).item(), 4)
    0.3333
    """
    c = binary_counts(truth, pred, pos_label, weight)
    return _guarded(ratio(c["fp"], c["negative"], None), "fpr", truth, pred, weight)


def tnr(truth: str, pred: str, *, pos_label: Any = 1, weight: str | None = None) -> pl.Expr:
    """True negative rate (specificity) TNR = TN / (TN + FP) = 1 − FPR.

    Returns an expression named ``tnr``; null when the group has no negative rows.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.tnr("y", "p")).item(), 4)
    0.6667
    """
    c = binary_counts(truth, pred, pos_label, weight)
    return _guarded(ratio(c["tn"], c["negative"], None), "tnr", truth, pred, weight)


def fnr(truth: str, pred: str, *, pos_label: Any = 1, weight: str | None = None) -> pl.Expr:
    """False negative rate FNR = FN / (TP + FN) = 1 − TPR (used by cost curves, eq 2.25).

    Returns an expression named ``fnr``; null when the group has no positive rows.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.fnr("y", "p")).item(), 4)
    0.3333
    """
    c = binary_counts(truth, pred, pos_label, weight)
    return _guarded(ratio(c["fn"], c["actual"], None), "fnr", truth, pred, weight)


def fbeta(
    truth: str,
    pred: str,
    *,
    beta: float = 1.0,
    pos_label: Any = 1,
    average: Average = "binary",
    weight: str | None = None,
    zero_division: float | None = None,
    name: str = "fbeta",
) -> pl.Expr:
    """F-beta, the weighted harmonic mean of precision and recall.

    Parameters
    ----------
    beta
        β > 0: recall counts β times as much as precision (β > 1 favours recall, eq 2.11).
    average
        ``"binary"`` (``pos_label``), ``"macro"`` (mean of per-class F-beta — the definition of
        Wu & Zhou 2017, scikit-learn's macro F), or ``"micro"``. F-beta of macro-P and macro-R
        (eq 2.14) is in :func:`frameeval.classification_report` and :func:`frameeval.macro_micro`.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``fbeta`` (``f1`` for :func:`f1`).

    Notes
    -----
    Fβ = (1+β²)·P·R / (β²·P + R) = (1+β²)·TP / ((1+β²)·TP + β²·FN + FP)  (eq 2.11). Computed in
    the count form, so it is 0 (not null) when TP = 0 but FP + FN > 0, and null only when
    TP + FP + FN = 0. Range [0, 1], higher is better.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.fbeta("y", "p", beta=2.0)).item(), 4)
    0.6667
    """
    _check_average(name, average)
    zero_division = check_zero_division(name, zero_division)
    check_parameter(beta > 0, name, f"beta must be > 0, got {beta!r}.")
    b2 = float(beta) ** 2
    if average == "binary":
        c = binary_counts(truth, pred, pos_label, weight)
        # (1+β²)TP / ((1+β²)TP + β²FN + FP) = (1+β²)TP / (β²·#actual + #predicted)
        value = ratio((1 + b2) * c["tp"], b2 * c["actual"] + c["predicted"], zero_division)
    elif average == "micro":
        value = _micro(truth, pred, weight, zero_division)
    else:
        den = b2 * _class_total(truth, weight) + _class_total(pred, weight)
        per_class = _per_class_sum(truth, pred, weight, (1 + b2) * _safe_inverse(den))
        # F of a class is defined iff it has positive weight in truth or pred
        value = _macro(per_class, _union(truth, pred, weight), _union(truth, pred, None),
                       zero_division)
    return _guarded(value, name, truth, pred, weight)


def f1(
    truth: str,
    pred: str,
    *,
    pos_label: Any = 1,
    average: Average = "binary",
    weight: str | None = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """F1 = 2·P·R / (P + R) = 2·TP / (m + TP − TN)  (eq 2.10): :func:`fbeta` with β = 1.

    Returns an expression named ``f1``; null only when TP + FP + FN = 0.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.f1("y", "p")).item(), 4)
    0.6667
    """
    return fbeta(truth, pred, beta=1.0, pos_label=pos_label, average=average, weight=weight,
                 zero_division=zero_division, name="f1")


def cost_error(
    truth: str,
    pred: str,
    *,
    cost01: float,
    cost10: float,
    pos_label: Any = 1,
    weight: str | None = None,
) -> pl.Expr:
    """Cost-sensitive error rate of a binary task (eq 2.23).

    The book's class 0 is the positive class here (``pos_label``): ``cost01`` is the cost of
    predicting a positive row as negative (a miss, FN), ``cost10`` the cost of predicting a
    negative row as positive (a false alarm, FP). For any cost matrix and any number of classes
    use :func:`frameeval.cost_sensitive_error`.

    Returns
    -------
    pl.Expr
        Float64 aggregate named ``cost_error``.

    Notes
    -----
    E(f; D; cost) = (Σ_{x∈D+} I(f(x)≠y)·cost01 + Σ_{x∈D−} I(f(x)≠y)·cost10) / m
    = (FN·cost01 + FP·cost10) / m, weighted: divided by Σ w. Lower is better, range
    [0, max(cost01, cost10)]. Null when the total weight is 0. Costs must be ≥ 0.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> round(df.select(fe.cost_error("y", "p", cost01=5, cost10=1)).item(), 4)
    1.0
    """
    for label, value in (("cost01", cost01), ("cost10", cost10)):
        check_parameter(
            value >= 0 and value == value and value != float("inf"),
            "cost_error",
            f"{label} must be a finite number >= 0, got {value!r}.",
        )
    c = binary_counts(truth, pred, pos_label, weight)
    value = ratio(c["fn"] * float(cost01) + c["fp"] * float(cost10), weight_total(weight),
                  None)
    return _guarded(value, "cost_error", truth, pred, weight)
