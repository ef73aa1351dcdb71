"""Multiclass AUC: one-vs-rest per class and Hand & Till's one-vs-one (2.3.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from frameeval._inputs import Column, Inputs
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_label_list, check_parameter, label_dtype, label_expr
from frameeval.curves.table import SCORE_PARTS, Setup, prepare_scores, score_counts
from frameeval.exceptions import InvalidParameterError

__all__ = ["multiclass_roc_auc"]


# ---------------------------------------------------------------------------------------------
# multiclass AUC
# ---------------------------------------------------------------------------------------------


#: one class's score column (the others' are checked with the first table)
SCORE = Inputs(Column("score", "any", "finite"))


@frame_function
def multiclass_roc_auc(
    data: IntoFrame,
    truth: str,
    score: Mapping[Any, str] | Sequence[str],
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    weight: str | None = None,
) -> Frame:
    """Multiclass AUC from per-class score columns: one-vs-rest per class, and four averages.

    Parameters
    ----------
    data
        Result frame with one score column per class.
    truth
        Column with the true class.
    score
        The score column of each class: a mapping ``{class: column}``, or a list of columns
        together with ``labels=`` (the class of each column, in the same order). Columns are
        numeric and finite; larger means more likely that class.
    labels
        The classes of a list ``score``; not allowed with a mapping. Every value of ``truth``
        must be one of them.
    by
        Key column(s); one set of results per group.
    weight
        Optional non-negative weights.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, average, label, roc_auc``, sorted by the keys;
    per group, ``average`` is

    * ``"none"`` — one row per class ``label``: the one-vs-rest AUC of that class's score
      (class vs all others, :func:`frameeval.roc_auc`); null when the class is absent from the
      group or is its only class (an absent class's score column may be null in that group,
      so data sets with different class sets share one call);
    * ``"macro"`` — the mean of the defined one-vs-rest AUCs;
    * ``"weighted"`` — their mean weighted by class prevalence (the classes' weight sums);
    * ``"ovo"`` — Hand & Till's M: the mean over unordered pairs {i, j} of both classes present
      of (A(i|j) + A(j|i))/2, where A(i|j) is the AUC of class i's score between the rows of
      class i and those of class j;
    * ``"ovo_weighted"`` — the same pairs weighted by the prevalence of i and j together.

    ``label`` is null on the average rows. Undefined pairs or classes are left out of an
    average; an average with nothing to average is null.

    Notes
    -----
    One-vs-rest AUCs depend on the class distribution (the "rest" changes with it); Hand & Till's
    M compares classes two at a time and does not. Ties count one half everywhere
    (eqs 2.21–2.22). Each class column is aggregated once into per group × distinct score
    counts of every true class, from which all pairwise and one-vs-rest AUCs follow.
    ``"macro"``, ``"weighted"`` and the two one-vs-one averages equal scikit-learn's
    ``roc_auc_score(multi_class="ovr" | "ovo", average="macro" | "weighted")`` when every class
    occurs (scikit-learn also requires each row's scores to sum to 1; this function does not).

    References
    ----------
    Hand, D. J. & Till, R. J. (2001). A simple generalisation of the area under the ROC curve
    for multiple class classification problems. Machine Learning 45(2), 171–186.
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27,
    861–874.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 2, 2],
    ...                    "p0": [0.6, 0.3, 0.4, 0.2, 0.2, 0.1],
    ...                    "p1": [0.3, 0.3, 0.4, 0.5, 0.3, 0.2],
    ...                    "p2": [0.1, 0.4, 0.2, 0.3, 0.5, 0.7]})
    >>> out = fe.multiclass_roc_auc(df, truth="y", score={0: "p0", 1: "p1", 2: "p2"})
    >>> for row in out.select("average", "label", pl.col("roc_auc").round(4)).rows():
    ...     print(row)
    ('none', 0, 0.875)
    ('none', 1, 1.0)
    ('none', 2, 1.0)
    ('macro', None, 0.9583)
    ('weighted', None, 0.9583)
    ('ovo', None, 0.9583)
    ('ovo_weighted', None, 0.9583)
    """
    func = "multiclass_roc_auc"
    classes, columns, _ = score_classes(func, score, labels)
    setup = prepare_scores(data, func, truth, columns, by, weight, ("average", "label", "roc_auc"))
    cast, actual = true_class(setup, func, truth, classes)
    dtype = cast.dtype
    # groups with different class sets (data sets of 3 and 10 classes in one frame): a class
    # absent from a group may have null scores there; they enter no defined AUC (its mass is 0)
    single = [c for c in columns if columns.count(c) == 1]
    setup.lf = setup.lf.with_columns(
        pl.when(pl.col(c).is_null() & ~(actual == cast[columns.index(c)]).any().over(setup.gkeys))
        .then(pl.lit(0.0))
        .otherwise(pl.col(c))
        .alias(c)
        for c in single
    )
    wide = _pair_sums(setup, func, columns, actual, cast, weight)
    k = len(classes)
    mass = [pl.col(f"__fe_m0_{j}") for j in range(k)]
    one_vs_rest = [_one_vs_rest(i, mass) for i in range(k)]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    one_vs_one = [_one_vs_one(i, j, mass) for i, j in pairs]
    averages = {
        "macro": pl.mean_horizontal(one_vs_rest),
        "weighted": _weighted_mean(one_vs_rest, mass),
        "ovo": pl.mean_horizontal(one_vs_one),
        "ovo_weighted": _weighted_mean(one_vs_one, [mass[i] + mass[j] for i, j in pairs]),
    }
    null_label = pl.lit(None, dtype=dtype)
    rows = [
        wide.select(
            *setup.gkeys,
            pl.lit("none").alias("average"),
            pl.lit(cast[i], dtype=dtype).alias("label"),
            one_vs_rest[i].alias("roc_auc"),
            pl.lit(i, dtype=pl.Int32).alias("__fe_order"),
        )
        for i in range(k)
    ]
    rows += [
        wide.select(
            *setup.gkeys,
            pl.lit(name).alias("average"),
            null_label.alias("label"),
            value.alias("roc_auc"),
            pl.lit(k + n, dtype=pl.Int32).alias("__fe_order"),
        )
        for n, (name, value) in enumerate(averages.items())
    ]
    out = setup.sort(pl.concat(rows, how="vertical"), "__fe_order").drop("__fe_order")
    return setup.done(out)


def score_classes(
    func: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    labels: Sequence[Any] | None,
    list_column: bool = False,
) -> tuple[list[Any], list[str], str | None]:
    """The classes and their score columns, from ``score={class: column}`` or ``score=[...]``
    with ``labels=`` — or, with ``list_column``, one list column of probabilities with
    ``labels=`` (then returned as the third item); at least two classes, of one label type."""
    column: str | None = None
    if isinstance(score, Mapping):
        check_parameter(
            labels is None,
            func,
            "labels= must be None when score= is a mapping {class: "
            f"column}}, got labels={labels!r}.",
        )
        classes, columns = list(score.keys()), list(score.values())
    else:
        if isinstance(score, str) and not list_column:
            raise InvalidParameterError(
                f"{func}(): score= must be a mapping {{class: column}} or a list of columns, "
                f"got {score!r}.\nHint: for a binary task use fe.roc_auc or fe.ranking_report."
            )
        what = (
            "a list of columns or a list column (the class of each probability)"
            if list_column
            else "a list of columns (the class of each column)"
        )
        check_parameter(
            labels is not None, func, f"labels= is required when score= is {what}, got None."
        )
        classes = list(labels or [])
        if isinstance(score, str):
            column, columns = score, [score]
        else:
            columns = list(score)
            check_parameter(
                len(classes) == len(columns),
                func,
                f"labels= must name one class per score column, got {len(classes)} labels for "
                f"{len(columns)} columns.",
            )
    classes = check_label_list(func, classes) or []
    check_parameter(
        len(classes) >= 2, func, f"score= must have at least two classes, got {len(classes)}."
    )
    return classes, columns, column


def true_class(
    setup: Setup, func: str, truth: str, classes: list[Any]
) -> tuple[pl.Series, pl.Expr]:
    """``classes`` cast to the dtype of ``truth`` (refused when one does not fit) and the truth
    label expression; adds the rule "every truth value is one of ``classes``" to the checks."""
    dtype = label_dtype(setup.schema, truth)
    cast = pl.Series("label", classes).cast(dtype, strict=False)
    check_parameter(
        cast.null_count() == 0,
        func,
        f"labels must match the dtype of column {truth!r} ({dtype}), got {classes!r}.",
    )
    actual = label_expr(truth, setup.schema)
    setup.checks.within(truth, "truth", classes, actual, dtype)
    return cast, actual


def _pair_sums(
    setup: Setup,
    func: str,
    columns: list[str],
    actual: pl.Expr,
    cast: pl.Series,
    weight: str | None,
) -> pl.LazyFrame:
    """Per group, the class masses ``__fe_m0_j`` and the numerators ``__fe_a{i}_{j}`` of
    A(i|j): the class-i mass ranked above class-j rows on column i, ties one half — one score
    table per class column, joined side by side."""
    w = pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0, dtype=pl.Float64)
    k = len(columns)
    wide: pl.LazyFrame | None = None
    for i, column in enumerate(columns):  # loop-ok: one aggregation per class column
        # the first table carries the door's checks, each other one its column's
        checks = setup.checks if i == 0 else SCORE.compile(setup.schema, func, score=column)
        s = (pl.col(column).cast(pl.Float64) + 0.0).alias("__fe_s")
        counts = [
            (w * (actual == cast[j]).cast(pl.Float64)).sum().alias(f"__fe_c{j}") for j in range(k)
        ]
        table = score_counts(
            setup.lf,
            setup.gkeys,
            s,
            [*counts, *checks.aggs()],
            parts=1 if setup.eager else SCORE_PARTS,
        )
        table = checks.enforce(table, setup.keys)
        cum = [
            pl.col(f"__fe_c{j}").cum_sum().over(setup.gkeys, order_by="__fe_s").alias(f"__fe_u{j}")
            for j in range(k)
        ]
        table = table.with_columns(cum)
        aggs = [pl.col(f"__fe_c{j}").sum().alias(f"__fe_m{i}_{j}") for j in range(k)]
        aggs += [
            (pl.col(f"__fe_c{i}") * (pl.col(f"__fe_u{j}") - pl.col(f"__fe_c{j}") / 2.0))
            .sum()
            .alias(f"__fe_a{i}_{j}")
            for j in range(k)
            if j != i
        ]
        per_group = table.group_by(setup.gkeys).agg(aggs)
        wide = (
            per_group
            if wide is None
            else wide.join(per_group, on=setup.gkeys, how="full", coalesce=True, nulls_equal=True)
        )
    assert wide is not None
    return wide


def _one_vs_rest(i: int, mass: list[pl.Expr]) -> pl.Expr:
    """AUC of class i against the rest: Σ_{j≠i} A(i|j)-numerators / (m_i · Σ_{j≠i} m_j)."""
    k = len(mass)
    rest = pl.sum_horizontal([mass[j] for j in range(k) if j != i])
    pairs = pl.sum_horizontal([pl.col(f"__fe_a{i}_{j}") for j in range(k) if j != i])
    return pl.when((mass[i] > 0) & (rest > 0)).then(pairs / (mass[i] * rest))


def _one_vs_one(i: int, j: int, mass: list[pl.Expr]) -> pl.Expr:
    """Hand & Till's Â(i, j) = (A(i|j) + A(j|i)) / 2."""
    a_ij = pl.col(f"__fe_a{i}_{j}") / (mass[i] * mass[j])
    a_ji = pl.col(f"__fe_a{j}_{i}") / (mass[i] * mass[j])
    return pl.when((mass[i] > 0) & (mass[j] > 0)).then((a_ij + a_ji) / 2.0)


def _weighted_mean(values: list[pl.Expr], weights: list[pl.Expr]) -> pl.Expr:
    """Σ vᵤ·wᵤ / Σ wᵤ over the defined values (null when no weight is left)."""
    num = pl.sum_horizontal([v * u for v, u in zip(values, weights, strict=True)])
    den = pl.sum_horizontal(
        [pl.when(v.is_not_null()).then(u) for v, u in zip(values, weights, strict=True)]
    )
    return pl.when(den > 0).then(num / den)
