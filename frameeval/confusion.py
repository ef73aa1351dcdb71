"""Grouped confusion matrices and the reports built on them (chapter 2.3.1–2.3.4).

Everything here starts from one mergeable table — the (weighted) number of rows per
``by`` group × actual label × predicted label — computed in a single aggregation that also carries
the input checks. The per-class and averaged measures are small steps on that table, so they
stream, and the cost is one pass over the data whatever the number of measures.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import (
    Checks,
    check_label_list,
    check_labels,
    check_not_empty_eager,
    check_numeric,
    check_parameter,
    check_zero_division,
    label_dtype,
    label_expr,
    require_columns,
    resolve_pos_label,
)
from frameeval.exceptions import ColumnNotFoundError, InvalidDtypeError, InvalidParameterError

__all__ = ["classification_report", "confusion_matrix", "cost_sensitive_error", "macro_micro"]


# ---------------------------------------------------------------------------------------------
# the shared kernel
# ---------------------------------------------------------------------------------------------
def _prepare(
    data: IntoFrame,
    func: str,
    truth: str,
    pred: str,
    by: Keys,
    weight: str | None,
    extra_keys: Sequence[str] = (),
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema, Checks]:
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, pred=pred, by=keys, weight=weight)
    require_columns(schema, func, across=list(extra_keys))
    for name in ("actual", "predicted", "count"):
        check_parameter(
            name not in keys, func, f"by= must not use the output column name {name!r}."
        )
    check_labels(schema, func, truth=truth, pred=pred)
    check_numeric(schema, func, weight=weight)
    check_not_empty_eager(data, eager, lf, func)
    checks = Checks(func)
    checks.label(truth, "truth", schema[truth])
    checks.label(pred, "pred", schema[pred])
    if weight:
        checks.finite(weight, "weight", schema[weight])
        checks.non_negative(weight, "weight")
    return lf, eager, keys, schema, checks


def _count_expr(weight: str | None) -> pl.Expr:
    if weight is None:
        return pl.len().cast(pl.Int64).alias("count")
    return pl.col(weight).cast(pl.Float64).sum().alias("count")


def _counts(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    keys: list[str],
    truth: str,
    pred: str,
    weight: str | None,
    checks: Checks,
    labels: Sequence[Any] | None,
) -> pl.LazyFrame:
    """``*keys, actual, predicted, count`` for the cells that occur, checks enforced."""
    actual, predicted = label_expr(truth, schema), label_expr(pred, schema)
    if labels is not None:
        for column, role, expr in ((truth, "truth", actual), (pred, "pred", predicted)):
            checks.within(column, role, labels, expr, label_dtype(schema, column))
    counts = lf.group_by(*keys, actual.alias("actual"), predicted.alias("predicted")).agg(
        _count_expr(weight), *checks.aggs()
    )
    return checks.enforce(counts, keys)


def _classes(
    counts: pl.LazyFrame, keys: list[str], labels: Sequence[Any] | None
) -> pl.LazyFrame:
    """``*keys, label``: a group's label set (truth ∪ pred of the group, or ``labels=``), as a
    list column."""
    if labels is not None:
        dtype = counts.collect_schema()["actual"]
        classes = pl.Series("label", list(labels)).cast(dtype, strict=False)
        groups = counts.select(keys).unique() if keys else pl.LazyFrame({"__one": [0]})
        out = groups.with_columns(pl.lit(classes).implode().alias("label"))
        return out if keys else out.drop("__one")
    both = pl.concat([pl.col("actual"), pl.col("predicted")]).unique().alias("label")
    return counts.group_by(keys).agg(both) if keys else counts.select(both.implode())


def _full_grid(
    counts: pl.LazyFrame, keys: list[str], labels: Sequence[Any] | None
) -> pl.LazyFrame:
    """Add the zero cells: every (actual, predicted) pair of the group's label set."""
    grid = (
        _classes(counts, keys, labels)
        .select(*keys, pl.col("label").alias("actual"), pl.col("label").alias("predicted"))
        .explode("actual")
        .explode("predicted")
    )
    dtype = counts.collect_schema()["count"]
    return (
        grid.join(counts, on=[*keys, "actual", "predicted"], how="left", nulls_equal=True)
        .with_columns(pl.col("count").fill_null(pl.lit(0, dtype=dtype)))
        .sort(*keys, "actual", "predicted", nulls_last=True)
    )


