"""Sufficient statistics of the measures, as Polars aggregate expressions.

A measure's formula (declared once, in its :class:`~frameeval.metrics.measure.Measure`) reads
statistics, never rows. The statistics are built here from *any weighted long frame*: a result
frame (``truth``, ``pred``, optional ``weight``) inside a user's ``group_by().agg()``, or the
confusion-count table (``actual``, ``predicted``, ``count``) that the frame functions build once
per group. Because the count table is itself a weighted frame, the same expressions serve both
faces, and the Dask backend merges the counts before applying them.

* :class:`BinaryCounts` — TP, FP, FN, TN of one positive class (Table 2.1): scalars, or vectors
  with one entry per class (the one-vs-rest counts behind macro averages).
* :class:`ClassCounts` — the multiclass summary: the sorted label set and, per class, the
  diagonal, the actual and the predicted totals (vectors of length K), plus the cheap scalars
  Σ correct and Σ w.
* :class:`ScoreTable` — per distinct score, descending: the positive and negative mass (ranking
  measures).
* :class:`Statistic` / :class:`Sums` — the named per-group statistics of regression measures
  (weighted sums, min / max, a median), by name.

Counts are Float64: weighted sums, and no product of two counts overflows Polars' 32-bit row
counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import polars as pl

__all__ = [
    "BinaryCounts",
    "Bound",
    "ClassCounts",
    "ScoreTable",
    "Statistic",
    "Sums",
    "ratio",
    "weight_expr",
    "weight_total",
]


def _same(expr: pl.Expr) -> pl.Expr:
    return expr


def weight_expr(weight: str | None) -> pl.Expr:
    """Per-row weight as Float64 (1.0 without ``weight=``)."""
    return pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0, dtype=pl.Float64)


def weight_total(weight: str | None) -> pl.Expr:
    """Σ w over the group (the row count without ``weight=``), Float64."""
    if weight is None:
        return pl.len().cast(pl.Float64)
    return pl.col(weight).cast(pl.Float64).sum()


def total(condition: pl.Expr, weight: str | None) -> pl.Expr:
    """Σ w·[condition] over the group (the book's Σ p(x)·I(·), eq 2.5), Float64."""
    if weight is None:
        return condition.sum().cast(pl.Float64)
    return (weight_expr(weight) * condition.cast(pl.Float64)).sum()


def positive_part(denominator: pl.Expr) -> pl.Expr:
    """``denominator`` where it is > 0, else null (also for NaN): dividing by it gives null,
    never NaN or ±inf. For denominators that cannot be negative (masses, pair counts,
    variances); written once so that an aggregate stays on Polars' fast path (a ``when``
    around the cheap denominator, not around the division or a ``fill_nan`` after it)."""
    return pl.when(denominator > 0).then(denominator)


def ratio(numerator: pl.Expr, denominator: pl.Expr, zero_division: float | None = None) -> pl.Expr:
    """numerator / denominator, with ``zero_division`` (default null) for 0/0.

    Every ratio of a measure has a numerator that is 0 whenever its denominator is (counts of a
    subset of the denominator's rows), so only a zero denominator is undefined. It is nulled
    before the division (``when(den ≠ 0).then(den)``) rather than the NaN after it
    (``fill_nan``): both keep a lazy ``group_by`` on its fast path, but an eager one (the
    in-memory engine) evaluates a ``fill_nan`` of an aggregate group by group — measured 1.9×
    slower for ``fe.precision`` on 1M rows × 1,000 groups.
    """
    # a NaN denominator (0/0 further up, e.g. κ's chance agreement of a zero-weight group) is
    # undefined too
    value = numerator / pl.when((denominator != 0) & denominator.is_not_nan()).then(denominator)
    if zero_division is None:
        return value
    return value.fill_null(pl.lit(zero_division, dtype=pl.Float64))


@dataclass(frozen=True)
class BinaryCounts:
    """TP, FP, FN, TN (Table 2.1) as Float64 expressions: scalars for one positive class, or
    vectors (one entry per class, one-vs-rest) inside a macro average."""

    tp: pl.Expr
    fp: pl.Expr
    fn: pl.Expr
    tn: pl.Expr
    #: TP + FN and TP + FP when counted directly (unweighted rows): a formula that reads
    #: ``actual`` / ``predicted`` then names one sum instead of three, which matters where
    #: Polars does not share sub-expressions (an eager ``group_by``)
    n_actual: pl.Expr | None = None
    n_predicted: pl.Expr | None = None

    @property
    def actual(self) -> pl.Expr:
        """Actual positives TP + FN."""
        return self.n_actual if self.n_actual is not None else self.tp + self.fn

    @property
    def predicted(self) -> pl.Expr:
        """Predicted positives TP + FP."""
        return self.n_predicted if self.n_predicted is not None else self.tp + self.fp

    @property
    def negative(self) -> pl.Expr:
        """Actual negatives TN + FP."""
        return self.tn + self.fp

    @property
    def total(self) -> pl.Expr:
        return self.tp + self.fp + self.fn + self.tn

    def summed(self) -> BinaryCounts:
        """Σ over classes of each count (the micro average's counts, eqs 2.15–2.17)."""
        return BinaryCounts(self.tp.sum(), self.fp.sum(), self.fn.sum(), self.tn.sum())

    @staticmethod
    def of(
        truth: pl.Expr,
        pred: pl.Expr,
        positive: pl.Expr,
        weight: str | None,
        shared: Callable[[pl.Expr], pl.Expr] | None = None,
    ) -> BinaryCounts:
        """Counts of the class ``positive`` from row-level label expressions.

        Unweighted, FP, FN and TN are differences of integer counts (exact). Weighted, each is
        its own sum: a difference of float sums would lose a small count next to large weights.
        ``shared`` (a :class:`~frameeval._validate.Shared`): the sums are its fields.
        """
        read = shared if shared is not None else _same
        actual = truth == positive
        predicted = pred == positive
        if weight is None:
            tp = read((actual & predicted).sum()).cast(pl.Float64)
            n = read(pl.len()).cast(pl.Float64)
            n_actual = read(actual.sum()).cast(pl.Float64)
            n_predicted = read(predicted.sum()).cast(pl.Float64)
            fp = n_predicted - tp
            fn = n_actual - tp
            return BinaryCounts(tp, fp, fn, n - n_actual - fp, n_actual, n_predicted)
        return BinaryCounts(
            read(total(actual & predicted, weight)),
            read(total(~actual & predicted, weight)),
            read(total(actual & ~predicted, weight)),
            read(total(~actual & ~predicted, weight)),
        )


@dataclass(frozen=True)
class ClassCounts:
    """The multiclass sufficient statistics of a label measure, built lazily from columns.

    The scalars (:attr:`correct`, :attr:`total`) are plain sums; the per-class vectors (length K,
    classes of truth ∪ pred in sorted order) cost one sort per group and are built only by the
    measures that read them.
    """

    truth: pl.Expr
    pred: pl.Expr
    weight: str | None
    labels: pl.Expr | None = None  # a fixed, sorted class set (``labels=``) instead of truth ∪ pred

    @property
    def correct(self) -> pl.Expr:
        """Σ w·[truth = pred] (the trace of the confusion matrix)."""
        return total(self.truth == self.pred, self.weight)

    @property
    def total(self) -> pl.Expr:
        """Σ w."""
        return weight_total(self.weight)

    @property
    def classes(self) -> pl.Expr:
        """The label set truth ∪ pred (or the given ``labels``), sorted (length K)."""
        if self.labels is not None:
            return self.labels
        return pl.concat([self.truth, self.pred]).unique().sort()

    def _per_class(self, labels: pl.Expr, weights: pl.Expr | None) -> pl.Expr:
        """Σ weights per class of ``classes`` (a K-vector): a sorted search; without weights
        the count is the distance between the two search positions, with weights the sum of the
        slice between them."""
        ordered = labels.sort()
        upper = ordered.search_sorted(self.classes, side="right")
        lower = ordered.search_sorted(self.classes, side="left")
        lower, upper = lower.cast(pl.Int64), upper.cast(pl.Int64)
        if weights is None:
            return (upper - lower).cast(pl.Float64)
        # each class's weights summed on their own (a slice of the sorted weights per class), not
        # as a difference of cumulative sums: a class of weight 1e-3 after one of 1e9 kept only
        # eight digits that way. K slices of one list: O(n·K) per group, weighted path only.
        sorted_weights = pl.repeat(weights.sort_by(labels).implode(), self.classes.len())
        return sorted_weights.list.slice(lower, upper - lower).list.sum()

    def _weights(self) -> pl.Expr | None:
        return pl.col(self.weight).cast(pl.Float64) if self.weight else None

    @property
    def actual(self) -> pl.Expr:
        """Per class k: Σ w·[truth = k] (the row sums t_k; support)."""
        return self._per_class(self.truth, self._weights())

    @property
    def predicted(self) -> pl.Expr:
        """Per class k: Σ w·[pred = k] (the column sums p_k)."""
        return self._per_class(self.pred, self._weights())

    @property
    def diagonal(self) -> pl.Expr:
        """Per class k: Σ w·[truth = pred = k] (TP_k)."""
        hit = self.truth == self.pred
        weights = self._weights()
        return self._per_class(
            self.truth.filter(hit), None if weights is None else weights.filter(hit)
        )

    def one_vs_rest(self) -> BinaryCounts:
        """Per class k, the binary counts of "k against the rest" (K-vectors).

        Unweighted, FP, FN and TN are differences of integer counts (exact). Weighted, FP and
        FN are their own sums over the misclassified rows, and the negatives of class k are the
        sum of the *other* classes' totals (exclusive prefix + suffix sums), so no small count
        is the difference of two large ones (catastrophic cancellation: a class holding weight
        1e9 beside classes of weight 1e-3 gave negative rates).
        """
        tp, actual = self.diagonal, self.actual
        if self.weight is None:
            predicted = self.predicted
            fp = predicted - tp
            fn = actual - tp
            return BinaryCounts(tp, fp, fn, self.total - actual - fp)
        miss = self.truth != self.pred
        weights = pl.col(self.weight).cast(pl.Float64).filter(miss)
        fp = self._per_class(self.pred.filter(miss), weights)
        fn = self._per_class(self.truth.filter(miss), weights)
        others = actual.cum_sum().shift(1, fill_value=0.0) + actual.cum_sum(reverse=True).shift(
            -1, fill_value=0.0
        )
        return BinaryCounts(tp, fp, fn, others - fp)

    def index(self, labels: pl.Expr) -> pl.Expr:
        """Per row, the position (0-based) of its label in :attr:`classes`."""
        return self.classes.search_sorted(labels, side="left").cast(pl.Float64)

    def disagreement(self, power: int) -> pl.Expr:
        """Σ w·|i(truth) − i(pred)|^power: the observed weighted disagreement of Cohen's κ."""
        gap = (self.index(self.truth) - self.index(self.pred)).abs()
        return (weight_expr(self.weight) * gap.pow(power)).sum()


@dataclass(frozen=True)
class ClassTable:
    """The same statistics as :class:`ClassCounts`, read from a per-class table.

    The frame functions count the confusion cells once (``*by, actual, predicted, count``),
    fold them into one row per group × class (:func:`class_table`: columns ``label, tp,
    support, n_pred, fp, fn, tn`` and the κ disagreements ``dis1, dis2``), and evaluate a measure's
    formula inside ``group_by(*by).agg(...)`` of that table, where every column is the K-vector
    of its group (rows sorted by label). Vectorised across groups: no per-group sort.
    """

    classes = pl.col("label")
    actual = pl.col("support")
    predicted = pl.col("n_pred")
    diagonal = pl.col("tp")
    total = pl.col("support").sum()
    correct = pl.col("tp").sum()

    def one_vs_rest(self) -> BinaryCounts:
        return BinaryCounts(pl.col("tp"), pl.col("fp"), pl.col("fn"), pl.col("tn"))

    def disagreement(self, power: int) -> pl.Expr:
        return pl.col(f"dis{power}").first()


def class_table(
    counts: pl.LazyFrame, keys: list[str], labels: pl.Series | None, disagreement: bool
) -> pl.LazyFrame:
    """``*keys, label, tp, support, n_pred, fp, fn, tn[, dis1, dis2]`` from a count table, one row
    per group × class of truth ∪ pred (or of ``labels``), sorted by keys and label."""
    count = pl.col("count").cast(pl.Float64)
    zero = pl.lit(0.0, dtype=pl.Float64)
    hit = pl.col("actual") == pl.col("predicted")
    as_actual = counts.select(
        *keys,
        pl.col("actual").alias("label"),
        pl.when(hit).then(count).otherwise(zero).alias("tp"),
        count.alias("support"),
        zero.alias("n_pred"),
        zero.alias("fp"),
        pl.when(hit).then(zero).otherwise(count).alias("fn"),
    )
    as_predicted = counts.select(
        *keys,
        pl.col("predicted").alias("label"),
        zero.alias("tp"),
        zero.alias("support"),
        count.alias("n_pred"),
        pl.when(hit).then(zero).otherwise(count).alias("fp"),
        zero.alias("fn"),
    )
    parts = [as_actual, as_predicted]
    if labels is not None:
        groups = counts.select(keys).unique() if keys else pl.LazyFrame({"__fe_one": [0]})
        grid = groups.with_columns(pl.lit(labels).implode().alias("label")).explode("label")
        grid = grid.with_columns(
            *(
                c.alias(n)
                for n, c in (
                    ("tp", zero),
                    ("support", zero),
                    ("n_pred", zero),
                    ("fp", zero),
                    ("fn", zero),
                )
            )
        )
        parts.append(grid.drop("__fe_one") if not keys else grid)
    table = (
        pl.concat(parts, how="vertical_relaxed")
        .group_by(*keys, "label")
        .agg(pl.col("tp", "support", "n_pred", "fp", "fn").sum())
        .sort(*keys, "label", nulls_last=True)
    )
    table = _with_true_negatives(table, counts, keys, count)
    if not disagreement:
        return table
    index = table.select(
        *keys,
        "label",
        (pl.int_range(pl.len()).over(keys) if keys else pl.int_range(pl.len()))
        .cast(pl.Float64)
        .alias("__fe_i"),
    )
    cells = counts.join(
        index.rename({"label": "actual", "__fe_i": "__fe_ia"}),
        on=[*keys, "actual"],
        nulls_equal=True,
    ).join(
        index.rename({"label": "predicted", "__fe_i": "__fe_ip"}),
        on=[*keys, "predicted"],
        nulls_equal=True,
    )
    gap = (pl.col("__fe_ia") - pl.col("__fe_ip")).abs()
    dis = [(count * gap).sum().alias("dis1"), (count * gap * gap).sum().alias("dis2")]
    sums = cells.group_by(keys).agg(*dis) if keys else cells.select(*dis)
    if keys:
        return table.join(sums, on=keys, how="left", nulls_equal=True).sort(
            *keys, "label", nulls_last=True
        )
    return table.join(sums, how="cross", maintain_order="left")


def _with_true_negatives(
    table: pl.LazyFrame, counts: pl.LazyFrame, keys: list[str], count: pl.Expr
) -> pl.LazyFrame:
    """Add ``tn``: per group × class k, Σ count over the cells with actual ≠ k and predicted ≠ k.

    Integer counts: the group total − support − fp (exact). Float (weighted) counts: the cells
    summed on their own, one join of the cells with the group's classes, so that a TN of 1e-3
    beside cells of 1e9 is not the difference of two large sums.
    """
    if not counts.collect_schema()["count"].is_float():
        support = pl.col("support")
        total = support.sum().over(keys) if keys else support.sum()
        return table.with_columns((total - support - pl.col("fp")).alias("tn"))
    classes = table.select(*keys, pl.col("label").alias("__fe_k"))
    cells = (
        counts.join(classes, on=keys, nulls_equal=True)
        if keys
        else counts.join(classes, how="cross")
    )
    others = (pl.col("actual") != pl.col("__fe_k")) & (pl.col("predicted") != pl.col("__fe_k"))
    tn = (
        cells.filter(others.fill_null(True))
        .group_by(*keys, "__fe_k")
        .agg(count.sum().alias("tn"))
        .rename({"__fe_k": "label"})
    )
    return (
        table.join(tn, on=[*keys, "label"], how="left", nulls_equal=True)
        .with_columns(pl.col("tn").fill_null(0.0))
        .sort(*keys, "label", nulls_last=True)
    )


@dataclass(frozen=True)
class ScoreTable:
    """Per distinct score in descending order: the positive and negative mass at that score.

    A run of tied scores is one threshold (one diagonal ROC step, eq 2.21's ½). Built inside an
    aggregation from rows (:meth:`of`), or from a precomputed per-score count table whose rows
    are already the distinct scores.
    """

    positive: pl.Expr  # K-vector, descending score order
    negative: pl.Expr
    #: TP(≥ t) and FP(≥ t) when precomputed outside the aggregation (see :meth:`from_columns`)
    cumulative_positive: pl.Expr | None = None
    cumulative_negative: pl.Expr | None = None

    @staticmethod
    def of(truth: str, score: str, positive: pl.Expr, weight: str | None) -> ScoreTable:
        s = pl.col(score)
        is_pos = pl.col(truth) == positive
        thresholds = s.unique().sort(descending=True)

        def mass(scores: pl.Expr, weights: pl.Expr | None) -> pl.Expr:
            ordered = scores.sort()
            upper = ordered.search_sorted(thresholds, side="right")
            lower = ordered.search_sorted(thresholds, side="left")
            if weights is None:
                return (upper.cast(pl.Int64) - lower.cast(pl.Int64)).cast(pl.Float64)
            cumulative = pl.concat(
                [pl.lit(0.0, dtype=pl.Float64), weights.sort_by(scores).cum_sum()]
            )
            return cumulative.gather(upper) - cumulative.gather(lower)

        if weight is None:
            return ScoreTable(mass(s.filter(is_pos), None), mass(s.filter(~is_pos), None))
        w = pl.col(weight).cast(pl.Float64)
        positive_mass = mass(s.filter(is_pos), w.filter(is_pos))
        negative_mass = mass(s.filter(~is_pos), w.filter(~is_pos))
        # a threshold whose rows all weigh 0 is no threshold (no ROC / P-R point)
        carries = (positive_mass + negative_mass) > 0
        return ScoreTable(positive_mass.filter(carries), negative_mass.filter(carries))

    @staticmethod
    def from_columns(positive: str, negative: str, tp: str, fp: str) -> ScoreTable:
        """From a per-distinct-score table sorted by group and threshold (descending) that
        already holds the cumulative masses (``tp``, ``fp``: a window ``cum_sum`` per group,
        rows of zero mass included, they add nothing): the formulas then read plain columns,
        which keeps them on Polars' fast aggregation path (a ``cum_sum`` inside the aggregation
        is ~10× slower). Thresholds whose rows all weigh 0 are dropped, as :meth:`of` does."""
        carries = (pl.col(positive) + pl.col(negative)) > 0
        return ScoreTable(
            pl.col(positive).filter(carries),
            pl.col(negative).filter(carries),
            pl.col(tp).filter(carries),
            pl.col(fp).filter(carries),
        )

    @property
    def tp(self) -> pl.Expr:
        """TP(≥ t) at each threshold t (descending)."""
        if self.cumulative_positive is not None:
            return self.cumulative_positive
        return self.positive.cum_sum()

    @property
    def fp(self) -> pl.Expr:
        """FP(≥ t) at each threshold t."""
        if self.cumulative_negative is not None:
            return self.cumulative_negative
        return self.negative.cum_sum()

    @property
    def n_positive(self) -> pl.Expr:
        return self.positive.sum()

    @property
    def n_negative(self) -> pl.Expr:
        return self.negative.sum()


# ---------------------------------------------------------------------------------------------
# regression statistics
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Statistic:
    """One named per-group statistic of a regression measure.

    ``row(truth, pred, **parameters)`` is the per-row value (Float64 expressions in, one out;
    ``parameters`` only when ``parametric``); ``merge`` says how the rows make the statistic
    and how partial statistics merge:

    * ``"sum"``: Σ w·row (``row=None``: Σ w itself), merged by addition;
    * ``"min"`` / ``"max"``: the smallest / largest row value of positive weight, merged by
      min / max;
    * ``"median"``: the weighted median of the row values (scikit-learn's rule), which does
      not merge (the Dask backend shuffles the rows of a group to one partition).

    Measures that share a statistic object share its column in :func:`frameeval.measures`.
    """

    row: Callable[..., pl.Expr] | None
    merge: Literal["sum", "min", "max", "median"] = "sum"
    parametric: bool = False
    #: a cheaper per-row value for rows without weights (every weight 1), where it gives the
    #: same statistic whenever the measure's value is defined (MAPE's finite-part sum: a plain
    #: Σ|r|, which is non-finite only where a zero truth already makes the MAPE null, while a
    #: weighted sum must drop such a row of weight 0 instead of adding 0·inf = NaN)
    unweighted: Callable[..., pl.Expr] | None = None
    #: a statistic whose sum is finite whenever this one's value is not needed: over a whole
    #: frame without weights (an eager ``df.select``) this one's rows are read only when that
    #: sum — which the measure's value reads anyway — is not finite, and otherwise it is the
    #: statistic of no rows (0 for a sum, which no measure then reads; null for a max, which
    #: MAPE reads as "no zero truth"). RMSE's and R²'s scaled squares stand in for Σe² and Σy²
    #: when those overflow; MAPE's zero-truth flag matters only when Σ|e|/|y| is not finite
    #: (see ``builders.regression_sums``)
    unless_finite: Statistic | None = None
    #: its unweighted sum is finite only when every truth and prediction is (its row reads
    #: f − y): over a whole frame the guard's finiteness counts read the rows only when it is
    #: not (see :meth:`frameeval._validate.Shared.prove`)
    proves_finite: bool = False


#: a measure's direction and range when it is a share in [0, 1] that is better high (a rate,
#: an area, an F-score) or, ``UNIT_LOSS``, better low (a miss rate, a loss)
UNIT_SCORE = {"higher_is_better": True, "lower": 0.0, "upper": 1.0}
UNIT_LOSS = {**UNIT_SCORE, "higher_is_better": False}


@dataclass(frozen=True)
class Bound:
    """A domain rule of a regression measure: ``role`` (``"truth"`` or ``"pred"``) must be
    ``op`` (``">"`` or ``">="``) ``value``; ``why`` ends the error message."""

    role: str
    op: Literal[">", ">="]
    value: float
    why: str = ""


class Sums:
    """The statistics of a regression measure by name (``s.w``, ``s.ee`` …), as expressions."""

    def __init__(self, values: Mapping[str, pl.Expr]) -> None:
        self._values = dict(values)

    def __getattr__(self, name: str) -> pl.Expr:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(name) from None
