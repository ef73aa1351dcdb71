"""Grouped confusion matrices and the reports built on them (chapter 2.3.1–2.3.4).

Everything here starts from one mergeable table — the (weighted) number of rows per
``by`` group × actual label × predicted label — computed in a single aggregation that also carries
the input checks. The per-class and averaged measures are small steps on that table, so they
stream, and the cost is one pass over the data whatever the number of measures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from frameeval._extensions import provider
from frameeval._frame import as_keys, finish
from frameeval._inputs import WEIGHT_INPUT, Column, Inputs
from frameeval._params import POSITIVE, Number, Values
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import (
    Checks,
    check_label_list,
    check_parameter,
    check_zero_division,
    enforce,
    failure,
    label_dtype,
    label_expr,
    resolve_pos_label,
)
from frameeval.exceptions import (
    ColumnNotFoundError,
    InvalidDtypeError,
    InvalidParameterError,
    UnknownLabelError,
)
from frameeval.metrics.classification import F1, FBETA, PRECISION, RECALL, harmonic
from frameeval.metrics.measure import Measure
from frameeval.metrics.stats import BinaryCounts, ClassTable, class_table, ratio

__all__ = [
    "classification_report",
    "confusion_matrix",
    "cost_sensitive_error",
    "count_table",
    "macro_micro",
    "prepare_labels",
]


# ---------------------------------------------------------------------------------------------
# the shared kernel
# ---------------------------------------------------------------------------------------------
OUTPUTS = ("actual", "predicted", "count")
#: the costs= mapping {(actual, predicted): cost}: real numbers, NumPy's too (the range, NaN and
#: ±inf are checked on the cost table, in the same words)
_COSTS = Values(Number(finite=False), ("actual", "predicted"), "cost", "finite and >= 0")
#: the inputs of every label frame function
LABELS = Inputs(
    Column("truth", "label", "label", "int64", required=True),
    Column("pred", "label", "label", "int64", required=True),
    Column("by"),
    WEIGHT_INPUT,
    Column("across", several=True),
)


def prepare_labels(
    data: IntoFrame,
    func: str,
    truth: str,
    pred: str,
    by: Keys,
    weight: str | None,
    extra_keys: Sequence[str] = (),
    outputs: Sequence[str] = OUTPUTS,
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema, Checks]:
    """The door of every label frame function: schema checks (free) and the data checks that
    :func:`count_table` aggregates in its one pass."""
    door = LABELS.open(data, func, truth=truth, pred=pred, by=by, weight=weight, across=extra_keys)
    clash = [name for name in door.keys if name in outputs]
    check_parameter(
        not clash,
        func,
        f"by= must not use the output column name {clash[0]!r}, got by={door.keys}."
        if clash
        else "",
    )
    return door.lf, door.eager, door.keys, door.schema, door.checks


def _count_expr(weight: str | None) -> pl.Expr:
    if weight is None:
        return pl.len().cast(pl.Int64).alias("count")
    return pl.col(weight).cast(pl.Float64).sum().alias("count")


def count_table(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    keys: list[str],
    truth: str,
    pred: str,
    weight: str | None,
    checks: Checks,
    labels: Sequence[Any] | None,
) -> pl.LazyFrame:
    """``*keys, actual, predicted, count`` for the cells that occur, checks enforced.

    The sufficient statistic of every label measure: a weighted long frame of its own, so a
    measure's value on it is ``measure.value("actual", "predicted", weight="count")``, and it
    merges across partitions by summing ``count``.
    """
    actual, predicted = label_expr(truth, schema), label_expr(pred, schema)
    if labels is not None:
        for column, role, expr in ((truth, "truth", actual), (pred, "pred", predicted)):
            checks.within(column, role, labels, expr, label_dtype(schema, column))
    counts = lf.group_by(*keys, actual.alias("actual"), predicted.alias("predicted")).agg(
        _count_expr(weight), *checks.aggs()
    )
    return checks.enforce(counts, keys)


def _classes(counts: pl.LazyFrame, keys: list[str], labels: Sequence[Any] | None) -> pl.LazyFrame:
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


def _full_grid(counts: pl.LazyFrame, keys: list[str], labels: Sequence[Any] | None) -> pl.LazyFrame:
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


def own_parameters(measure: Measure) -> dict[str, Any]:
    """The parameters ``measure`` was configured with, but ``average`` (the call's choice)."""
    return {k: v for k, v in measure.parameters.items() if k != "average"}


REPORT_COLUMNS = ("average", "label", "precision", "recall", "support")


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------
@frame_function
def confusion_matrix(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    by: Keys = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
) -> Frame:
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
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.confusion_matrix(df, truth="y", pred="p")["count"].to_list()
    [2, 1, 1, 2]
    """
    func = "confusion_matrix"
    labels = check_label_list(func, labels)
    lf, eager, keys, schema, checks = prepare_labels(data, func, truth, pred, by, weight)
    counts = count_table(lf, schema, keys, truth, pred, weight, checks, labels)
    return finish(_full_grid(counts, keys, labels), eager)


@frame_function
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
    ci: float | None = None,
    n_resamples: int = 200,
    seed: int = 0,
) -> Frame:
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
    ci
        Confidence level of an interval per value (e.g. ``0.95``); ``None`` (the default):
        values only. Precision and recall of the class rows and of the micro rows are shares
        of counts and get Wilson score intervals (unweighted data); F and the macro, macro_mean
        and weighted rows (and everything with ``weight=``) get percentile intervals of a
        Poisson bootstrap, as :func:`frameeval.measures` (see :doc:`/uncertainty`).
    n_resamples, seed
        Bootstrap replicates and the seed of their replicate weights (same seed, same
        interval).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, average, label, precision, recall, f1, support``
    (``fbeta`` instead of ``f1`` when ``beta != 1``: the column is named after the measure).
    ``average`` says what a row is:

    * ``"none"`` — one row per class ``label``: P = TP/(TP+FP), R = TP/(TP+FN), Fβ in count form,
      ``support`` = the (weighted) number of rows of that class;
    * ``"macro"`` — macro-P, macro-R (means over classes, eqs 2.12–2.13) and
      ``f1`` = F1(macro-P, macro-R), the book's macro-F (eq 2.14) — what ``average="macro"``
      means on every face (``fe.f1(..., average="macro")``, ``macro_micro``'s ``macro_f1``);
    * ``"macro_mean"`` — the same macro-P and macro-R with ``f1`` = the mean of the per-class
      Fβ (Wu & Zhou 2017; scikit-learn's ``average="macro"``);
    * ``"micro"`` — P, R, F from the summed per-class counts (eqs 2.15–2.17); for single-label
      data all three equal accuracy;
    * ``"weighted"`` — support-weighted means of the per-class values (scikit-learn's
      ``average="weighted"``).

    ``label`` is null on average rows; their ``support`` is the group total. With ``ci=``,
    each of precision, recall and F is followed by ``<column>_low`` and ``<column>_high``.

    Notes
    -----
    The two macro-F definitions agree when every class has P = R, and otherwise differ: Fβ of the
    means rewards a balance of P and R on average, the mean of Fβ rewards it per class (by
    Jensen's inequality the mean of per-class F1 is at most F1 of the means whenever the
    classes' P and R vary together). Report which one you use.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0], "p": [0, 2, 2, 2, 1, 1]})
    >>> r = fe.classification_report(df, truth="y", pred="p")
    >>> r.filter(pl.col("average") == "micro")["f1"].round(4).to_list()
    [0.6667]
    >>> r = fe.classification_report(df, truth="y", pred="p", ci=0.95)
    >>> micro = r.filter(pl.col("average") == "micro")  # Wilson: 4 of 6 right
    >>> [round(v, 4) for v in micro.select("f1", "f1_low", "f1_high").row(0)]
    [0.6667, 0.3, 0.9032]
    """
    func = "classification_report"
    if ci is not None:
        report_with_intervals = provider("report_with_intervals")
        return report_with_intervals(
            data, truth, pred, by=by, beta=beta, weight=weight, labels=labels,
            zero_division=zero_division, ci=ci, n_resamples=n_resamples, seed=seed,
        )  # fmt: skip
    POSITIVE(func, "beta", beta)
    zero_division = check_zero_division(func, zero_division)
    labels = check_label_list(func, labels)
    f_name = "f1" if beta == 1 else "fbeta"
    lf, eager, keys, schema, checks = prepare_labels(
        data, func, truth, pred, by, weight, outputs=(*REPORT_COLUMNS, f_name)
    )
    counts = count_table(lf, schema, keys, truth, pred, weight, checks, labels)
    dtype = counts.collect_schema()["actual"]
    fixed = None if labels is None else pl.Series(labels).cast(dtype)
    per_class_table = class_table(counts, keys, fixed, disagreement=False)
    summary = ClassTable()
    fbeta = FBETA.configure(f_name, beta=float(beta))
    measures = {"precision": PRECISION, "recall": RECALL, f_name: fbeta}

    def per_class(measure: Measure) -> pl.Expr:
        values = measure.formula(summary.one_vs_rest(), **own_parameters(measure))
        return values if zero_division is None else values.fill_null(zero_division)

    def averaged(measure: Measure, average: str) -> pl.Expr:
        return measure.value(
            "actual", "predicted", average=average, zero_division=zero_division, table=summary
        )

    averages = ["macro", "macro_mean", "micro", "weighted"]
    # One aggregation per group holds the per-class values (as lists) and every average; the
    # rows are then laid out by one explode, so the counts are computed once.
    per_group = {
        "label": summary.classes,
        **{name: per_class(m) for name, m in measures.items()},
        "support": summary.actual,
        "total": summary.total,
        **{f"{name}_{a}": averaged(m, a) for name, m in measures.items() for a in averages},
    }
    lists = ("label", *measures, "support")
    if keys:
        grouped = per_class_table.group_by(keys).agg(**per_group)
    else:
        grouped = per_class_table.select(
            **{k: (v.implode() if k in lists else v) for k, v in per_group.items()}
        )
    n_classes = pl.col("label").list.len()
    null_label = pl.lit(None, dtype=dtype)
    report = (
        grouped.select(
            *keys,
            pl.concat_list(
                pl.lit("none").repeat_by(n_classes), pl.lit(pl.Series(averages)).implode()
            ).alias("average"),
            pl.concat_list("label", *[null_label] * len(averages)).alias("label"),
            *[
                pl.concat_list(name, *[f"{name}_{a}" for a in averages]).alias(name)
                for name in measures
            ],
            pl.concat_list("support", *[pl.col("total")] * len(averages)).alias("support"),
        )
        .explode("average", "label", *measures, "support")
        .sort(*keys, pl.col("label").is_null(), "label", nulls_last=True, maintain_order=True)
    )
    return finish(report, eager)


@frame_function
def macro_micro(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    across: str | Sequence[str],
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
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
    macro_f1, macro_mean_f1, micro_precision, micro_recall, micro_f1``:

    * ``macro_precision`` / ``macro_recall`` — the means of the per-matrix P_i and R_i (eqs
      2.12, 2.13), over matrices where they are defined;
    * ``macro_f1`` — 2·macro-P·macro-R / (macro-P + macro-R) (eq 2.14);
    * ``macro_mean_f1`` — the mean of the per-matrix F1 (the other macro-F1, Wu & Zhou 2017;
      renamed from ``mean_f1``: ``macro_mean`` names it on every face);
    * ``micro_precision`` / ``micro_recall`` / ``micro_f1`` — from the mean counts T̄P, F̄P, F̄N
      (eqs 2.15–2.17).

    Examples
    --------
    >>> df = pl.DataFrame({"fold": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0],
    ...                    "p": [1, 0, 0, 1, 1, 0]})
    >>> out = fe.macro_micro(df, truth="y", pred="p", across="fold")
    >>> out.select(pl.col("macro_precision", "micro_precision").round(4)).row(0)
    (0.75, 0.6667)
    """
    func = "macro_micro"
    across_keys = as_keys(across)
    check_parameter(bool(across_keys), func, "across= must name at least one column, got none.")
    lf, eager, keys, schema, checks = prepare_labels(
        data, func, truth, pred, by, weight, across_keys
    )
    overlap = set(keys) & set(across_keys)
    check_parameter(not overlap, func, f"by= and across= must not share columns, got {overlap}.")
    positive = resolve_pos_label(schema, func, truth, pos_label)
    actual = label_expr(truth, schema) == positive
    predicted = label_expr(pred, schema) == positive
    checks.present(
        actual | predicted,
        f"pos_label {positive!r} must occur in column {truth!r} or {pred!r}, got no such row",
    )
    matrices = lf.group_by(*keys, *across_keys).agg(
        *_binary_cells(BinaryCounts.of(actual, predicted, pl.lit(True), weight)), *checks.aggs()
    )
    cells = BinaryCounts(*(pl.col(c) for c in ("tp", "fp", "fn", "tn")))
    matrices = checks.enforce(matrices, keys).with_columns(
        p=PRECISION.formula(cells), r=RECALL.formula(cells), f=F1.formula(cells, beta=1.0)
    )
    exprs = dict(
        n_matrices=pl.len().cast(pl.Int64),
        macro_precision=pl.col("p").mean(),
        macro_recall=pl.col("r").mean(),
        macro_mean_f1=pl.col("f").mean(),
        **{c: pl.col(c).mean() for c in ("tp", "fp", "fn", "tn")},
    )
    averaged = matrices.group_by(keys).agg(**exprs) if keys else matrices.select(**exprs)
    out = averaged.select(
        *keys,
        "n_matrices",
        "macro_precision",
        "macro_recall",
        harmonic(pl.col("macro_precision"), pl.col("macro_recall"), 1.0).alias("macro_f1"),
        "macro_mean_f1",
        PRECISION.formula(cells).alias("micro_precision"),
        RECALL.formula(cells).alias("micro_recall"),
        # eq 2.17: F1 of micro-P and micro-R (null where either is)
        harmonic(PRECISION.formula(cells), RECALL.formula(cells), 1.0).alias("micro_f1"),
    )
    return finish(out.sort(keys, nulls_last=True) if keys else out, eager)


def _binary_cells(c: BinaryCounts) -> list[pl.Expr]:
    return [c.tp.alias("tp"), c.fp.alias("fp"), c.fn.alias("fn"), c.tn.alias("tn")]


def _cost_table(costs: Any, func: str, label_dtype: pl.DataType) -> pl.LazyFrame:
    """Validate ``costs`` (a frame ``actual, predicted, cost`` or a {(actual, predicted): cost}
    mapping) eagerly — it is a small parameter, not the data — and cast labels to the data's."""
    if isinstance(costs, Mapping):
        _COSTS(func, "costs", costs)
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
        return (
            costs.lazy()
            .select(
                pl.col("actual").cast(label_dtype, strict=True),
                pl.col("predicted").cast(label_dtype, strict=True),
                pl.col("cost").cast(pl.Float64),
            )
            .collect()
            .lazy()
        )
    except pl.exceptions.PolarsError:
        raise InvalidDtypeError(
            f"{func}(): costs labels must match the data's label dtype {label_dtype}, got "
            f"actual: {costs['actual'].dtype}, predicted: {costs['predicted'].dtype}."
        ) from None


@frame_function
def cost_sensitive_error(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    costs: Any,
    by: Keys = None,
    weight: str | None = None,
) -> Frame:
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
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> costs = {(1, 0): 5.0, (0, 1): 1.0}
    >>> fe.cost_sensitive_error(df, truth="y", pred="p", costs=costs)["cost_sensitive_error"].item()
    1.0
    """
    func = "cost_sensitive_error"
    lf, eager, keys, schema, checks = prepare_labels(data, func, truth, pred, by, weight)
    counts = count_table(lf, schema, keys, truth, pred, weight, checks, None)
    table = _cost_table(costs, func, counts.collect_schema()["actual"])
    joined = counts.join(table, on=["actual", "predicted"], how="left", nulls_equal=True)
    missing = failure(
        pl.col("cost").is_null() & (pl.col("actual") != pl.col("predicted")),
        UnknownLabelError,
        "cost_sensitive_error(): costs must give a cost for every confusion that occurs, got "
        "none for actual={}, predicted={}.",
        pl.col("actual"),
        pl.col("predicted"),
    )
    joined = enforce(joined, missing).with_columns(pl.col("cost").fill_null(0.0))
    count = pl.col("count").cast(pl.Float64)
    value = ratio((count * pl.col("cost")).sum(), count.sum()).alias("cost_sensitive_error")
    if keys:
        out = joined.group_by(keys).agg(value).sort(keys, nulls_last=True)
    else:
        out = joined.select(value)
    return finish(out, eager)