def _per_class(
    counts: pl.LazyFrame, keys: list[str], labels: Sequence[Any] | None
) -> pl.LazyFrame:
    """``*keys, label, tp, support, n_pred`` for every class of the group's label set."""
    count = pl.col("count").cast(pl.Float64)
    if labels is None:
        # the label set is truth ∪ pred: each count cell adds to its actual class (support, and
        # tp on the diagonal) and to its predicted class (n_pred) — one stacked aggregation,
        # no label-set step and no joins
        zero = pl.lit(0.0, dtype=pl.Float64)
        as_actual = counts.select(
            *keys, pl.col("actual").alias("label"),
            pl.when(pl.col("actual") == pl.col("predicted")).then(count).otherwise(zero)
            .alias("tp"),
            count.alias("support"), zero.alias("n_pred"),
        )
        as_predicted = counts.select(
            *keys, pl.col("predicted").alias("label"), zero.alias("tp"), zero.alias("support"),
            count.alias("n_pred"),
        )
        return pl.concat([as_actual, as_predicted]).group_by(*keys, "label").agg(
            pl.col("tp", "support", "n_pred").sum()
        )
    true_side = counts.group_by(*keys, pl.col("actual").alias("label")).agg(
        tp=count.filter(pl.col("actual") == pl.col("predicted")).sum(),
        support=count.sum(),
    )
    pred_side = counts.group_by(*keys, pl.col("predicted").alias("label")).agg(
        n_pred=count.sum()
    )
    classes = _classes(counts, keys, labels).explode("label")
    on = [*keys, "label"]
    return (
        classes.join(true_side, on=on, how="left", nulls_equal=True)
        .join(pred_side, on=on, how="left", nulls_equal=True)
        .with_columns(pl.col("tp", "support", "n_pred").fill_null(0.0))
    )


def _harmonic(p: pl.Expr, r: pl.Expr, beta: float) -> pl.Expr:
    """F_β(P, R) = (1+β²)PR / (β²P + R); 0 when P = R = 0; null when P or R is null."""
    b2 = beta * beta
    den = b2 * p + r
    return pl.when(den > 0).then((1 + b2) * p * r / den).otherwise(
        pl.when(p.is_not_null() & r.is_not_null()).then(0.0)
    )


def _div(num: pl.Expr, den: pl.Expr, zero_division: float | None) -> pl.Expr:
    return pl.when(den > 0).then(num / den).otherwise(pl.lit(zero_division, dtype=pl.Float64))


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------
def confusion_matrix(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    by: Keys = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
) -> Any:
    """Grouped confusion matrices in long form, zero cells included (Table 2.1).

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth, pred
        Columns with the true and the predicted label, any number of classes.
    by
        Key column(s); one matrix per group.
    weight
        Optional non-negative weights; ``count`` is then the weight sum.
    labels
        The class set. Default: per group, the labels seen in truth ∪ pred. Given, every group
        gets the full ``labels × labels`` grid and a label outside it is an error.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, actual, predicted, count``: ``count`` is the number
    of rows (Int64), or the weight sum (Float64), whose true label is ``actual`` and predicted
    label ``predicted``. Sorted by keys, ``actual``, ``predicted``. Categorical labels come out as
    strings.

    Notes
    -----
    For a binary task with positive class ``pos_label``: TP = count(pos, pos), FN = count(pos,
    neg), FP = count(neg, pos), TN = count(neg, neg); TP + FP + TN + FN = m.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.confusion_matrix(df, truth="y", pred="p")["count"].to_list()
    [2, 1, 1, 2]
    """
    func = "confusion_matrix"
    labels = check_label_list(func, labels)
    lf, eager, keys, schema, checks = _prepare(data, func, truth, pred, by, weight)
    counts = _counts(lf, schema, keys, truth, pred, weight, checks, labels)
    return finish(_full_grid(counts, keys, labels), eager)


