"""Slices found, not only checked: :func:`slices`, SliceLine's search (Sagadeeva & Boehm 2021)
as grouped Polars passes, level by level, with a test of each slice against its complement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval._frame import as_keys, collect, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._params import COUNT, FRACTION, UP_TO_ONE, Number
from frameeval._typing import Frame, frame_function
from frameeval._validate import check_parameter
from frameeval.subgroups.gaps import benjamini_hochberg

__all__ = ["slices"]

#: the per-row error of each measure (truth, pred)
ERRORS = {
    "error_rate": lambda y, f: (y != f).cast(pl.Float64),
    "squared_error": lambda y, f: (y.cast(pl.Float64) - f.cast(pl.Float64)) ** 2,
    "absolute_error": lambda y, f: (y.cast(pl.Float64) - f.cast(pl.Float64)).abs(),
}
OUTPUTS = (
    "rank", "slice", "level", "size", "errors", "value", "complement_size", "complement_value",
    "difference", "score", "statistic", "p_value", "p_adjusted",
)  # fmt: skip
#: the features: complete (a null is no slice)
FEATURES = Inputs(Column("features", "any", "not_null", several=True))
_STATS = ("__size", "__errors", "__max_error", "__squares")


def _stats(e: pl.Expr) -> list[pl.Expr]:
    return [
        pl.len().cast(pl.Float64).alias("__size"),
        e.sum().alias("__errors"),
        e.max().alias("__max_error"),
        (e * e).sum().alias("__squares"),
    ]


def _encode(
    lf: pl.LazyFrame, features: list[str], error: pl.Expr, bins: int, func: str
) -> tuple[pl.DataFrame, list[pl.DataFrame]]:
    """The codes (UInt32, one column per feature) and the error of every row, collected once;
    per feature its ``code → label`` table. A numeric feature with more than ``bins`` distinct
    values is cut at its quantiles (``[left, right)`` labels), any other is taken as it is."""
    schema = lf.collect_schema()
    checks = FEATURES.compile(schema, func, features=features)
    counts = collect(
        checks.enforce(
            lf.select(*(pl.col(f).n_unique().alias(f) for f in features), *checks.aggs()),
            [],
            one_row=True,
        )
    )
    codes, labels = [], []
    for j, f in enumerate(features):  # loop-ok: one expression per feature
        column = pl.col(f)
        if schema[f].is_numeric() and counts[f][0] > bins:
            binned = column.bin_quantiles(bins, labels=False, include_intervals=True)
            codes.append(binned.struct.field("bin").cast(pl.UInt32).alias(f"__c{j}"))
            left = binned.struct.field("left").cast(pl.String).fill_null("-inf")
            right = binned.struct.field("right").cast(pl.String).fill_null("inf")
            labels.append(pl.format("[{}, {})", left, right).alias(f"__l{j}"))
        else:
            codes.append((column.rank("dense") - 1).cast(pl.UInt32).alias(f"__c{j}"))
            labels.append(column.cast(pl.String).alias(f"__l{j}"))
    rows = collect(lf.select(*codes, *labels, error.alias("__e")))
    tables = [
        rows.group_by(f"__c{j}").agg(pl.col(f"__l{j}").first()).sort(f"__c{j}")
        for j in range(len(features))
    ]
    return rows.select(*(f"__c{j}" for j in range(len(features))), "__e"), tables


def _score(size: pl.Expr, errors: pl.Expr, n: float, mean: float, alpha: float) -> pl.Expr:
    """sc(S) = α(ē_S/ē − 1) − (1 − α)(n/|S| − 1)."""
    return alpha * ((errors / size) / mean - 1.0) - (1.0 - alpha) * (n / size - 1.0)


def _upper_bound(
    size: pl.Expr, errors: pl.Expr, top: pl.Expr, n: float, mean: float, alpha: float, sigma: float
) -> pl.Expr:
    """SliceLine's bound on the score of a slice and of every slice below it, from the
    smallest size |S|↑, error sum e↑ and largest error m↑ of its parents: the maximum over
    |S| ∈ {σ, max(e↑/m↑, σ), |S|↑} of (α(min(|S|·m↑, e↑)/ē − |S|) − (1 − α)(n − |S|)) / |S|."""
    candidates = [pl.lit(sigma), pl.max_horizontal(errors / top, pl.lit(sigma)), size]
    values = [
        (alpha * (pl.min_horizontal(s * top, errors) / mean - s) - (1.0 - alpha) * (n - s)) / s
        for s in candidates
    ]
    return pl.max_horizontal(values)


@frame_function
def slices(
    data: Any,
    truth: str,
    pred: str | None = None,
    score: str | None = None,
    *,
    features: Sequence[str],
    measure: str = "error_rate",
    top: int = 10,
    max_level: int = 3,
    min_support: int | float = 10,
    alpha: float = 0.6,
    bins: int = 10,
) -> Frame:
    """The slices (conjunctions of feature = value predicates) where a model errs most,
    found by SliceLine's lattice search with its size and error bounds.

    Parameters
    ----------
    data
        One row per instance (filter it to one model first).
    truth, pred
        Columns of the truth and the prediction; ``score`` is not read (reserved).
    features
        Columns whose values define the slices; a numeric column with more than ``bins``
        distinct values is cut at its ``bins``-quantiles (``[left, right)``).
    measure
        The per-row error: ``"error_rate"`` (truth ≠ pred), ``"squared_error"`` or
        ``"absolute_error"`` (regression).
    top
        Slices returned (the best scores; ties broken by fewer predicates, then the codes).
    max_level
        Most predicates in a slice.
    min_support
        Smallest slice: a count of rows, or a fraction of the rows in (0, 1) (then
        ⌊min_support · n⌋, as the ``sliceline`` package reads it).
    alpha
        Weight of the slice's error against its size in the score, in (0, 1].
    bins
        Quantile bins of a numeric feature.

    Returns
    -------
    ``rank, slice, level, <one String column per feature: its value, null when unused>,
    size, errors, value, complement_size, complement_value, difference, score, statistic,
    p_value, p_adjusted`` — one row per slice found, best first (a DataFrame; a LazyFrame
    input gives a LazyFrame of the result). ``value`` is the mean error in the slice
    (its error rate), ``complement_value`` outside it, ``difference`` their gap; ``score``
    SliceLine's; ``statistic`` / ``p_value`` the two-sided test of the slice against its
    complement — the pooled two-proportion z-test for ``error_rate``, Welch's t-test for the
    other errors; ``p_adjusted`` Benjamini–Hochberg over every slice the search evaluated
    (not only those shown: the family searched).

    Notes
    -----
    sc(S) = α(ē_S/ē − 1) − (1 − α)(n/|S| − 1) (ē the mean error, ē_S the slice's, n rows). A
    slice enters the result with sc > 0 and |S| ≥ min_support. Level 1 is every feature
    value; level L joins the valid slices of level L − 1 (|S| ≥ min_support, error > 0) that
    differ in one predicate, keeps a candidate only when all its L parents are valid and its
    upper bound (from the parents' smallest size and error sum and largest error) exceeds 0
    and, once ``top`` slices are held, the ``top``-th score. Each level evaluates the
    surviving candidates with one ``group_by`` per combination of features (all collected
    together). The search reads the data once into codes (it must look at the data to decide
    what to evaluate next, so a LazyFrame input is collected here).

    Differences from the ``sliceline`` package: the bound uses n rows (the paper's), where
    the package uses the number of one-hot columns (a looser bound: it evaluates more
    candidates, never finds other slices); the package prunes against its worst held score
    even before it holds k slices, this function only once it holds ``top``; the package
    returns every slice tied with the k-th, this function exactly ``top``.

    References
    ----------
    Sagadeeva & Boehm (2021), "SliceLine: Fast, Linear-Algebra-based Slice Finding for ML
    Model Debugging", SIGMOD. Chung et al. (2019), "Slice Finder", ICDE (the test of a slice
    against its complement).

    Examples
    --------
    >>> df = pl.DataFrame({"sex": ["F", "M"] * 10, "age": ["old"] * 10 + ["young"] * 10,
    ...                    "y": [1] * 20, "p": [0, 1, 0, 1, 0, 1, 0, 1, 0, 1] + [1] * 10})
    >>> out = fe.subgroups.slices(df, "y", "p", features=["sex", "age"], min_support=3)
    >>> out.select("slice", "size", "value").row(0)
    ('sex=F & age=old', 5, 1.0)
    """
    func = "slices"
    lf, eager = to_lazy(data, func)
    features = as_keys(features)
    check_parameter(
        bool(features), func, f"features must name one column or more, got {features!r}."
    )
    clash = sorted(set(features) & set(OUTPUTS))
    check_parameter(not clash, func, f"features must not use output column names, got {clash}.")
    check_parameter(
        measure in ERRORS, func, f"measure must be one of {list(ERRORS)}, got {measure!r}."
    )
    top, max_level = COUNT(func, "top", top), COUNT(func, "max_level", max_level)
    bins = Number(low=2, integer=True)(func, "bins", bins)
    alpha = UP_TO_ONE(func, "alpha", alpha)
    check_parameter(
        COUNT.holds(min_support) or FRACTION.holds(min_support),
        func,
        f"min_support must be a count >= 1 or a fraction in (0, 1), got {min_support!r}.",
    )
    min_support = int(min_support) if COUNT.holds(min_support) else float(min_support)
    check_parameter(pred is not None, func, "slices() reads pred=, got pred=None.")
    assert pred is not None
    schema = lf.collect_schema()
    (Inputs(Column("truth"), Column("pred")) + FEATURES).compile(
        schema, func, truth=truth, pred=pred, features=features
    )
    error = ERRORS[measure](pl.col(truth), pl.col(pred))
    rows, tables = _encode(lf, features, error, bins, func)
    found = _search(rows, len(features), top, max_level, min_support, float(alpha))
    out = _finish(found, rows, tables, features, measure, top)
    return out if eager else out.lazy()


def _search(
    rows: pl.DataFrame, m: int, top: int, max_level: int, min_support: float, alpha: float
) -> pl.DataFrame:
    """Every slice evaluated: ``__c0…`` (codes, null when unused), ``level``, the statistics,
    ``score`` and ``__top`` (in the result)."""
    n = float(rows.height)
    sigma = float(int(min_support * n) if isinstance(min_support, float) else min_support)
    mean = float(rows["__e"].mean() or 0.0)  # type: ignore[arg-type]
    codes = [f"__c{j}" for j in range(m)]
    e = pl.col("__e")
    if mean <= 0.0:
        return pl.DataFrame(
            schema={
                **{c: pl.UInt32 for c in codes},
                "level": pl.Int64,
                **dict.fromkeys(_STATS, pl.Float64),
                "score": pl.Float64,
            }
        )
    lazy = rows.lazy()
    first = pl.concat(
        [
            lazy.group_by(c)
            .agg(_stats(e))
            .with_columns(*(pl.lit(None, dtype=pl.UInt32).alias(o) for o in codes if o != c))
            .select(*codes, *_STATS)
            for c in codes
        ]
    ).collect()
    evaluated = [first.with_columns(pl.lit(1).alias("level"))]
    score = _score(pl.col("__size"), pl.col("__errors"), n, mean, alpha)
    valid = (pl.col("__size") >= sigma) & (pl.col("__errors") > 0)
    parents = first.filter(valid)
    singles = parents
    best = _best(pl.concat(evaluated), score, valid, top)
    for level in range(2, min(m, max_level) + 1):  # loop-ok: the levels of the lattice
        if parents.height == 0:
            break
        candidates = _candidates(parents, singles, codes, level)
        if candidates.height == 0:
            break
        bound = _upper_bound(
            pl.col("__size"), pl.col("__errors"), pl.col("__max_error"), n, mean, alpha, sigma
        )
        keep = (pl.col("__size") >= sigma) & (bound > 0)
        if best.height >= top:
            keep = keep & (bound > best["score"].min())
        candidates = candidates.filter(keep).select(codes)
        if candidates.height == 0:
            break
        stats = _evaluate(lazy, candidates, codes, e)
        stats = stats.with_columns(pl.lit(level).alias("level"))
        evaluated.append(stats)
        parents = stats.filter(valid)
        best = _best(pl.concat(evaluated), score, valid, top)
    found = pl.concat(evaluated).with_columns(score.alias("score"))
    return found.filter(valid)


def _best(found: pl.DataFrame, score: pl.Expr, valid: pl.Expr, top: int) -> pl.DataFrame:
    scored = found.filter(valid).with_columns(score.alias("score")).filter(pl.col("score") > 0)
    codes = [c for c in found.columns if c.startswith("__c")]
    ordered = scored.sort(
        ["score", "level", *codes],
        descending=[True, False, *([False] * len(codes))],
        nulls_last=True,
    )
    return ordered.head(top)


def _candidates(
    parents: pl.DataFrame, singles: pl.DataFrame, codes: list[str], level: int
) -> pl.DataFrame:
    """Level-``level`` candidates: each valid parent extended by a valid predicate on a feature
    after its last one, kept when all ``level`` parents are valid; with the parents' smallest
    size, error sum and largest error (the bound's inputs)."""
    used = [pl.col(c).is_not_null() for c in codes]
    last = pl.max_horizontal(*(pl.when(u).then(pl.lit(j)) for j, u in enumerate(used)))
    base = parents.select(codes).with_columns(last.alias("__last"))
    ext = []
    for j, c in enumerate(codes):  # loop-ok: one join per feature (the candidate extensions)
        adding = singles.filter(pl.col(c).is_not_null()).select(pl.col(c).alias("__new"))
        grown = base.filter((pl.col("__last") < j) & pl.col(c).is_null()).join(adding, how="cross")
        ext.append(grown.with_columns(pl.col("__new").alias(c)).drop("__new", "__last"))
    candidates = pl.concat(ext).unique().with_row_index("__id")
    if candidates.height == 0:
        return candidates
    parts = []
    stats = parents.select(*codes, "__size", "__errors", "__max_error")
    for c in codes:  # loop-ok: each candidate's parent without the predicate on feature c
        dropped = candidates.filter(pl.col(c).is_not_null()).with_columns(
            pl.lit(None, dtype=pl.UInt32).alias(c)
        )
        parts.append(
            dropped.join(stats, on=codes, how="inner", nulls_equal=True).select(
                "__id", "__size", "__errors", "__max_error"
            )
        )
    bounds = (
        pl.concat(parts)
        .group_by("__id")
        .agg(
            pl.len().alias("__parents"),
            pl.col("__size").min(),
            pl.col("__errors").min(),
            pl.col("__max_error").min(),
        )
        .filter(pl.col("__parents") == level)
    )
    return candidates.join(bounds, on="__id", how="inner").drop("__id", "__parents")


def _evaluate(
    lazy: pl.LazyFrame, candidates: pl.DataFrame, codes: list[str], e: pl.Expr
) -> pl.DataFrame:
    """The statistics of every candidate: one ``group_by`` per combination of features used
    (all collected together), joined to the candidates of that combination."""
    pattern = pl.concat_str([pl.col(c).is_not_null().cast(pl.UInt8).cast(pl.String) for c in codes])
    keyed = candidates.with_columns(pattern.alias("__pattern"))
    plans = []
    combinations = keyed.partition_by("__pattern", as_dict=True)
    for (shape,), part in combinations.items():  # loop-ok: one per feature combination
        on = [c for c, bit in zip(codes, str(shape), strict=True) if bit == "1"]
        wanted = part.select(on).lazy()
        stats = lazy.group_by(on).agg(_stats(e)).join(wanted, on=on, how="inner")
        plans.append(
            stats.with_columns(
                *(pl.lit(None, dtype=pl.UInt32).alias(c) for c in codes if c not in on)
            ).select(*codes, *_STATS)
        )
    return pl.concat(pl.collect_all(plans))


def _finish(
    found: pl.DataFrame,
    rows: pl.DataFrame,
    tables: list[pl.DataFrame],
    features: list[str],
    measure: str,
    top: int,
) -> pl.DataFrame:
    """The result: the best slices with their labels, complement and test; BH over every
    slice evaluated."""
    from scipy import stats as st

    codes = [f"__c{j}" for j in range(len(features))]
    n = float(rows.height)
    total = float(rows["__e"].sum())
    squares = float((rows["__e"] ** 2).sum())
    size, errors = found["__size"].to_numpy(), found["__errors"].to_numpy()
    rest = n - size
    value = errors / size
    with np.errstate(divide="ignore", invalid="ignore"):
        other = (total - errors) / rest
        if measure == "error_rate":
            pooled = total / n
            se = np.sqrt(pooled * (1.0 - pooled) * (1.0 / size + 1.0 / rest))
            statistic = (value - other) / se
            p = 2.0 * st.norm.sf(np.abs(statistic))
        else:
            v1 = (found["__squares"].to_numpy() - size * value**2) / (size - 1.0)
            v2 = (squares - found["__squares"].to_numpy() - rest * other**2) / (rest - 1.0)
            a, b = v1 / size, v2 / rest
            statistic = (value - other) / np.sqrt(a + b)
            df = (a + b) ** 2 / (a**2 / (size - 1.0) + b**2 / (rest - 1.0))
            p = 2.0 * st.t.sf(np.abs(statistic), df)
    out = found.with_columns(
        pl.Series("value", value),
        pl.Series("complement_size", rest),
        pl.Series("complement_value", other),
        pl.Series("statistic", statistic),
        pl.Series("p_value", p),
    ).with_columns(pl.col("statistic", "p_value", "complement_value").fill_nan(None))
    tested = out.filter(pl.col("p_value").is_not_null())
    adjusted = tested.select(*codes, benjamini_hochberg(pl.col("p_value")).alias("p_adjusted"))
    out = out.join(adjusted, on=codes, how="left", nulls_equal=True)
    out = out.filter(pl.col("score") > 0)
    for j, table in enumerate(tables):  # loop-ok: one label join per feature
        out = out.join(table, on=f"__c{j}", how="left").rename({f"__l{j}": features[j]})
    # features named like the output columns would collide: checked at the door
    labels = [
        pl.when(pl.col(f).is_not_null()).then(pl.format(f"{f}={{}}", pl.col(f))) for f in features
    ]
    out = out.with_columns(pl.concat_str(labels, separator=" & ", ignore_nulls=True).alias("slice"))
    out = out.sort(
        ["score", "level", *codes],
        descending=[True, False, *([False] * len(codes))],
        nulls_last=True,
    ).head(top)
    return out.with_row_index("rank", offset=1).select(
        pl.col("rank").cast(pl.Int64),
        "slice",
        pl.col("level").cast(pl.Int64),
        *features,
        pl.col("__size").cast(pl.Int64).alias("size"),
        pl.col("__errors").alias("errors"),
        "value",
        pl.col("complement_size").cast(pl.Int64),
        "complement_value",
        (pl.col("value") - pl.col("complement_value")).alias("difference"),
        "score",
        "statistic",
        "p_value",
        "p_adjusted",
    )
