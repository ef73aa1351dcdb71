"""Two classifiers on one test set, from their predictions: the contingency table of Table 2.4
and McNemar's test (chapter 2.4.3).

Predictions of the two learners are paired on ``instance``; every instance must be predicted
once by each learner, with the same true label.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from frameeval._frame import finish
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import Checks, check_labels, check_parameter, label_expr, require_columns
from frameeval.compare._common import (
    better_expr,
    check_alpha,
    check_distinct,
    check_outputs,
    enforce,
    guard,
    literal,
    open_frame,
    pair_up,
    scipy_step,
    value_text,
)

__all__ = ["contingency_table", "mcnemar"]

_CELLS = ("e00", "e01", "e10", "e11")
_TABLE_OUT = ["a", "b", "cell", "b_correct", "a_correct", "count"]
_MCNEMAR_OUT = [
    "a",
    "b",
    *_CELLS,
    "statistic",
    "df",
    "p_value",
    "critical_value",
    "alpha",
    "reject",
    "better",
]


def _counts(
    data: IntoFrame,
    func: str,
    truth: str,
    pred: str,
    a: Any,
    b: Any,
    learner: str,
    instance: str,
    by: Keys,
    outputs: list[str],
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema]:
    """``*keys, e00, e01, e10, e11`` (Int64) with the pairing and label checks in the plan."""
    lf, eager, keys, schema = open_frame(data, func, by)
    require_columns(schema, func, truth=truth, pred=pred, learner=learner, instance=instance)
    check_distinct(func, keys, truth=truth, pred=pred, learner=learner, instance=instance)
    check_outputs(func, keys, outputs)
    check_labels(schema, func, truth=truth, pred=pred)
    checks = Checks(func)
    checks.label(truth, "truth", schema[truth])
    checks.label(pred, "pred", schema[pred])
    actual = label_expr(truth, schema)
    piv = pair_up(
        lf,
        schema,
        func,
        keys,
        {"instance": instance},
        learner,
        a,
        b,
        value=actual == label_expr(pred, schema),
        checks=checks,
        what="prediction",
        extra=[actual.n_unique().cast(pl.Int64).alias("__truths")],
    )
    piv = enforce(
        piv,
        guard(
            pl.col("__truths") > 1,
            "InvalidValueError",
            f"{func}(): column {truth!r} (truth=) must be the same for both learners of an "
            f"instance, got {{}} different values for {instance}={{}}.",
            pl.col("__truths"),
            value_text(instance),
        ),
    )
    ca, cb = pl.col("__a"), pl.col("__b")
    cells = {
        "e00": cb & ca,  # both correct
        "e01": cb & ~ca,  # b correct, a wrong
        "e10": ~cb & ca,  # b wrong, a correct
        "e11": ~cb & ~ca,  # both wrong
    }
    aggs = [cond.sum().cast(pl.Int64).alias(name) for name, cond in cells.items()]
    counts = piv.group_by(keys).agg(aggs) if keys else piv.select(aggs)
    if not keys:
        counts = counts.filter(pl.sum_horizontal(_CELLS) > 0)
    counts = counts.with_columns(
        literal(a, schema, learner).alias("a"), literal(b, schema, learner).alias("b")
    )
    return counts, eager, keys, schema


def contingency_table(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str = "learner",
    instance: str = "instance",
    by: Keys = None,
) -> Any:
    """The contingency table of two classifiers on the same test instances (Table 2.4).

    Parameters
    ----------
    data
        Long prediction frame (DataFrame or LazyFrame; pandas / pyarrow are converted): one row
        per learner × test instance (× ``by`` group); rows of other learners are ignored.
    truth, pred
        Columns with the true and the predicted label (any number of classes: a prediction is
        correct when it equals the truth).
    a, b
        The two learners (values of ``learner``): the book's algorithm A and algorithm B.
    learner, instance
        Columns naming the learner and the test instance the predictions are paired on.
    by
        Key column(s): one table per group.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, cell, b_correct, a_correct, count``: four rows per
    group in the order of Table 2.4 — ``cell`` ``"e00"`` (both correct), ``"e01"`` (b correct,
    a wrong), ``"e10"`` (b wrong, a correct), ``"e11"`` (both wrong); ``b_correct`` and
    ``a_correct`` spell the cell out; ``count`` is the number of instances (Int64, zero cells
    included). Sorted by keys and cell.

    Notes
    -----
    Table 2.4 has algorithm B in the rows and A in the columns, index 0 = correct: e_ij counts
    the instances on which B is (i = 0) correct / (1) wrong and A is (j = 0) correct / (1)
    wrong. e00 + e01 + e10 + e11 is the number of test instances. Each instance must be
    predicted exactly once by each learner (``DuplicateKeyError``; ``InsufficientDataError``
    listing the unpaired instances) with the same truth (``InvalidValueError``).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.3, Table 2.4.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "instance": [1, 2, 3] * 2,
    ...                    "y": [1, 0, 1] * 2, "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.contingency_table(df, "y", "p", a="A", b="B").select("cell", "count").rows()
    [('e00', 1), ('e01', 0), ('e10', 1), ('e11', 1)]
    """
    func = "contingency_table"
    counts, eager, keys, _ = _counts(
        data, func, truth, pred, a, b, learner, instance, by, _TABLE_OUT
    )
    long = counts.unpivot(index=[*keys, "a", "b"], on=list(_CELLS), variable_name="cell")
    long = long.with_columns(
        pl.col("value").alias("count"),
        pl.col("cell").is_in(["e00", "e01"]).alias("b_correct"),
        pl.col("cell").is_in(["e00", "e10"]).alias("a_correct"),
    ).select(*keys, *_TABLE_OUT)
    return finish(long.sort([*keys, "cell"], nulls_last=True), eager)


def _mcnemar_scipy(e01: np.ndarray, e10: np.ndarray, exact: np.ndarray, alpha: np.ndarray):
    n = e01 + e10
    chi2 = np.where(n > 0, (np.abs(e01 - e10) - 1.0) ** 2 / n, np.nan)
    smaller = np.minimum(e01, e10)
    # exact: the largest c with 2 P(X <= c) < α for X ~ Binomial(n, 1/2), NaN when none
    c = stats.binom.ppf(alpha / 2.0, n, 0.5)
    c = np.where(2.0 * stats.binom.cdf(c, n, 0.5) < alpha, c, c - 1.0)
    c = np.where(2.0 * stats.binom.cdf(c + 1.0, n, 0.5) < alpha, c + 1.0, c)
    c = np.where(c >= 0, c, np.nan)
    is_exact = exact == 1.0
    return {
        "statistic": np.where(is_exact, smaller, chi2),
        "p_value": np.where(
            is_exact,
            np.minimum(2.0 * stats.binom.cdf(smaller, n, 0.5), 1.0),
            stats.chi2.sf(chi2, 1),
        ),
        "critical_value": np.where(is_exact, c, stats.chi2.isf(alpha, 1)),
    }


def mcnemar(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str = "learner",
    instance: str = "instance",
    by: Keys = None,
    exact: bool = False,
    alpha: float = 0.05,
) -> Any:
    """McNemar's test of two classifiers on the same test set (chapter 2.4.3, eq 2.33).

    If learners A and B perform the same, the instances only one of them gets right split
    evenly: e01 = e10 in expectation. The continuity-corrected statistic
    τ_χ² = (|e01 − e10| − 1)² / (e01 + e10) then follows a χ² distribution with 1 degree of
    freedom; ``exact=True`` uses the exact binomial distribution of min(e01, e10) instead.

    Parameters
    ----------
    data
        Long prediction frame (DataFrame or LazyFrame; pandas / pyarrow are converted): one row
        per learner × test instance (× ``by`` group); rows of other learners are ignored.
    truth, pred
        Columns with the true and the predicted label.
    a, b
        The two learners (values of ``learner``), the book's A and B.
    learner, instance
        Columns naming the learner and the test instance predictions are paired on.
    by
        Key column(s): one test per group.
    exact
        Use the exact binomial test (recommended when e01 + e10 is small, say < 25).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, e00, e01, e10, e11, statistic, df, p_value,
    critical_value, alpha, reject, better``, sorted by keys: the cells of Table 2.4 (see
    :func:`contingency_table`), and

    * χ² form (default): ``statistic`` = τ_χ² (eq 2.33), ``df`` = 1, ``p_value`` =
      P(χ²₁ > τ_χ²), ``critical_value`` = χ²_α (3.8415 at α = 0.05, 2.7055 at α = 0.1),
      ``reject`` = τ_χ² > χ²_α;
    * exact form: ``statistic`` = min(e01, e10), ``df`` null, ``p_value`` =
      min(1, 2 P(X ≤ statistic)) for X ~ Binomial(e01 + e10, ½), ``critical_value`` = the
      largest count that rejects (null when none can), ``reject`` = p_value < α;
    * ``better`` — the learner with fewer errors (a when e01 < e10: a is wrong less often on
      the instances the two disagree on) when rejected, null otherwise.

    Notes
    -----
    With e01 + e10 = 0 (the learners never disagree) the χ² statistic is 0/0: ``statistic``,
    ``p_value`` and ``reject`` are null; the exact form gives statistic 0, p-value 1. The
    continuity correction makes τ_χ² = 1/(e01 + e10) > 0 when e01 = e10 (as in statsmodels and
    mlxtend). Pairing checks as in :func:`contingency_table`.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.3, Table 2.4, eq 2.33. McNemar (1947), "Note on the
    sampling error of the difference between correlated proportions or percentages",
    Psychometrika 12(2). Dietterich (1998), Neural Computation 10(7).

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "instance": [1, 2, 3, 4] * 2,
    ...                    "y": [1, 0, 1, 1] * 2, "p": [1, 0, 1, 0, 0, 1, 0, 0]})
    >>> fe.mcnemar(df, "y", "p", a="A", b="B").select("e01", "e10", "statistic", "df").row(0)
    (0, 3, 1.3333333333333333, 1)
    """
    func = "mcnemar"
    alpha = check_alpha(alpha, func)
    check_parameter(isinstance(exact, bool), func, f"exact must be a bool, got {exact!r}.")
    counts, eager, keys, _ = _counts(
        data, func, truth, pred, a, b, learner, instance, by, _MCNEMAR_OUT
    )
    out = counts.with_columns(
        pl.lit(1.0 if exact else 0.0).alias("__exact"),
        pl.lit(alpha).alias("alpha"),
        pl.lit(None if exact else 1, dtype=pl.Int64).alias("df"),
    )
    out = scipy_step(
        out,
        _mcnemar_scipy,
        ["e01", "e10", "__exact", "alpha"],
        ["statistic", "p_value", "critical_value"],
    )
    if exact:
        decision = pl.col("p_value") < pl.col("alpha")
    else:
        decision = pl.col("statistic") > pl.col("critical_value")
    out = out.with_columns(decision.alias("reject")).with_columns(
        better_expr(pl.col("e01") < pl.col("e10"), pl.col("e01") > pl.col("e10"))
    )
    out = out.select(*keys, *_MCNEMAR_OUT)
    return finish(out.sort(keys, nulls_last=True) if keys else out, eager)