def classification_report(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    by: Keys = None,
    beta: float = 1.0,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = None,
) -> Any:
    """Per-class precision, recall, F-beta and support, with macro, micro and weighted averages.

    Parameters
    ----------
    data, truth, pred, by, weight, labels
        As in :func:`confusion_matrix`.
    beta
        β of F-beta (eq 2.11), > 0.
    zero_division
        Value of a per-class measure whose denominator is 0 (a class never predicted has
        precision 0/0). Default null, and averages then skip it (scikit-learn's
        ``zero_division=np.nan``; NaN is accepted and means None); a number in [0, 1] replaces
        it, and ``0.0`` reproduces scikit-learn's default numbers.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, average, label, precision, recall, fbeta, support``.
    ``average`` says what a row is:

    * ``"none"`` — one row per class ``label``: P = TP/(TP+FP), R = TP/(TP+FN), Fβ in count form,
      ``support`` = the (weighted) number of rows of that class;
    * ``"macro"`` — macro-P, macro-R (means over classes, eqs 2.12–2.13) and
      ``fbeta`` = Fβ(macro-P, macro-R), the book's macro-F (eq 2.14);
    * ``"macro_mean"`` — the same macro-P and macro-R with ``fbeta`` = the mean of the per-class
      Fβ (Wu & Zhou 2017; scikit-learn's ``average="macro"``);
    * ``"micro"`` — P, R, F from the summed per-class counts (eqs 2.15–2.17); for single-label
      data all three equal accuracy;
    * ``"weighted"`` — support-weighted means of the per-class values (scikit-learn's
      ``average="weighted"``).

    ``label`` is null on average rows; their ``support`` is the group total.

    Notes
    -----
    The two macro-F definitions agree when every class has P = R, and otherwise differ: Fβ of the
    means rewards a balance of P and R on average, the mean of Fβ rewards it per class (by
    Jensen's inequality the mean of per-class F1 is at most F1 of the means whenever the
    classes' P and R vary together). Report which one you use.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0], "p": [0, 2, 2, 2, 1, 1]})
    >>> r = fe.classification_report(df, truth="y", pred="p")
    >>> r.filter(pl.col("average") == "micro")["fbeta"].round(4).to_list()
    [0.6667]
    """
    func = "classification_report"
    check_parameter(beta > 0, func, f"beta must be > 0, got {beta!r}.")
    zero_division = check_zero_division(func, zero_division)
    labels = check_label_list(func, labels)
    lf, eager, keys, schema, checks = _prepare(data, func, truth, pred, by, weight)
    counts = _counts(lf, schema, keys, truth, pred, weight, checks, labels)
    b2 = float(beta) ** 2
    per_class = _per_class(counts, keys, labels).with_columns(
        precision=_div(pl.col("tp"), pl.col("n_pred"), zero_division),
        recall=_div(pl.col("tp"), pl.col("support"), zero_division),
        fbeta=_div((1 + b2) * pl.col("tp"), b2 * pl.col("support") + pl.col("n_pred"),
                   zero_division),
    )
    def weighted(col: str) -> pl.Expr:
        defined = pl.col(col).is_not_null()
        return _div(
            (pl.col(col) * pl.col("support")).filter(defined).sum(),
            pl.col("support").filter(defined).sum(),
            None,
        )

    # One aggregation per group holds the per-class values (as lists) and every average; the
    # rows are then laid out by one explode, so the counts are computed once.
    per_group = dict(
        label=pl.col("label"),
        precision=pl.col("precision"),
        recall=pl.col("recall"),
        fbeta=pl.col("fbeta"),
        support=pl.col("support"),
        macro_p=pl.col("precision").mean(),
        macro_r=pl.col("recall").mean(),
        mean_f=pl.col("fbeta").mean(),
        total=pl.col("support").sum(),
        micro_p=_div(pl.col("tp").sum(), pl.col("n_pred").sum(), zero_division),
        micro_r=_div(pl.col("tp").sum(), pl.col("support").sum(), zero_division),
        weighted_p=weighted("precision"),
        weighted_r=weighted("recall"),
        weighted_f=weighted("fbeta"),
    )
    if keys:
        grouped = per_class.group_by(keys).agg(**per_group)
    else:
        grouped = per_class.select(
            **{k: (v.implode() if k in ("label", "precision", "recall", "fbeta", "support")
                   else v) for k, v in per_group.items()}
        )
    averages = ["macro", "macro_mean", "micro", "weighted"]
    n_classes = pl.col("label").list.len()
    null_label = pl.lit(None, dtype=counts.collect_schema()["actual"])
    macro_f = _harmonic(pl.col("macro_p"), pl.col("macro_r"), beta)
    micro_f = _harmonic(pl.col("micro_p"), pl.col("micro_r"), beta)
    report = (
        grouped.select(
            *keys,
            pl.concat_list(
                pl.lit("none").repeat_by(n_classes), pl.lit(pl.Series(averages)).implode()
            ).alias("average"),
            pl.concat_list("label", *[null_label] * 4).alias("label"),
            pl.concat_list("precision", "macro_p", "macro_p", "micro_p", "weighted_p")
            .alias("precision"),
            pl.concat_list("recall", "macro_r", "macro_r", "micro_r", "weighted_r")
            .alias("recall"),
            pl.concat_list("fbeta", macro_f, "mean_f", micro_f, "weighted_f").alias("fbeta"),
            pl.concat_list("support", *[pl.col("total")] * 4).alias("support"),
        )
        .explode("average", "label", "precision", "recall", "fbeta", "support")
        .sort(*keys, pl.col("label").is_null(), "label", nulls_last=True, maintain_order=True)
    )
    return finish(report, eager)


