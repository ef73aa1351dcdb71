"""Probabilistic predictions as grouped, lazy frame functions: proper scoring rules of multiclass
probabilities, calibration curves with confidence intervals, calibration errors (ECE, MCE) and
the Murphy decomposition of the Brier score.

A *probability* here is a number in [0, 1]: for a binary task ``score=`` is the probability of
``pos_label``; for a multiclass task the probabilities of every class are given either as one
column per class (a mapping ``{class: column}``, or a list of columns with ``labels=``) or as a
single List / Array column whose i-th element is the probability of ``labels[i]``. Every value
outside [0, 1], null, NaN or ±inf is a typed error naming the column, the group and the value;
a multiclass row whose probabilities do not sum to 1 within ``tolerance`` (default 1e-6) is an
``InvalidValueError``. Data checks run inside the plan, in the aggregation that computes the
result (see :mod:`frameeval._validate`): a LazyFrame in gives a LazyFrame out.

Binning follows scikit-learn's ``calibration_curve`` exactly. ``strategy="uniform"``: the edges
``numpy.linspace(0, 1, bins + 1)``; ``strategy="quantile"``: per group, the edges
``numpy.percentile(score, linspace(0, 1, bins + 1) * 100)`` (linear interpolation), computed
in Polars with numpy's arithmetic. A row goes to bin i when ``edge[i] < score <= edge[i + 1]``
(the first bin also takes ``score == edge[0]``); equal quantile edges give empty bins, and
empty bins are absent from every output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
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
    label_dtype,
    label_expr,
    require_columns,
    resolve_pos_label,
)
from frameeval.exceptions import InvalidDtypeError, InvalidValueError, MissingValueError
from frameeval.metrics.probability import (
    EPS,
    check_eps,
    loss_statistics,
    mean_loss_value,
)

__all__ = [
    "brier_decomposition",
    "calibration_curve",
    "calibration_error",
    "multiclass_brier_score",
    "multiclass_log_loss",
]

TOLERANCE = 1e-6
"""Default tolerance of the multiclass check |Σ_k p_k − 1| ≤ tolerance."""

_ALL = "__fe_all"  # constant key when by= is empty
_P, _Y, _T, _BIN, _CLASS = "__fe_p", "__fe_y", "__fe_t", "__fe_bin", "__fe_class"
_N, _SP, _SY, _SQ, _WV, _WC, _EDGES, _FBAR = (
    "count",
    "__fe_sp",
    "__fe_sy",
    "__fe_sq",
    "__fe_wv",
    "__fe_wc",
    "__fe_edges",
    "__fe_fbar",
)

Strategy = Literal["uniform", "quantile"]


# ---------------------------------------------------------------------------------------------
# door: frames, keys, checks
# ---------------------------------------------------------------------------------------------
@dataclass
class _Input:
    lf: pl.LazyFrame
    eager: bool
    keys: list[str]  # the user's by= keys
    gkeys: list[str]  # keys, or a constant column when by= is empty
    schema: pl.Schema
    checks: Checks

    def done(self, out: pl.LazyFrame, *columns: str) -> Any:
        if self.keys or columns:
            out = out.sort(*self.keys, *columns, nulls_last=True)
        if _ALL in out.collect_schema():
            out = out.drop(_ALL)
        return finish(out, self.eager)


def _open(
    data: IntoFrame,
    func: str,
    truth: str,
    columns: Sequence[str],
    by: Keys,
    weight: str | None,
    outputs: Sequence[str],
) -> _Input:
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, score=list(columns), by=keys, weight=weight)
    for name in outputs:
        check_parameter(
            name not in keys, func, f"by= must not use the output column name {name!r}."
        )
    check_labels(schema, func, truth=truth)
    check_numeric(schema, func, weight=weight)
    check_not_empty_eager(data, eager, lf, func)
    checks = Checks(func)
    checks.label(truth, "truth", schema[truth])
    if weight:
        checks.finite(weight, "weight", schema[weight])
        checks.non_negative(weight, "weight")
    gkeys = keys or [_ALL]
    if not keys:
        lf = lf.with_columns(pl.lit(0, dtype=pl.Int8).alias(_ALL))
    return _Input(lf, eager, keys, gkeys, schema, checks)


def _probability_rules(checks: Checks, column: str, value: pl.Expr | None = None) -> None:
    """Range rule (and, for a list element ``value``, the completeness rules) of a probability."""
    where = f"column {column!r} (score=)"
    if value is not None:
        checks.rule(value.is_null(), MissingValueError, f"{where} must not contain nulls, got null")
        checks.rule(
            ~value.is_finite(), MissingValueError, f"{where} must be finite, got NaN or inf"
        )
    v = pl.col(column).cast(pl.Float64) if value is None else value
    checks.rule(
        (v < 0) | (v > 1),
        InvalidValueError,
        f"{where} must be a probability in [0, 1], got",
        example=v,
    )


def _binary_input(
    data: IntoFrame,
    func: str,
    truth: str,
    score: str,
    by: Keys,
    pos_label: Any,
    outputs: Sequence[str],
) -> _Input:
    """Validated input of a binary task with ``_P`` (the score, Float64) and ``_Y`` (1.0 for a
    positive row, else 0.0)."""
    inp = _open(data, func, truth, [score], by, None, outputs)
    check_numeric(inp.schema, func, score=score)
    positive_label = resolve_pos_label(inp.schema, func, truth, pos_label)
    positive = label_expr(truth, inp.schema) == positive_label
    inp.checks.finite(score, "score", inp.schema[score])
    _probability_rules(inp.checks, score)
    inp.checks.present(
        positive, f"pos_label {positive_label!r} must occur in column {truth!r}, got no such row"
    )
    inp.lf = inp.lf.with_columns(
        (pl.col(score).cast(pl.Float64) + 0.0).alias(_P), positive.cast(pl.Float64).alias(_Y)
    )
    return inp


def _multiclass_input(
    data: IntoFrame,
    func: str,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    labels: Sequence[Any] | None,
    by: Keys,
    weight: str | None,
    tolerance: float,
    outputs: Sequence[str],
) -> tuple[_Input, int]:
    """Validated multiclass input with ``__fe_p{k}`` (probability of class k, Float64) and
    ``_T`` (the index of the row's true class in ``labels``); returns it and the class count."""
    check_parameter(
        isinstance(tolerance, int | float)
        and not isinstance(tolerance, bool)
        and 0.0 <= tolerance < 1.0,
        func,
        f"tolerance must be a number in [0, 1), got {tolerance!r}.",
    )
    list_column: str | None = None
    if isinstance(score, Mapping):
        check_parameter(
            labels is None,
            func,
            "labels= must be None when score= is a mapping {class: "
            f"column}}, got labels={labels!r}.",
        )
        classes, columns = list(score.keys()), list(score.values())
    else:
        check_parameter(
            labels is not None,
            func,
            "labels= is required when score= is a list of columns or a list column "
            "(the class of each probability), got None.",
        )
        classes = list(labels or [])
        if isinstance(score, str):
            list_column, columns = score, [score]
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
    inp = _open(data, func, truth, columns, by, weight, outputs)
    k = len(classes)
    dtype = label_dtype(inp.schema, truth)
    cast = pl.Series("label", classes).cast(dtype, strict=False)
    check_parameter(
        cast.null_count() == 0,
        func,
        f"labels must match the dtype of column {truth!r} ({dtype}), got {classes!r}.",
    )
    actual = label_expr(truth, inp.schema)
    inp.checks.within(truth, "truth", classes, actual, dtype)
    if list_column is not None:
        dtype = inp.schema[list_column]
        inner = dtype.inner if isinstance(dtype, pl.List | pl.Array) else None
        if inner is None or not (inner.is_float() or inner.is_integer()):
            raise InvalidDtypeError(
                f"{func}(): column {list_column!r} (score=) must be a numeric List or Array "
                f"column when score= names one column, got {dtype}.\nHint: for a binary task "
                "pass the probability of the positive class to the binary function."
            )
        as_list = pl.col(list_column).cast(pl.List(pl.Float64))
        inp.checks.not_null(list_column, "score")
        inp.checks.rule(
            as_list.list.len() != k,
            InvalidValueError,
            f"column {list_column!r} (score=) must hold {k} probabilities per row (one per "
            "label), got",
            example=as_list.list.len(),
        )
        probabilities = [as_list.list.get(i, null_on_oob=True) for i in range(k)]
        for p in probabilities:  # loop-ok: one rule set per class, built once
            _probability_rules(inp.checks, list_column, p)
        where = f"column {list_column!r}"
    else:
        for column in columns:  # loop-ok: one rule set per class column
            check_numeric(inp.schema, func, score=column)
            inp.checks.finite(column, "score", inp.schema[column])
            _probability_rules(inp.checks, column)
        probabilities = [pl.col(c).cast(pl.Float64) for c in columns]
        where = f"columns {list(columns)!r}"
    total = pl.sum_horizontal(probabilities)
    inp.checks.rule(
        (total - 1.0).abs() > tolerance,
        InvalidValueError,
        f"probabilities in {where} (score=) must sum to 1 within {tolerance:g} per row, got a "
        "sum of",
        example=total,
    )
    index = actual.replace_strict(cast, pl.Series(range(k)), default=None, return_dtype=pl.Int64)
    inp.lf = inp.lf.with_columns(
        *[(p + 0.0).alias(f"__fe_p{i}") for i, p in enumerate(probabilities)],
        index.alias(_T),
    )
    return inp, k


def _check_bins(func: str, bins: Any, strategy: Any, allow_none: bool = False) -> None:
    ok = (allow_none and bins is None) or (
        isinstance(bins, int) and not isinstance(bins, bool) and bins >= 1
    )
    rule = "None or an integer >= 1" if allow_none else "an integer >= 1"
    check_parameter(ok, func, f"bins must be {rule}, got {bins!r}.")
    check_parameter(
        strategy in ("uniform", "quantile"),
        func,
        f"strategy must be 'uniform' or 'quantile', got {strategy!r}.",
    )


# ---------------------------------------------------------------------------------------------
# binning (scikit-learn's calibration_curve, grouped)
# ---------------------------------------------------------------------------------------------
def _percentiles(value: pl.Expr, bins: int) -> pl.Expr:
    """Per group: numpy.percentile(value, linspace(0, 1, bins + 1) * 100), method "linear",
    with numpy's arithmetic (virtual index (n − 1)·q, its lerp switching ends at γ = ½)."""
    q = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    s = value.sort()
    last = (pl.len() - 1).cast(pl.Float64)
    virtual = pl.lit(pl.Series(q, dtype=pl.Float64)) * last
    previous = virtual.floor()
    above = virtual >= last
    lo = pl.when(above).then(last).otherwise(previous).cast(pl.Int64)
    hi = pl.when(above).then(last).otherwise(previous + 1.0).cast(pl.Int64)
    gamma = pl.when(above).then(virtual + 1.0).otherwise(virtual - previous)
    a, b = s.gather(lo), s.gather(hi)
    diff = b - a
    return pl.when(gamma >= 0.5).then(b - diff * (1.0 - gamma)).otherwise(a + diff * gamma)


def _bin_stats(
    lf: pl.LazyFrame,
    gkeys: Sequence[str],
    keys: Sequence[str],
    checks: Checks,
    bins: int,
    strategy: str,
    extra: Sequence[pl.Expr] = (),
) -> pl.LazyFrame:
    """``*gkeys, __fe_bin, bin_lower, bin_upper, count, Σp, Σy, *extra`` per non-empty bin, from a
    frame with ``_P`` and ``_Y``; the checks are aggregated (and enforced) in the same pass."""
    p = pl.col(_P)
    base = [
        pl.len().cast(pl.Int64).alias(_N),
        p.sum().alias(_SP),
        pl.col(_Y).sum().alias(_SY),
        *extra,
    ]
    if strategy == "uniform":
        edges = pl.Series(np.linspace(0.0, 1.0, bins + 1), dtype=pl.Float64)
        binned = lf.with_columns(
            pl.lit(edges[1:-1]).search_sorted(p, side="left").cast(pl.Int64).alias(_BIN)
        )
        stats = checks.enforce(binned.group_by(*gkeys, _BIN).agg(*base, *checks.aggs()), keys)
        return stats.with_columns(
            pl.lit(edges).gather(pl.col(_BIN)).alias("bin_lower"),
            pl.lit(edges).gather(pl.col(_BIN) + 1).alias("bin_upper"),
        )
    edge = _percentiles(p, bins)
    groups = lf.group_by(*gkeys).agg(
        edge.alias(_EDGES),
        edge.slice(1, bins - 1).search_sorted(p, side="left").cast(pl.Int64).alias(_BIN),
        p,
        pl.col(_Y),
        *checks.aggs(),
    )
    groups = checks.enforce(groups, keys)
    rows = groups.select(*gkeys, _BIN, _P, _Y).explode(_BIN, _P, _Y)
    stats = rows.group_by(*gkeys, _BIN).agg(*base)
    return stats.join(
        groups.select(*gkeys, _EDGES), on=list(gkeys), how="left", nulls_equal=True
    ).select(
        pl.exclude(_EDGES),
        pl.col(_EDGES).list.get(pl.col(_BIN)).alias("bin_lower"),
        pl.col(_EDGES).list.get(pl.col(_BIN) + 1).alias("bin_upper"),
    )


# ---------------------------------------------------------------------------------------------
# multiclass proper scoring rules
# ---------------------------------------------------------------------------------------------
def _true_class_probability(k: int) -> pl.Expr:
    chain: Any = pl
    for i in range(k):  # loop-ok: builds one when/then per class
        chain = chain.when(pl.col(_T) == i).then(pl.col(f"__fe_p{i}"))
    return chain.otherwise(None)


def _mean_loss(
    inp: _Input, terms: pl.Expr, weight: str | None, name: str, scale: float = 1.0
) -> Any:
    loss_sum, weight_sum = loss_statistics(terms, weight)
    stats = inp.lf.group_by(inp.gkeys).agg(
        loss_sum.alias("__fe_loss"), weight_sum.alias("__fe_mass"), *inp.checks.aggs()
    )
    stats = inp.checks.enforce(stats, inp.keys)
    out = stats.select(
        *inp.gkeys,
        (mean_loss_value(pl.col("__fe_loss"), pl.col("__fe_mass")) * scale).alias(name),
    )
    return inp.done(out)


def multiclass_log_loss(
    data: IntoFrame,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    weight: str | None = None,
    eps: float = EPS,
    tolerance: float = TOLERANCE,
) -> Any:
    """Multiclass log loss (cross-entropy) per group, from the probabilities of every class.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true class; every value must be one of the classes.
    score
        The predicted probabilities, in one of three forms: a mapping ``{class: column}``; a
        list of columns together with ``labels=`` (the class of each column, in order); or the
        name of one List / Array column together with ``labels=`` (element i is the
        probability of ``labels[i]``). Each probability lies in [0, 1].
    labels
        The classes, required with a list of columns or a list column; not allowed with a
        mapping.
    by
        Key column(s); one value per group.
    weight
        Optional non-negative weights (scikit-learn's ``sample_weight``).
    eps
        The probability of the true class is clipped to [eps, 1 − eps] inside the logarithm
        (default 2⁻⁵², as scikit-learn).
    tolerance
        Each row's probabilities must sum to 1 within this (default 1e-6): a row that does not
        is an ``InvalidValueError`` (scikit-learn only warns, at about 1.5e-8).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, log_loss``, sorted by the keys.

    Notes
    -----
    L = −Σᵢ wᵢ log clip(p_{i, yᵢ}, eps, 1 − eps) / Σᵢ wᵢ, the natural logarithm of the
    probability given to each row's true class; the probabilities of the other classes do not
    enter (the log score is local). With two classes it is the binary
    :func:`frameeval.log_loss` of either class. Range [0, −log eps], lower is better. Null for
    zero total weight. Equal to scikit-learn's ``log_loss(y, P, labels=labels,
    sample_weight=w)``.

    References
    ----------
    Good, I. J. (1952). Rational decisions. Journal of the Royal Statistical Society B 14(1),
    107–114.

    See Also
    --------
    frameeval.log_loss, multiclass_brier_score

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": ["a", "b", "c", "a", "b", "c"],
    ...                    "p": [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6],
    ...                          [0.3, 0.4, 0.3], [0.5, 0.4, 0.1], [0.1, 0.1, 0.8]]})
    >>> out = fe.multiclass_log_loss(df, truth="y", score="p", labels=["a", "b", "c"])
    >>> round(out.item(), 6)
    0.572342
    """
    func = "multiclass_log_loss"
    eps = check_eps(func, eps)
    inp, k = _multiclass_input(
        data, func, truth, score, labels, by, weight, tolerance, ("log_loss",)
    )
    terms = -(_true_class_probability(k).clip(eps, 1.0 - eps).log())
    return _mean_loss(inp, terms, weight, "log_loss")


def multiclass_brier_score(
    data: IntoFrame,
    truth: str,
    score: Mapping[Any, str] | Sequence[str] | str,
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    weight: str | None = None,
    scale_by_half: bool | Literal["auto"] = "auto",
    tolerance: float = TOLERANCE,
) -> Any:
    """Multiclass Brier score per group: the mean squared distance between the probability
    vector and the one-hot outcome.

    Parameters
    ----------
    data, truth, score, labels, by, weight, tolerance
        As in :func:`multiclass_log_loss`.
    scale_by_half
        Divide by 2 (range [0, 1] instead of [0, 2]). ``"auto"`` (default, as scikit-learn)
        halves only for two classes, where the value then equals the binary
        :func:`frameeval.brier_score`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, brier_score``, sorted by the keys.

    Notes
    -----
    BS = Σᵢ wᵢ Σ_k (y_{ik} − p_{ik})² / Σᵢ wᵢ, y_{ik} = 1 when row i is of class k (Brier
    1950's original, multi-category definition), times ½ when halved. Range [0, 2] (or
    [0, 1]), lower is better. Null for zero total weight. Equal to scikit-learn's
    ``brier_score_loss(y, P, labels=labels, sample_weight=w, scale_by_half=...)``.

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of probability. Monthly
    Weather Review 78(1), 1–3.

    See Also
    --------
    frameeval.brier_score, multiclass_log_loss

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 1, 2, 0, 1, 2],
    ...                    "p0": [0.7, 0.1, 0.2, 0.3, 0.5, 0.1],
    ...                    "p1": [0.2, 0.8, 0.2, 0.4, 0.4, 0.1],
    ...                    "p2": [0.1, 0.1, 0.6, 0.3, 0.1, 0.8]})
    >>> out = fe.multiclass_brier_score(df, truth="y", score={0: "p0", 1: "p1", 2: "p2"})
    >>> round(out.item(), 6)
    0.31
    """
    func = "multiclass_brier_score"
    check_parameter(
        scale_by_half in (True, False, "auto"),
        func,
        f"scale_by_half must be True, False or 'auto', got {scale_by_half!r}.",
    )
    inp, k = _multiclass_input(
        data, func, truth, score, labels, by, weight, tolerance, ("brier_score",)
    )
    terms = pl.sum_horizontal(
        [((pl.col(_T) == i).cast(pl.Float64) - pl.col(f"__fe_p{i}")) ** 2 for i in range(k)]
    )
    half = scale_by_half is True or (scale_by_half == "auto" and k == 2)
    return _mean_loss(inp, terms, weight, "brier_score", 0.5 if half else 1.0)


# ---------------------------------------------------------------------------------------------
# calibration curves and their intervals
# ---------------------------------------------------------------------------------------------
def _wilson(k: pl.Expr, n: pl.Expr, alpha: float) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score interval, statsmodels' arithmetic, clipped to [0, 1]."""
    from scipy import stats

    crit = float(stats.norm.isf(alpha / 2.0))
    crit2 = crit**2
    q = k / n
    denom = 1.0 + crit2 / n
    center = (q + crit2 / (2.0 * n)) / denom
    dist = crit * (q * (1.0 - q) / n + crit2 / (4.0 * n**2)).sqrt() / denom
    return (center - dist).clip(0.0, 1.0), (center + dist).clip(0.0, 1.0)


def _clopper_pearson_batch(series: pl.Series, alpha: float) -> pl.Series:
    """Clopper–Pearson bounds for a struct Series of (k, n), one vectorised scipy call."""
    from scipy import stats

    k = series.struct.field("k").cast(pl.Float64).to_numpy()
    n = series.struct.field("n").cast(pl.Float64).to_numpy()
    with np.errstate(all="ignore"):
        low = np.where(k == 0, 0.0, stats.beta.ppf(alpha / 2.0, k, n - k + 1))
        high = np.where(k == n, 1.0, stats.beta.isf(alpha / 2.0, k + 1, n - k))
    return pl.DataFrame(
        {"ci_low": low, "ci_high": high}, schema={"ci_low": pl.Float64, "ci_high": pl.Float64}
    ).to_struct("__fe_ci")


def _interval(stats: pl.LazyFrame, ci: str | None, alpha: float) -> pl.LazyFrame:
    """Add ``ci_low, ci_high`` for the fraction of positives Σy / count of each bin."""
    k, n = pl.col(_SY), pl.col(_N).cast(pl.Float64)
    if ci is None:
        none = pl.lit(None, dtype=pl.Float64)
        return stats.with_columns(none.alias("ci_low"), none.alias("ci_high"))
    if ci == "wilson":
        low, high = _wilson(k, n, alpha)
        return stats.with_columns(low.alias("ci_low"), high.alias("ci_high"))
    step = pl.struct(k.alias("k"), n.alias("n")).map_batches(
        lambda s: _clopper_pearson_batch(s, alpha),
        return_dtype=pl.Struct({"ci_low": pl.Float64, "ci_high": pl.Float64}),
    )
    return stats.with_columns(step.alias("__fe_ci")).unnest("__fe_ci")


def calibration_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    bins: int = 10,
    strategy: Strategy = "uniform",
    ci: Literal["wilson", "clopper_pearson"] | None = "wilson",
    alpha: float = 0.05,
    pos_label: Any = None,
) -> Any:
    """Calibration (reliability) curves: per bin of predicted probability, the observed
    fraction of positives, with a confidence interval.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true label; ``pos_label`` is the positive class, all others negative.
    score
        The predicted probability of ``pos_label``: numeric, finite, in [0, 1].
    by
        Key column(s); one curve per group.
    bins
        Number of bins (an integer ≥ 1).
    strategy
        ``"uniform"``: equal-width bins on [0, 1]; ``"quantile"``: per group, bins holding
        (about) equal numbers of rows, with edges at the group's score percentiles.
    ci
        ``"wilson"`` (default), ``"clopper_pearson"`` (exact, conservative) or None (the
        interval columns are null).
    alpha
        The intervals have coverage 1 − alpha (two-sided).
    pos_label
        The positive class. Default: ``True`` for a boolean, 1 for a numeric column; required
        for string labels. It must occur somewhere in the frame.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, bin, bin_lower, bin_upper, mean_score,
    fraction_positive, count, ci_low, ci_high``, sorted by the keys and ``bin``; one row per
    non-empty bin (empty bins are absent, as in scikit-learn). ``bin`` (Int64) numbers the bins
    from 0; ``bin_lower`` < score ≤ ``bin_upper`` are its edges (the first bin also holds
    score = ``bin_lower``); ``mean_score`` is the bin's mean predicted probability,
    ``fraction_positive`` the share of positive rows, ``count`` (Int64) its rows;
    ``ci_low``/``ci_high`` bound the fraction of positives.

    Notes
    -----
    A calibrated score has fraction_positive ≈ mean_score in every bin: the points lie on the
    diagonal. ``mean_score`` and ``fraction_positive`` equal scikit-learn's
    ``calibration_curve(y, p, n_bins=bins, strategy=strategy)`` (``prob_pred``, ``prob_true``)
    and the edges its bin edges (see the module notes). The Wilson score interval (Wilson
    1927) with z = Φ⁻¹(1 − α/2), q = k/n,

        (q + z²/2n ± z·√(q(1 − q)/n + z²/4n²)) / (1 + z²/n),

    and the Clopper–Pearson interval [B(α/2; k, n − k + 1), B(1 − α/2; k + 1, n − k)] (B the
    beta quantile; 0 when k = 0, 1 when k = n) equal statsmodels' ``proportion_confint(k, n,
    alpha, method="wilson" | "beta")``. Wilson is a closed form in the plan; Clopper–Pearson
    runs scipy once over the (small) per-bin table when the plan is collected. Rows are not
    weighted (scikit-learn's function has no weights either).

    References
    ----------
    Niculescu-Mizil, A. & Caruana, R. (2005). Predicting good probabilities with supervised
    learning. ICML 2005, 625–632.
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    Journal of the American Statistical Association 22(158), 209–212.
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika 26(4), 404–413.

    See Also
    --------
    calibration_error, brier_decomposition, frameeval.charts.calibration

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> out = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    >>> out.select("bin", pl.col("mean_score", "fraction_positive").round(4), "count").rows()
    [(0, 0.2, 0.3333, 3), (1, 0.7667, 0.6667, 3)]
    """
    func = "calibration_curve"
    _check_bins(func, bins, strategy)
    check_parameter(
        ci in ("wilson", "clopper_pearson", None),
        func,
        f"ci must be 'wilson', 'clopper_pearson' or None, got {ci!r}.",
    )
    check_parameter(
        isinstance(alpha, float | int) and not isinstance(alpha, bool) and 0.0 < alpha < 1.0,
        func,
        f"alpha must be a number in (0, 1), got {alpha!r}.",
    )
    outputs = (
        "bin",
        "bin_lower",
        "bin_upper",
        "mean_score",
        "fraction_positive",
        "count",
        "ci_low",
        "ci_high",
    )
    inp = _binary_input(data, func, truth, score, by, pos_label, outputs)
    stats = _bin_stats(inp.lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
    stats = _interval(stats, ci, float(alpha))
    n = pl.col(_N).cast(pl.Float64)
    out = stats.select(
        *inp.gkeys,
        pl.col(_BIN).alias("bin"),
        "bin_lower",
        "bin_upper",
        (pl.col(_SP) / n).alias("mean_score"),
        (pl.col(_SY) / n).alias("fraction_positive"),
        _N,
        "ci_low",
        "ci_high",
    )
    return inp.done(out, "bin")


# ---------------------------------------------------------------------------------------------
# calibration errors
# ---------------------------------------------------------------------------------------------
def _errors(stats: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``*keys, ece, mce`` from per-bin statistics."""
    gap = (pl.col(_SY) - pl.col(_SP)).abs()
    return stats.group_by(*keys).agg(
        (gap.sum() / pl.col(_N).sum().cast(pl.Float64)).alias("ece"),
        (gap / pl.col(_N).cast(pl.Float64)).max().alias("mce"),
    )


def calibration_error(
    data: IntoFrame,
    truth: str,
    score: str | Mapping[Any, str] | Sequence[str],
    *,
    labels: Sequence[Any] | None = None,
    by: Keys = None,
    bins: int = 10,
    strategy: Strategy = "uniform",
    multiclass: Literal["top_label", "classwise"] = "top_label",
    pos_label: Any = None,
    tolerance: float = TOLERANCE,
) -> Any:
    """Expected and maximum calibration error (ECE, MCE) per group, binary or multiclass.

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true label.
    score
        Binary: the name of a numeric column holding the probability of ``pos_label``.
        Multiclass: the probabilities of every class, in the forms of
        :func:`multiclass_log_loss` (a mapping ``{class: column}``, a list of columns with
        ``labels=``, or the name of one List / Array column with ``labels=``).
    labels
        The classes of a multiclass ``score`` given as a list of columns or a list column.
    by
        Key column(s); one row per group.
    bins, strategy
        The bins, as in :func:`calibration_curve`; ``strategy="quantile"`` gives the adaptive
        ECE (equal-mass bins).
    multiclass
        ``"top_label"`` (default): the ECE of the confidence max_k p_k against whether the top
        class (ties: the first class in order) is the true one (Guo et al. 2017).
        ``"classwise"``: the mean over classes of each class's one-vs-rest ECE of p_k (Kull et
        al. 2019); ``mce`` is then the largest gap over all classes and bins.
    pos_label
        The positive class of a binary task (default ``True`` / 1, as in
        :func:`calibration_curve`).
    tolerance
        Multiclass: each row's probabilities must sum to 1 within this.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, ece, mce`` (Float64), sorted by the keys.

    Notes
    -----
    Over the non-empty bins b of the group's N rows, with n_b rows, mean score p̄_b and
    fraction of positives ō_b (those of :func:`calibration_curve`),

        ECE = Σ_b (n_b / N)·|ō_b − p̄_b|,   MCE = max_b |ō_b − p̄_b|.

    Both are 0 for a perfectly calibrated binned score and at most 1; lower is better. They
    are defined for a group with one class (ō_b is then 0 or 1 everywhere). Which to use:
    uniform bins (the usual ECE) can leave a few high-confidence bins holding most rows and
    others nearly empty, so their gaps are noisy; quantile bins (adaptive ECE, Nixon et al.
    2019) give every bin the same mass and are the better default for sharp, skewed scores.
    ECE depends on the binning and is biased upward for small bins (a perfectly calibrated
    score shows a gap from sampling noise alone); compare values only at the same binning and
    similar group sizes, and prefer a proper score (:func:`frameeval.brier_score`, its
    :func:`brier_decomposition`) to rank models. Top-label ECE judges only the class a model
    would predict; class-wise ECE judges every class's probability.

    References
    ----------
    Naeini, M. P., Cooper, G. & Hauskrecht, M. (2015). Obtaining well calibrated probabilities
    using Bayesian binning. AAAI 2015, 2901–2907.
    Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On calibration of modern neural
    networks. ICML 2017, 1321–1330.
    Kull, M. et al. (2019). Beyond temperature scaling: obtaining well-calibrated multi-class
    probabilities with Dirichlet calibration. NeurIPS 2019.
    Nixon, J. et al. (2019). Measuring calibration in deep learning. CVPR Workshops 2019.

    See Also
    --------
    calibration_curve, brier_decomposition

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]})
    >>> fe.calibration_error(df, truth="y", score="p", bins=2).select(pl.all().round(6)).rows()
    [(0.116667, 0.133333)]
    """
    func = "calibration_error"
    _check_bins(func, bins, strategy)
    check_parameter(
        multiclass in ("top_label", "classwise"),
        func,
        f"multiclass must be 'top_label' or 'classwise', got {multiclass!r}.",
    )
    outputs = ("ece", "mce")
    binary = isinstance(score, str)
    if binary:
        assert isinstance(score, str)
        lf = to_lazy(data, func)[0]
        dtype = lf.collect_schema().get(score)
        binary = not isinstance(dtype, pl.List | pl.Array)
    if binary:
        assert isinstance(score, str)
        check_parameter(
            labels is None, func, f"labels= is for a multiclass score, got labels={labels!r}."
        )
        inp = _binary_input(data, func, truth, score, by, pos_label, outputs)
        stats = _bin_stats(inp.lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
        return inp.done(_errors(stats, inp.gkeys))
    inp, k = _multiclass_input(data, func, truth, score, labels, by, None, tolerance, outputs)
    probabilities = [pl.col(f"__fe_p{i}") for i in range(k)]
    if multiclass == "top_label":
        top = pl.max_horizontal(probabilities)
        chain: Any = pl
        for i, p in enumerate(probabilities):  # loop-ok: one when/then per class
            chain = chain.when(p == top).then(i)
        lf = inp.lf.with_columns(
            top.alias(_P), (chain.otherwise(None) == pl.col(_T)).cast(pl.Float64).alias(_Y)
        )
        stats = _bin_stats(lf, inp.gkeys, inp.keys, inp.checks, bins, strategy)
        return inp.done(_errors(stats, inp.gkeys))
    # class-wise: the checks run on one row per input row (a per-group aggregation of the
    # probability lists), then the rows are stacked class by class
    per_group = inp.checks.enforce(
        inp.lf.group_by(inp.gkeys).agg(*probabilities, pl.col(_T), *inp.checks.aggs()),
        inp.keys,
    )
    rows = per_group.explode(*[f"__fe_p{i}" for i in range(k)], _T)
    long = rows.select(
        *inp.gkeys,
        pl.concat_list(probabilities).alias(_P),
        pl.lit(pl.Series(range(k), dtype=pl.Int64)).implode().alias(_CLASS),
        _T,
    ).explode(_P, _CLASS)
    long = long.with_columns((pl.col(_CLASS) == pl.col(_T)).cast(pl.Float64).alias(_Y))
    stats = _bin_stats(long, [*inp.gkeys, _CLASS], inp.keys, Checks(func), bins, strategy)
    per_class = _errors(stats, [*inp.gkeys, _CLASS])
    out = per_class.group_by(inp.gkeys).agg(
        pl.col("ece").mean().alias("ece"), pl.col("mce").max().alias("mce")
    )
    return inp.done(out)


# ---------------------------------------------------------------------------------------------
# the Murphy decomposition
# ---------------------------------------------------------------------------------------------
def brier_decomposition(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    bins: int | None = None,
    strategy: Strategy = "uniform",
    pos_label: Any = None,
) -> Any:
    """Murphy's decomposition of the Brier score into reliability, resolution and uncertainty.

    Parameters
    ----------
    data, truth, score, by, pos_label
        As in :func:`calibration_curve`.
    bins
        None (default): the forecasts are grouped at their distinct values, and the identity
        is exact. An integer: they are grouped into the bins of :func:`calibration_curve`
        (with ``strategy``), and the two within-bin terms are reported too.
    strategy
        The binning when ``bins`` is an integer: ``"uniform"`` or ``"quantile"``.

    Returns
    -------
    Same kind as ``data``, sorted by the keys, with columns ``*by, brier, reliability,
    resolution, uncertainty`` and, when ``bins`` is an integer, ``within_bin_variance,
    within_bin_covariance`` (all Float64).

    Notes
    -----
    For N rows with outcomes oᵢ ∈ {0, 1} and forecasts fᵢ, grouped into K sets (distinct
    forecasts or bins) of n_k rows with mean forecast f̄_k and fraction of positives ō_k, and ō
    the group's fraction of positives (Murphy 1973):

        brier       = 1/N Σᵢ (fᵢ − oᵢ)²                      (the Brier score)
        reliability = 1/N Σ_k n_k (f̄_k − ō_k)²                (lower is better)
        resolution  = 1/N Σ_k n_k (ō_k − ō)²                  (higher is better)
        uncertainty = ō (1 − ō)                               (of the data, not the model)

    With distinct forecasts (``bins=None``) brier = reliability − resolution + uncertainty
    holds exactly (to rounding, 1e-12). Binned forecasts add the within-bin variance of the
    forecasts and their covariance with the outcomes (Stephenson, Coelho & Jolliffe 2008):

        within_bin_variance   = 1/N Σ_k Σ_{i∈k} (fᵢ − f̄_k)²
        within_bin_covariance = 2/N Σ_k Σ_{i∈k} (oᵢ − ō_k)(fᵢ − f̄_k)

    and brier = reliability − resolution + uncertainty + within_bin_variance −
    within_bin_covariance. A group with one class has uncertainty = resolution = 0 (both
    defined) and brier = reliability (+ the within-bin terms). Rows are not weighted.

    References
    ----------
    Murphy, A. H. (1973). A new vector partition of the probability score. Journal of Applied
    Meteorology 12(4), 595–600.
    Stephenson, D. B., Coelho, C. A. S. & Jolliffe, I. T. (2008). Two extra components in the
    Brier score decomposition. Weather and Forecasting 23(4), 752–757.

    See Also
    --------
    frameeval.brier_score, calibration_curve

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.2, 0.2, 0.2, 0.8, 0.8, 0.8]})
    >>> fe.brier_decomposition(df, truth="y", score="p").select(pl.all().round(6)).rows()
    [(0.24, 0.017778, 0.027778, 0.25)]
    """
    func = "brier_decomposition"
    _check_bins(func, bins, strategy, allow_none=True)
    outputs = ["brier", "reliability", "resolution", "uncertainty"]
    if bins is not None:
        outputs += ["within_bin_variance", "within_bin_covariance"]
    inp = _binary_input(data, func, truth, score, by, pos_label, outputs)
    p, y = pl.col(_P), pl.col(_Y)
    squares = ((p - y) ** 2).sum().alias(_SQ)
    if bins is None:
        stats = inp.lf.group_by(*inp.gkeys, _P).agg(
            pl.len().cast(pl.Int64).alias(_N), y.sum().alias(_SY), squares, *inp.checks.aggs()
        )
        stats = inp.checks.enforce(stats, inp.keys).with_columns(pl.col(_P).alias(_FBAR))
        extra: list[pl.Expr] = []
    else:
        within = [
            ((p - p.mean()) ** 2).sum().alias(_WV),
            ((y - y.mean()) * (p - p.mean())).sum().alias(_WC),
        ]
        stats = _bin_stats(
            inp.lf, inp.gkeys, inp.keys, inp.checks, bins, strategy, [squares, *within]
        ).with_columns((pl.col(_SP) / pl.col(_N).cast(pl.Float64)).alias(_FBAR))
        extra = [
            (pl.col(_WV).sum() / pl.col("__fe_total").first()).alias("within_bin_variance"),
            (2.0 * pl.col(_WC).sum() / pl.col("__fe_total").first()).alias("within_bin_covariance"),
        ]
    n = pl.col(_N).cast(pl.Float64)
    stats = stats.with_columns(
        n.sum().over(inp.gkeys).alias("__fe_total"),
        (pl.col(_SY).sum().over(inp.gkeys) / n.sum().over(inp.gkeys)).alias("__fe_base"),
        (pl.col(_SY) / n).alias("__fe_obar"),
    )
    total, base, obar = pl.col("__fe_total"), pl.col("__fe_base"), pl.col("__fe_obar")
    out = stats.group_by(inp.gkeys).agg(
        (pl.col(_SQ).sum() / total.first()).alias("brier"),
        ((n * (pl.col(_FBAR) - obar) ** 2).sum() / total.first()).alias("reliability"),
        ((n * (obar - base) ** 2).sum() / total.first()).alias("resolution"),
        (base.first() * (1.0 - base.first())).alias("uncertainty"),
        *extra,
    )
    return inp.done(out)
