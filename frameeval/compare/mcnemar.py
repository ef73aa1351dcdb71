"""Two classifiers on one test set, from their predictions: the contingency table of Table 2.4
and McNemar's test (chapter 2.4.3).

Predictions of the two learners are paired on ``instance``; every instance must be predicted
once by each learner, with the same true label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from frameeval._frame import collect, finish
from frameeval._inputs import Column, Inputs
from frameeval._params import A_BOOL
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import Checks, check_alpha, enforce, failure, label_expr
from frameeval.compare.cells import (
    Pairing,
    gap_guard,
    gap_text,
    is_gap,
    learner_rows,
    pair_rows,
    pair_up,
    rows_guard,
)
from frameeval.compare.door import open_frame
from frameeval.compare.guards import value_text
from frameeval.compare.one_learner import ratio
from frameeval.compare.results import CONTINGENCY, MCNEMAR, Shape
from frameeval.compare.scipy_step import better_expr, literal, scipy_step
from frameeval.exceptions import InvalidValueError

__all__ = ["contingency_table", "mcnemar"]

#: the labels compared (their dtypes checked at the door)
LABELS = Inputs(Column("truth", "any", "label"), Column("pred", "any", "label"))
#: the inputs of McNemar's test: the labels, paired by instance between two learners
PAIRED = Inputs(
    Column("truth", "label", "label"),
    Column("pred", "label", "label"),
    Column("learner"),
    Column("instance"),
    distinct=True,
)
_CELLS = ("e00", "e01", "e10", "e11")
_GAPS = 5  # unpaired instances listed in the error message


@dataclass(frozen=True)
class PairSpec:
    """What McNemar's counts pair: the labels ``truth`` and ``pred`` of learners ``a`` and ``b``
    (of column ``learner``) on ``instance``, per group ``keys``, as ``func`` checks them."""

    schema: pl.Schema
    func: str
    truth: str
    pred: str
    a: Any
    b: Any
    learner: str
    instance: str
    keys: list[str]

    def label_checks(self) -> Checks:
        return LABELS.compile(self.schema, self.func, truth=self.truth, pred=self.pred)

    def pairing(self, checks: Checks) -> Pairing:
        """Correctness paired on ``instance``, plus how many truths the instance has (must
        be 1: ``__truths``)."""
        truth, pred = label_expr(self.truth, self.schema), label_expr(self.pred, self.schema)
        truths = [truth.n_unique().cast(pl.Int64).alias("__truths")]
        roles = {"instance": self.instance}
        return Pairing(
            self.schema,
            self.func,
            self.keys,
            roles,
            self.learner,
            self.a,
            self.b,
            truth == pred,
            checks,
            "prediction",
            truths,
        )

    def truth_guard(self, where: str) -> pl.Expr:
        """One truth per instance (``__truths``; ``where`` holds the instance's value)."""
        return failure(
            pl.col("__truths") > 1,
            InvalidValueError,
            f"{self.func}(): column {self.truth!r} (truth=) must be the same for both learners "
            f"of an instance, got {{}} different values for {self.instance}={{}}.",
            pl.col("__truths"),
            value_text(where),
        )

    def with_learners(self, counts: pl.LazyFrame) -> pl.LazyFrame:
        if not self.keys:
            counts = counts.filter(pl.sum_horizontal(_CELLS) > 0)
        a, b = (literal(v, self.schema, self.learner) for v in (self.a, self.b))
        return counts.with_columns(a.alias("a"), b.alias("b"))


def _cell_aggs() -> list[pl.Expr]:
    """``e00, e01, e10, e11`` (Int64) from the paired correctness ``__a``, ``__b``."""
    ca, cb = pl.col("__a"), pl.col("__b")
    cells = {
        "e00": cb & ca,  # both correct
        "e01": cb & ~ca,  # b correct, a wrong
        "e10": ~cb & ca,  # b wrong, a correct
        "e11": ~cb & ~ca,  # both wrong
    }
    return [cond.sum().cast(pl.Int64).alias(name) for name, cond in cells.items()]


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
    shape: Shape,
) -> tuple[pl.LazyFrame, bool, list[str]]:
    """``*keys, a, b, e00, e01, e10, e11`` (Int64) with the pairing and label checks in the
    plan."""
    lf, eager, keys, schema = open_frame(data, func, by)
    checks = PAIRED.compile(
        schema, func, truth=truth, pred=pred, learner=learner, instance=instance, by=keys
    )
    shape.check(func, keys)
    spec = PairSpec(schema, func, truth, pred, a, b, learner, instance, keys)
    piv = enforce(pair_up(lf, spec.pairing(checks)), spec.truth_guard(instance))
    aggs = _cell_aggs()
    counts = piv.group_by(keys).agg(aggs) if keys else piv.select(aggs)
    return spec.with_learners(counts), eager, keys