def macro_micro(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    across: str | Sequence[str],
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Any:
    """Macro and micro averages over several binary confusion matrices (the book's 2.3.2 setting).

    One binary confusion matrix per ``by`` group × ``across`` value (e.g. one per fold, or per
    data set); the averages are taken over those matrices.

    Parameters
    ----------
    across
        Column(s) whose values index the matrices to average over (e.g. ``"fold"``).
    by
        Key column(s): one output row per group.
    pos_label
        The positive class; default ``True`` for boolean labels, ``1`` for numeric ones (required
        for string labels). Must occur somewhere in the data.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, n_matrices, macro_precision, macro_recall,
    macro_f1, mean_f1, micro_precision, micro_recall, micro_f1``:

    * ``macro_precision`` / ``macro_recall`` — the means of the per-matrix P_i and R_i (eqs
      2.12, 2.13), over matrices where they are defined;
    * ``macro_f1`` — 2·macro-P·macro-R / (macro-P + macro-R) (eq 2.14);
    * ``mean_f1`` — the mean of the per-matrix F1 (the other macro-F1, Wu & Zhou 2017);
    * ``micro_precision`` / ``micro_recall`` / ``micro_f1`` — from the mean counts T̄P, F̄P, F̄N
      (eqs 2.15–2.17).

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0],
    ...                    "p": [1, 0, 0, 1, 1, 0]})
    >>> out = fe.macro_micro(df, truth="y", pred="p", across="fold")
    >>> out.select(pl.col("macro_precision", "micro_precision").round(4)).row(0)
    (0.75, 0.6667)
    """
    func = "macro_micro"
    across_keys = as_keys(across)
    check_parameter(bool(across_keys), func, "across= must name at least one column, got none.")
    lf, eager, keys, schema, checks = _prepare(data, func, truth, pred, by, weight, across_keys)
    overlap = set(keys) & set(across_keys)
    check_parameter(not overlap, func, f"by= and across= must not share columns, got {overlap}.")
    positive = resolve_pos_label(schema, func, truth, pos_label)
    actual = label_expr(truth, schema) == positive
    predicted = label_expr(pred, schema) == positive
    checks.present(actual | predicted, f"pos_label {positive!r} must occur in column {truth!r} "
                                       f"or {pred!r}, got no such row")
    w = pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0)
    matrices = lf.group_by(*keys, *across_keys).agg(
        (w * (actual & predicted)).sum().alias("tp"),
        (w * (~actual & predicted)).sum().alias("fp"),
        (w * (actual & ~predicted)).sum().alias("fn"),
        *checks.aggs(),
    )
    matrices = checks.enforce(matrices, keys).with_columns(
        p=_div(pl.col("tp"), pl.col("tp") + pl.col("fp"), None),
        r=_div(pl.col("tp"), pl.col("tp") + pl.col("fn"), None),
        f=_div(2 * pl.col("tp"), 2 * pl.col("tp") + pl.col("fp") + pl.col("fn"), None),
    )
    exprs = dict(
        n_matrices=pl.len().cast(pl.Int64),
        macro_precision=pl.col("p").mean(),
        macro_recall=pl.col("r").mean(),
        mean_f1=pl.col("f").mean(),
        tp=pl.col("tp").mean(),
        fp=pl.col("fp").mean(),
        fn=pl.col("fn").mean(),
    )
    averaged = matrices.group_by(keys).agg(**exprs) if keys else matrices.select(**exprs)
    micro_p = _div(pl.col("tp"), pl.col("tp") + pl.col("fp"), None)
    micro_r = _div(pl.col("tp"), pl.col("tp") + pl.col("fn"), None)
    out = averaged.select(
        *keys,
        "n_matrices",
        "macro_precision",
        "macro_recall",
        _harmonic(pl.col("macro_precision"), pl.col("macro_recall"), 1.0).alias("macro_f1"),
        "mean_f1",
        micro_p.alias("micro_precision"),
        micro_r.alias("micro_recall"),
        _harmonic(micro_p, micro_r, 1.0).alias("micro_f1"),
    )
    return finish(out.sort(keys, nulls_last=True) if keys else out, eager)


def _cost_table(costs: Any, func: str, label_dtype: pl.DataType) -> pl.LazyFrame:
    """Validate ``costs`` (a frame ``actual, predicted, cost`` or a {(actual, predicted): cost}
    mapping) eagerly — it is a small parameter, not the data — and cast labels to the data's."""
    if isinstance(costs, Mapping):
        for key, value in costs.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise InvalidParameterError(
                    f"{func}(): costs keys must be (actual, predicted) pairs, got {key!r}."
                )
            if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy too
                raise InvalidParameterError(
                    f"{func}(): costs must be finite and >= 0, got cost {value!r} for "
                    f"actual={key[0]!r}, predicted={key[1]!r}."
                )
        costs = pl.DataFrame(
            {
                "actual": [k[0] for k in costs],
                "predicted": [k[1] for k in costs],
                "cost": [float(v) for v in costs.values()],
            }
        )
    if isinstance(costs, pl.LazyFrame):
        costs = costs.collect()
    if not isinstance(costs, pl.DataFrame):
        raise InvalidParameterError(
            f"{func}(): costs must be a DataFrame with columns actual, predicted, cost or a "
            f"mapping {{(actual, predicted): cost}}, got {type(costs).__name__}."
        )
    for column in ("actual", "predicted", "cost"):
        if column not in costs.columns:
            raise ColumnNotFoundError(
                f"{func}(): costs must have a column {column!r}, got columns {costs.columns}."
            )
    if not (costs["cost"].dtype.is_integer() or costs["cost"].dtype.is_float()):
        raise InvalidDtypeError(
            f"{func}(): costs column 'cost' must be numeric, got {costs['cost'].dtype}."
        )
    cost = costs["cost"].cast(pl.Float64)
    bad = costs.filter(cost.is_null() | cost.is_nan() | cost.is_infinite() | (cost < 0))
    if bad.height:
        row = bad.row(0, named=True)
        raise InvalidParameterError(
            f"{func}(): costs must be finite and >= 0, got cost {row['cost']!r} for "
            f"actual={row['actual']!r}, predicted={row['predicted']!r}."
        )
    dup = costs.group_by("actual", "predicted").len().filter(pl.col("len") > 1)
    if dup.height:
        row = dup.row(0, named=True)
        raise InvalidParameterError(
            f"{func}(): costs must give one cost per (actual, predicted), got {row['len']} for "
            f"actual={row['actual']!r}, predicted={row['predicted']!r}."
        )
    try:
        return costs.lazy().select(
            pl.col("actual").cast(label_dtype, strict=True),
            pl.col("predicted").cast(label_dtype, strict=True),
            pl.col("cost").cast(pl.Float64),
        ).collect().lazy()
    except pl.exceptions.PolarsError:
        raise InvalidDtypeError(
            f"{func}(): costs labels must match the data's label dtype {label_dtype}, got "
            f"actual: {costs['actual'].dtype}, predicted: {costs['predicted'].dtype}."
        ) from None