# ---------------------------------------------------------------------------------------------
# the same counts from parts of the data (the Dask backend, frameeval.dask)
# ---------------------------------------------------------------------------------------------
def pair_partial(lf: pl.LazyFrame, spec: PairSpec) -> pl.LazyFrame:
    """Per group, the mergeable statistics of a part of the data that holds *whole instances*
    (every row of an instance, as after a shuffle by ``*keys, instance``): the rows of a and b,
    the cells e00…e11, the label-check counts, the number of unpaired instances with the first
    five descriptions, and the smallest instance with two truths (``__inst``, ``__truths``).

    Raises in-plan, exactly as on one machine, on a null instance and on duplicate (instance,
    learner) rows: those checks see all rows of an instance. The others are enforced on the
    merged statistics by :func:`pairs_from_partials`."""
    checks, instance, keys = spec.label_checks(), spec.instance, spec.keys
    piv = pair_rows(lf, spec.pairing(checks))
    two = pl.col(instance).filter(pl.col("__truths") > 1).min()
    gaps = gap_text({"instance": instance}, spec.a, spec.b).filter(is_gap())
    stats = [
        *_cell_aggs(),
        *checks.merge(),
        is_gap().sum().cast(pl.Int64).alias("__n"),
        gaps.sort().head(_GAPS).implode().alias("__list"),
        two.alias("__inst"),
        pl.col("__truths").filter(pl.col(instance) == two).first().alias("__truths"),
    ]
    rows = learner_rows(spec.schema, spec.learner, spec.a, spec.b)
    if not keys:
        return lf.select(rows).join(piv.select(stats), how="cross")
    per_group = piv.group_by(keys).agg(stats)
    # groups with rows but no instance of a or b: zero counts (other statistics stay null)
    summed = [*_CELLS, "__n", *(c for c in checks.names if not c.endswith("_value"))]
    return (
        lf.group_by(keys)
        .agg(rows)
        .join(per_group, on=keys, how="left", nulls_equal=True)
        .with_columns(pl.col(summed).fill_null(0))
    )


def merge_pair_partials(parts: pl.LazyFrame, spec: PairSpec) -> pl.LazyFrame:
    """Merge :func:`pair_partial` tables (sums; min for a check's smallest offending value and for
    the instance with two truths; the first five gap descriptions of the union)."""
    two = pl.col("__inst").min()
    gaps = pl.col("__list").list.explode(keep_nulls=False, empty_as_null=False)
    aggs = [
        pl.col("__rows_a", "__rows_b", *_CELLS, "__n").sum(),
        *spec.label_checks().merge(),
        gaps.sort().head(_GAPS).implode(),
        two.alias("__inst"),
        pl.col("__truths").filter(pl.col("__inst") == two).first(),
    ]
    return parts.group_by(spec.keys).agg(aggs) if spec.keys else parts.select(aggs)


def pairs_from_partials(merged: pl.DataFrame, spec: PairSpec) -> pl.LazyFrame:
    """``*keys, a, b, e00…e11`` from the merged :func:`pair_partial` statistics, after enforcing the
    group-scoped checks in the order they fire on one machine: both learners have rows, the
    labels are valid, every instance is paired, every instance has one truth."""
    func, a, b, keys = spec.func, spec.a, spec.b, spec.keys
    table = merged.sort(keys, nulls_last=True) if keys else merged
    table = collect(enforce(table.lazy(), rows_guard(func, a, b, keys)))
    table = collect(spec.label_checks().enforce(table.lazy(), keys))
    table = table.with_columns(pl.col("__list").list.join(", "))
    table = collect(enforce(table.lazy(), gap_guard(func, {"instance": spec.instance}, a, b, keys)))
    table = collect(enforce(table.lazy(), spec.truth_guard("__inst")))
    return spec.with_learners(table.lazy().select(*keys, *_CELLS))


@frame_function
def contingency_table(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
) -> Frame:
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
    >>> df = pl.DataFrame({"learner": ["A"] * 3 + ["B"] * 3, "instance": [1, 2, 3] * 2,
    ...                    "y": [1, 0, 1] * 2, "p": [1, 0, 0, 1, 1, 0]})
    >>> fe.contingency_table(df, "y", "p", a="A", b="B").select("cell", "count").rows()
    [('e00', 1), ('e01', 0), ('e10', 1), ('e11', 1)]
    """
    (learner,) = resolve_roles(
        data, "contingency_table", [by, truth, pred, instance], learner=learner
    )
    func = "contingency_table"
    counts, eager, keys = _counts(data, func, truth, pred, a, b, learner, instance, by, CONTINGENCY)
    return finish(cells_table(counts, keys), eager)


def cells_table(counts: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """Table 2.4 in long form (the output of :func:`contingency_table`) from the cell counts."""
    long = counts.unpivot(index=[*keys, "a", "b"], on=list(_CELLS), variable_name="cell")
    long = long.with_columns(
        pl.col("value").alias("count"),
        pl.col("cell").is_in(["e00", "e01"]).alias("b_correct"),
        pl.col("cell").is_in(["e00", "e10"]).alias("a_correct"),
    )
    return CONTINGENCY.out(long, keys)


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


@frame_function
def mcnemar(
    data: IntoFrame,
    truth: str,
    pred: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
    exact: bool = False,
    alpha: float = 0.05,
) -> Frame:
    """McNemar's test of two classifiers on the same test set (chapter 2.4.3, eq 2.33).

    If learners A and B perform the same, the instances only one of them gets right split
    evenly: e01 = e10 in expectation. The continuity-corrected statistic
    τ_χ² = (|e01 − e10| − 1)² / (e01 + e10) then follows a χ² distribution with 1 degree of
    freedom; ``exact=True`` uses the exact binomial distribution of min(e01, e10) instead.

    Parameters
    ----------
    data, truth, pred, a, b, learner, instance
        As in :func:`contingency_table`.
    by
        Key column(s): one test per group.
    exact
        Use the exact binomial test (recommended when e01 + e10 is small, say < 25).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, e00, e01, e10, e11, statistic, df, p_value,
    critical_value, alpha, reject, better, mean_difference, cohen_d, cliff_delta``, sorted by
    keys: the cells of Table 2.4 (see
    :func:`contingency_table`), and

    * χ² form (default): ``statistic`` = τ_χ² (eq 2.33), ``df`` = 1, ``p_value`` =
      P(χ²₁ > τ_χ²), ``critical_value`` = χ²_α (3.8415 at α = 0.05, 2.7055 at α = 0.1),
      ``reject`` = τ_χ² > χ²_α;
    * exact form: ``statistic`` = min(e01, e10), ``df`` null, ``p_value`` =
      min(1, 2 P(X ≤ statistic)) for X ~ Binomial(e01 + e10, ½), ``critical_value`` = the
      largest count that rejects (null when none can), ``reject`` = p_value < α;
    * ``better`` — the learner with fewer errors (a when e01 < e10: a is wrong less often on
      the instances the two disagree on) when rejected, null otherwise;
    * the effect sizes of the paired correctness dᵢ = [a right] − [b right] over the n
      instances: ``mean_difference`` = (e10 − e01)/n, a's accuracy minus b's; ``cohen_d`` =
      d_z = d̄/s_d; ``cliff_delta`` — for two 0/1 samples Cliff's δ equals the accuracy
      difference.

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
    >>> df = pl.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "instance": [1, 2, 3, 4] * 2,
    ...                    "y": [1, 0, 1, 1] * 2, "p": [1, 0, 1, 0, 0, 1, 0, 0]})
    >>> fe.mcnemar(df, "y", "p", a="A", b="B").select("e01", "e10", "statistic", "df").row(0)
    (0, 3, 1.3333333333333333, 1)
    """
    (learner,) = resolve_roles(data, "mcnemar", [by, truth, pred, instance], learner=learner)
    func = "mcnemar"
    alpha = check_alpha(alpha, func)
    A_BOOL(func, "exact", exact)
    counts, eager, keys = _counts(data, func, truth, pred, a, b, learner, instance, by, MCNEMAR)
    return finish(mcnemar_test(counts, keys, exact, alpha), eager)


def mcnemar_test(counts: pl.LazyFrame, keys: list[str], exact: bool, alpha: float) -> pl.LazyFrame:
    """McNemar's test (the output of :func:`mcnemar`, sorted by keys) from the cell counts
    ``*keys, a, b, e00, e01, e10, e11``."""
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
    shape = MCNEMAR.deciding("p_value") if exact else MCNEMAR  # the χ² form: τ_χ² > χ²_α
    out = shape.decide(out).with_columns(
        better_expr(pl.col("e01") < pl.col("e10"), pl.col("e01") > pl.col("e10"))
    )
    return shape.out(out.with_columns(_effects()), keys)


def _effects() -> list[pl.Expr]:
    """The effect sizes of the paired correctness dᵢ = [a right] − [b right] ∈ {−1, 0, 1}, from
    the cells: d̄ = (e10 − e01)/n (a's accuracy minus b's), s² = (e10 + e01 − n d̄²)/(n − 1),
    d_z = d̄/s (s = 0 when every dᵢ is the same, as :func:`mean_std`); for two 0/1 samples
    Cliff's δ = P(a > b) − P(a < b) = acc_a − acc_b = d̄."""
    e01, e10 = (pl.col(c).cast(pl.Float64) for c in ("e01", "e10"))
    n = pl.sum_horizontal("e00", "e01", "e10", "e11").cast(pl.Float64)
    mean = (e10 - e01) / n
    kinds = pl.sum_horizontal(
        (pl.col("e10") > 0).cast(pl.Int8),
        (pl.col("e01") > 0).cast(pl.Int8),
        ((pl.col("e00") + pl.col("e11")) > 0).cast(pl.Int8),
    )
    sd = (
        pl.when(kinds <= 1)
        .then(pl.lit(0.0))
        .otherwise(((e10 + e01 - n * mean**2) / (n - 1.0)).sqrt())
    )
    return [
        mean.alias("mean_difference"),
        ratio(mean, sd).alias("cohen_d"),
        mean.alias("cliff_delta"),
    ]