def cost_sensitive_error(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    costs: Any,
    by: Keys = None,
    weight: str | None = None,
) -> Any:
    """Cost-sensitive error rate for any cost matrix (eq 2.23 generalised to k classes).

    Parameters
    ----------
    costs
        The cost matrix as a frame with columns ``actual, predicted, cost`` (or a mapping
        ``{(actual, predicted): cost}``): ``cost`` is the loss of predicting ``predicted`` for a
        row whose true label is ``actual``. Costs must be finite and ≥ 0; a missing diagonal cell
        costs 0, a missing off-diagonal cell that occurs in the data is an error. The diagonal
        may be non-zero.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, cost_sensitive_error``: Σ w·cost(y, f(x)) / Σ w.

    Notes
    -----
    Binary, with the book's class 0 as the positive class: E = (FN·cost01 + FP·cost10) / m
    (eq 2.23); see also :func:`frameeval.cost_error`. Lower is better.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> costs = {(1, 0): 5.0, (0, 1): 1.0}
    >>> fe.cost_sensitive_error(df, truth="y", pred="p", costs=costs)["cost_sensitive_error"].item()
    1.0
    """
    func = "cost_sensitive_error"
    lf, eager, keys, schema, checks = _prepare(data, func, truth, pred, by, weight)
    counts = _counts(lf, schema, keys, truth, pred, weight, checks, None)
    table = _cost_table(costs, func, counts.collect_schema()["actual"])
    joined = counts.join(table, on=["actual", "predicted"], how="left", nulls_equal=True)
    missing = (
        pl.when(pl.col("cost").is_null() & (pl.col("actual") != pl.col("predicted")))
        .then(
            pl.format(
                "frameeval[UnknownLabelError]: cost_sensitive_error(): costs must give a cost for "
                "every confusion that occurs, got none for actual={}, predicted={}.",
                pl.col("actual").cast(pl.String),
                pl.col("predicted").cast(pl.String),
            )
        )
        .cast(pl.Int8, strict=True)
    )
    joined = joined.filter(missing.is_null()).with_columns(pl.col("cost").fill_null(0.0))
    count = pl.col("count").cast(pl.Float64)
    value = _div((count * pl.col("cost")).sum(), count.sum(), None).alias("cost_sensitive_error")
    if keys:
        out = joined.group_by(keys).agg(value).sort(keys, nulls_last=True)
    else:
        out = joined.select(value)
    return finish(out, eager)
