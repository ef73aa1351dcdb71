"""The bootstrap of any measure, per group: :func:`bootstrap_replicates` and :func:`bootstrap_ci`.

The (stratified) multinomial bootstrap as one lazy plan, with a counter-based generator (see
:mod:`frameeval.uncertainty` for how the draws are made); percentile and BCa intervals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._deprecation import renamed_argument
from frameeval._frame import as_keys, finish, to_lazy
from frameeval._inputs import Column, Inputs
from frameeval._split_frame import splitmix64, splitmix_column, u64
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import (
    Checks,
    check_not_empty_eager,
    check_parameter,
    check_seed,
    enforce,
    failure,
)
from frameeval.compare.guards import value_text as _text
from frameeval.compare.plan import (
    agg_by_keys,
    check_choice,
    check_int,
    check_level,
    join_on_keys,
    sort_by_keys,
)
from frameeval.compare.results import BOOTSTRAP_CI, Shape
from frameeval.compare.scipy_step import scipy_step
from frameeval.exceptions import DuplicateKeyError, InvalidDtypeError, InvalidParameterError

__all__ = ["bootstrap_ci", "bootstrap_replicates"]

_ROWS_PER_PASS = 1 << 22  # DataFrame inputs: tiled rows per pass (bounds memory, ~0.3 GB)
_LAZY_PASS = 10  # LazyFrame inputs (row count unknown): replicates per pass


#: the columns of a bootstrap: the keys, the resampling unit and the strata (complete, and
#: different columns), the measures' columns
RESAMPLED = Inputs(
    Column("by"),
    Column("instance", "any", "not_null"),
    Column("stratify", "any", "not_null"),
    Column("measure", several=True),
    distinct=True,
)


# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------
def parse_measures(measure: Any, func: str) -> tuple[list[pl.Expr], list[str], list[str]]:
    """The measure expressions, their output names and the columns they read."""
    exprs = [measure] if isinstance(measure, pl.Expr) else measure
    ok = isinstance(exprs, Sequence) and not isinstance(exprs, str) and len(exprs) > 0
    ok = ok and all(isinstance(e, pl.Expr) for e in exprs)
    if not ok:
        raise InvalidParameterError(
            f"{func}(): measure must be a Polars expression or a non-empty list of them, got "
            f"{type(measure).__name__}.\nHint: fe.accuracy('y', 'p'), fe.roc_auc('y', 's') or "
            "any aggregation such as pl.col('loss').mean()."
        )
    names: list[str] = []
    columns: list[str] = []
    for expr in exprs:
        try:
            name = expr.meta.output_name()
        except pl.exceptions.PolarsError:
            name = None
        if name is None:
            raise InvalidParameterError(
                f"{func}(): every measure needs an output name, got {expr}.\n"
                "Hint: add .alias('name')."
            )
        names.append(name)
        for column in expr.meta.root_names():
            if column not in columns:
                columns.append(column)
    duplicates = sorted({n for n in names if names.count(n) > 1})
    check_parameter(
        not duplicates,
        func,
        f"measure names must be unique, got {duplicates} more than once.\n"
        "Hint: give each measure its own .alias().",
    )
    return list(exprs), names, columns


def _check_measure_schema(
    lf: pl.LazyFrame, keys: list[str], exprs: list[pl.Expr], names: list[str], func: str
) -> None:
    """Each measure must aggregate to one number per group (schema only, no data scan)."""
    schema = agg_by_keys(lf, keys, exprs).collect_schema()
    for name in names:
        dtype = schema[name]
        if not (dtype.is_numeric() or dtype == pl.Boolean):
            raise InvalidDtypeError(
                f"{func}(): measure {name!r} must aggregate to one number per group, got "
                f"{dtype}.\nHint: a measure is an aggregation, e.g. fe.accuracy('y', 'p') or "
                "pl.col('loss').mean()."
            )


def open_bootstrap(
    data: Any,
    func: str,
    measure: Any,
    by: Keys,
    instance: str | None,
    stratify: str | None,
    n: Any,
    seed: Any,
    batch_size: Any,
    shape: Shape | None,
    checks: Checks | None = None,
) -> dict[str, Any]:
    """Door checks shared by the bootstrap functions; returns the pieces of the plan.
    ``shape`` declares the caller's output columns (None: the replicates, whose columns are the
    measure names); ``checks`` may hold data checks of the caller, enforced with the estimate."""
    outputs = () if shape is None else shape.columns
    exprs, names, columns = parse_measures(measure, func)
    n = check_int(n, func, "repeats", 1)
    check_seed(seed, func)
    if batch_size is not None:
        batch_size = check_int(batch_size, func, "batch_size", 1)
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    checks = RESAMPLED.compile(
        schema, func, by=keys, instance=instance, stratify=stratify, measure=columns, checks=checks
    )
    clash = sorted((set(keys) | set(names)) & {*outputs, "replicate"})
    check_parameter(
        not clash,
        func,
        f"by= keys and measure names must not use output column names, got {clash}.",
    )
    clash = sorted(set(keys) & set(names))
    check_parameter(not clash, func, f"measure names must differ from the by= keys, got {clash}.")
    check_not_empty_eager(data, eager, lf, func)
    _check_measure_schema(lf, keys, exprs, names, func)

    extra: list[pl.Expr] = []
    if instance is not None:
        # one row per instance in each group, checked in the same aggregation
        unit = pl.col(instance)
        first_dup = unit.filter(unit.is_duplicated()).min()
        extra = [
            first_dup.cast(pl.String).alias("__fe_dup"),
            (unit == first_dup).sum().cast(pl.Int64).alias("__fe_dup_rows"),
        ]
    size = pl.len().cast(pl.Int64).alias("__fe_n")
    measures = [e.cast(pl.Float64) for e in exprs]
    estimate = agg_by_keys(lf, keys, [*measures, size, *extra, *checks.aggs()])
    estimate = checks.enforce(estimate, keys)
    if instance is not None:
        where = [*(pl.format(f"{k}={{}}, ", _text(k)) for k in keys), pl.lit(f"{instance}=")]
        estimate = enforce(
            estimate,
            failure(
                pl.col("__fe_dup").is_not_null(),
                DuplicateKeyError,
                f"{func}(): rows must be unique per {[*keys, instance]} (one row per instance in "
                "each group: the resampling unit), got {} rows for {}{}.",
                pl.col("__fe_dup_rows"),
                pl.concat_str(where),
                pl.col("__fe_dup"),
            ),
        ).drop("__fe_dup", "__fe_dup_rows")
    if batch_size is None:
        rows = len(data) if eager else None  # DataFrame, pandas DataFrame, pyarrow Table
        batch_size = _LAZY_PASS if rows is None else max(1, _ROWS_PER_PASS // max(rows, 1))
    return dict(
        lf=lf,
        eager=eager,
        keys=keys,
        exprs=exprs,
        names=names,
        carried=[c for c in columns if c not in keys],
        measure_columns=columns,
        estimate=estimate,
        n=n,
        seed=int(seed),
        batch_size=min(batch_size, n),
    )


def _groups(parts: dict[str, Any]) -> pl.LazyFrame:
    """``*keys, __fe_gid, __fe_start, __fe_n``: the groups in sorted key order (from the checked
    estimate, so every plan built on them runs the in-plan data checks), their number, first row
    in the units' order and size."""
    keys = parts["keys"]
    size = pl.col("__fe_n")
    groups = sort_by_keys(parts["estimate"].select(*keys, size), keys).with_row_index("__fe_gid")
    return groups.with_columns((size.cum_sum() - size).alias("__fe_start"))


def _units(
    lf: pl.LazyFrame,
    groups: pl.LazyFrame,
    keys: list[str],
    carried: list[str],
    instance: str | None,
    stratify: str | None,
) -> pl.LazyFrame:
    """The resampling units, contiguous per group (in sorted key order) and ordered (stratum,
    instance or row) inside it, with the measure's columns and ``__fe_gid`` (group number),
    ``__fe_slot`` (position in the group), ``__fe_size`` (units in the unit's stratum) and
    ``__fe_behind`` (position in the stratum).

    One sort on a single UInt64 key, group number · 2³² + position in the group (a multi-column
    sort of the keys is several times slower)."""
    wanted = list(dict.fromkeys([*keys, *carried, *([stratify] if stratify else [])]))
    if instance is None:
        base = lf.with_row_index("__fe_row").select(*wanted, "__fe_row")
        order = pl.col("__fe_row")
    else:
        base = lf.select(list(dict.fromkeys([*wanted, instance])))
        order = pl.col(instance)
    if keys:
        link = groups.select(*keys, "__fe_gid", "__fe_start")
        base = base.join(link, on=keys, how="inner", nulls_equal=True)
    else:
        base = base.with_columns(
            pl.lit(0, dtype=pl.UInt32).alias("__fe_gid"), pl.lit(0).alias("__fe_start")
        )
    gid = pl.col("__fe_gid")
    if stratify is not None:
        stratum = pl.col(stratify)
        position = (stratum.rank("min").over(gid) - 1).cast(pl.UInt64) + (
            order.rank("ordinal").over(gid, stratum) - 1
        ).cast(pl.UInt64)
    elif instance is not None:
        position = (order.rank("ordinal").over(gid) - 1).cast(pl.UInt64)
    else:
        position = order.cast(pl.UInt64)  # row order: the row number sorts like its rank
    key = gid.cast(pl.UInt64) * u64(1 << 32) + position
    units = base.with_columns(key.alias("__fe_sort")).sort("__fe_sort")
    row = pl.int_range(pl.len(), dtype=pl.Int64)
    units = units.with_columns((row - pl.col("__fe_start")).alias("__fe_slot"))
    slot = pl.col("__fe_slot")
    if stratify is not None:
        behind = slot - slot.min().over(gid, stratify)
        size = pl.len().over(gid, stratify)
    else:
        behind = slot
        size = pl.len().over(gid)
    kept = list(dict.fromkeys([*keys, *carried]))
    return units.select(
        *kept,
        gid,
        slot.cast(pl.UInt32),
        behind.cast(pl.UInt32).alias("__fe_behind"),
        size.cast(pl.UInt64).alias("__fe_size"),
    )


def _replicate_pass(
    units: pl.LazyFrame,
    carried: list[str],
    exprs: list[pl.Expr],
    first: int,
    last: int,
    seed_word: int,
) -> pl.LazyFrame:
    """Replicates ``first``…``last - 1`` (0-based): tile the units once per replicate (replicate
    major, order kept), compute each slot's drawn row, gather the measure's columns from it and
    aggregate the measures per replicate × group."""
    reps = pl.LazyFrame({"__fe_r": pl.Series(range(first, last), dtype=pl.UInt64)})
    lean = units.select(*carried, "__fe_gid", "__fe_behind", "__fe_size", "__fe_slot")
    tiled = reps.join(lean, how="cross", maintain_order="left_right")
    slot = pl.col("__fe_slot")
    word = (pl.col("__fe_r") * u64(1 << 32) + slot.cast(pl.UInt64)).xor(u64(seed_word))
    tiled = splitmix_column(tiled.with_columns(word.alias("__fe_word")), "__fe_word", "__fe_z")
    # the drawn unit: ⌊(z ≫ 32) · size ≫ 32⌋ in [0, size) within the slot's stratum; its row in
    # the tiled frame is this row − (this unit − stratum start) + that offset
    high = pl.col("__fe_z") // u64(1 << 32)
    offset = (high * pl.col("__fe_size") // u64(1 << 32)).cast(pl.UInt32)
    row = pl.int_range(pl.len(), dtype=pl.UInt32)
    tiled = tiled.with_columns(
        (row - pl.col("__fe_behind") + offset).alias("__fe_take"),
        # one key per replicate × group (its first tiled row), non-decreasing by construction
        (row - slot).set_sorted().alias("__fe_key"),
    )
    picked = tiled.select(
        "__fe_key", "__fe_gid", "__fe_r", *[pl.col(c).gather(pl.col("__fe_take")) for c in carried]
    )
    return (
        picked.group_by("__fe_key")
        .agg(
            pl.col("__fe_gid").first(),
            (pl.col("__fe_r").first() + 1).cast(pl.Int64).alias("replicate"),
            *[e.cast(pl.Float64) for e in exprs],
        )
        .drop("__fe_key")
    )


def _replicates(parts: dict[str, Any], instance: str | None, stratify: str | None) -> pl.LazyFrame:
    keys, carried = parts["keys"], parts["measure_columns"]
    groups = _groups(parts)
    units = _units(parts["lf"], groups, keys, carried, instance, stratify)
    n, step = parts["n"], parts["batch_size"]
    seed_word = splitmix64(parts["seed"])
    passes = [
        _replicate_pass(units, carried, parts["exprs"], first, min(first + step, n), seed_word)
        for first in range(0, n, step)  # passes over replicate batches (bounded memory)
    ]
    out = passes[0] if len(passes) == 1 else pl.concat(passes, parallel=False)
    out = out.join(groups.select(*keys, "__fe_gid"), on="__fe_gid", how="inner")
    return out.drop("__fe_gid")


def bootstrap_replicates(
    data: IntoFrame,
    measure: pl.Expr | Sequence[pl.Expr],
    *,
    by: Keys = None,
    instance: str | None = None,
    repeats: int = 1000,
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    n: int | None = None,
) -> Any:
    """Bootstrap replicates of any measure, per group: the measure on ``repeats`` resamples.

    Each replicate draws, within every ``by`` group, as many instances as the group has, with
    replacement (the multinomial bootstrap of Efron 1979; the book's 自助法 of §2.2.3 applied to
    the test set), and evaluates ``measure`` on the drawn rows. The draws are a counter-based
    hash of (seed, replicate, slot), computed lazily in one plan: no Python loop over groups or
    replicates.

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    measure
        A Polars aggregation, or a list of them, each with an output name: any frameeval measure
        (``fe.accuracy("y", "p")``, ``fe.f1(...)``, ``fe.roc_auc(...)``, one built with
        ``weight=``…) or any expression such as ``pl.col("loss").mean()``. It is evaluated on
        the resampled rows themselves (a row drawn twice appears twice), so it needs no
        ``weight=`` support.
    by
        Key column(s): one bootstrap per group.
    instance
        Column identifying the resampling unit; must be unique within each group. Units are
        ordered by it, which makes the draws independent of the row order and identical across
        groups holding the same instances (paired replicates). Without it, rows are the units,
        taken in row order.
    repeats
        Number of replicates, ≥ 1 (``n=`` is its deprecated alias, for one release).
    stratify
        Optional column (e.g. the truth): resample within each of its values, keeping the
        stratum sizes of the group.
    seed
        Integer seed; the same seed gives the same replicates on any machine.
    batch_size
        Replicates materialised per pass (memory ≈ rows × batch_size tiled rows, about 40
        bytes each plus the measure's columns). Default: for a DataFrame (or pandas / pyarrow
        input), as many as fit about 4 million tiled rows; for a LazyFrame, whose row count is
        unknown until it is collected, 10 — set it lower for LazyFrames of millions of rows.
        The replicates do not depend on it.

    Returns
    -------
    Same kind as ``data`` with ``*by, replicate`` and one Float64 column per measure, sorted by
    keys and replicate (``replicate`` = 1…repeats, Int64). A replicate where the measure is undefined
    (e.g. AUC of a resample with one class) holds null.

    Notes
    -----
    Cost: every replicate materialises one tiled copy of the units (the sorted input is
    computed once and cached between passes) and aggregates the measure over its rows: linear
    in rows × replicates. See docs/uncertainty.md for measured times.

    Raises (inside the plan) when ``instance`` is null or not unique per group, or ``stratify``
    is null.

    References
    ----------
    Efron (1979), "Bootstrap methods: another look at the jackknife", Ann. Statist. 7(1).
    Steele (2003), "SplitMix" / Steele, Lea & Flood (2014), "Fast splittable pseudorandom number
    generators", OOPSLA (the SplitMix64 mix).

    See Also
    --------
    bootstrap_ci : intervals from these replicates.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> reps = fe.bootstrap_replicates(df, fe.accuracy("y", "p"), repeats=3, seed=1)
    >>> reps.columns, reps.height
    (['replicate', 'accuracy'], 3)
    """
    func = "bootstrap_replicates"
    repeats = renamed_argument(func, "n", "repeats", n, repeats, "the same count")
    parts = open_bootstrap(
        data, func, measure, by, instance, stratify, repeats, seed, batch_size, None
    )
    out = _replicates(parts, instance, stratify)
    out = out.select(*parts["keys"], "replicate", *parts["names"])
    return finish(sort_by_keys(out, parts["keys"], "replicate"), parts["eager"])


def _jackknife(parts: dict[str, Any]) -> pl.LazyFrame:
    """``*keys, metric, __fe_accel``: the BCa acceleration from the delete-one jackknife.

    Units with equal values in every column the measures read give equal leave-one-out values,
    so each distinct profile is left out once and weighted by its multiplicity: the plan holds
    (distinct profiles × units) rows per group."""
    keys, carried, exprs, names = parts["keys"], parts["carried"], parts["exprs"], parts["names"]
    columns = [*keys, *carried] or [pl.lit(0).alias("__fe_any")]  # e.g. pl.len() without by=
    units = parts["lf"].select(columns).with_row_index("__fe_row")
    profiles = agg_by_keys(
        units,
        [*keys, *carried],
        [pl.len().cast(pl.Float64).alias("__fe_m"), pl.col("__fe_row").min().alias("__fe_drop")],
    ).select(*keys, "__fe_drop", "__fe_m")
    if keys:
        pairs = profiles.join(units, on=keys, how="inner", nulls_equal=True)
    else:
        pairs = profiles.join(units, how="cross")
    pairs = pairs.filter(pl.col("__fe_row") != pl.col("__fe_drop"))
    loo = pairs.group_by([*keys, "__fe_drop"]).agg(
        pl.col("__fe_m").first(), *[e.cast(pl.Float64) for e in exprs]
    )
    loo = loo.unpivot(
        index=[*keys, "__fe_drop", "__fe_m"], on=names, variable_name="metric", value_name="__fe_t"
    )
    by_metric = [*keys, "metric"]
    m, t = pl.col("__fe_m"), pl.col("__fe_t")
    loo = loo.with_columns(((m * t).sum() / m.sum()).over(by_metric).alias("__fe_mean"))
    u = pl.col("__fe_mean") - t
    accel = loo.group_by(by_metric).agg(
        (m * u**3).sum().alias("__fe_num"),
        (m * u**2).sum().alias("__fe_den"),
        t.null_count().alias("__fe_nulls"),
    )
    value = pl.col("__fe_num") / (6.0 * pl.col("__fe_den") ** 1.5)
    ok = (pl.col("__fe_nulls") == 0) & (pl.col("__fe_den") > 0)
    return accel.select(*by_metric, pl.when(ok).then(value).alias("__fe_accel"))


def _quantile(sorted_list: pl.Expr, count: pl.Expr, q: pl.Expr) -> pl.Expr:
    """Linear-interpolation quantile (numpy's default) of a sorted list column."""
    h = (count - 1).cast(pl.Float64) * q
    low = h.floor()
    high = pl.min_horizontal(low + 1, count - 1)
    below = sorted_list.list.get(low.cast(pl.Int64), null_on_oob=True)
    above = sorted_list.list.get(high.cast(pl.Int64), null_on_oob=True)
    ok = (count > 0) & q.is_not_null() & (q >= 0) & (q <= 1)
    return pl.when(ok).then(below + (h - low) * (above - below))


def _bca_levels(z0: np.ndarray, accel: np.ndarray, level: np.ndarray) -> dict[str, np.ndarray]:
    tail = (1.0 - level) / 2.0
    from scipy import special

    z_low, z_high = special.ndtri(tail), special.ndtri(1.0 - tail)
    low = special.ndtr(z0 + (z0 + z_low) / (1.0 - accel * (z0 + z_low)))
    high = special.ndtr(z0 + (z0 + z_high) / (1.0 - accel * (z0 + z_high)))
    return {"__fe_q_low": low, "__fe_q_high": high}


def _z0(below2: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
    share = below2 / (2.0 * count)
    share = np.where((share > 0) & (share < 1), share, np.nan)
    from scipy import special

    return {"__fe_z0": special.ndtri(share)}


def check_interval(level: Any, method: Any, func: str) -> float:
    """``level`` in (0, 1) and ``method`` one of the bootstrap intervals (``"percentile"``,
    ``"bca"``), checked in that order; returns the level."""
    level = check_level(level, func, "level")
    check_choice(method, ("percentile", "bca"), func, "method")
    return level


def bootstrap_intervals(
    parts: dict[str, Any], level: float, method: str, instance: str | None, stratify: str | None
) -> pl.LazyFrame:
    """``*keys, metric, …`` (the columns of :data:`frameeval.compare.results.BOOTSTRAP_CI`), sorted by keys and measure order."""
    keys, names = parts["keys"], parts["names"]
    by_metric = [*keys, "metric"]
    reps = _replicates(parts, instance, stratify).unpivot(
        index=[*keys, "replicate"], on=names, variable_name="metric", value_name="__fe_v"
    )
    estimate = parts["estimate"].unpivot(
        index=keys, on=names, variable_name="metric", value_name="estimate"
    )
    v = pl.col("__fe_v")
    defined = v.drop_nulls()
    summary = estimate.join(reps, on=by_metric, how="left", nulls_equal=True)
    summary = summary.group_by(by_metric).agg(
        pl.col("estimate").first(),
        defined.sort().alias("__fe_sorted"),
        v.count().cast(pl.Int64).alias("n_replicates"),
        v.mean().alias("__fe_mean"),
        v.std(ddof=1).alias("std_error"),
        # twice the count of replicates below θ̂, ties counting ½
        ((v < pl.col("estimate")).sum() + (v <= pl.col("estimate")).sum())
        .cast(pl.Int64)
        .alias("__fe_below2"),
    )
    tail = (1.0 - level) / 2.0
    if method == "percentile":
        summary = summary.with_columns(
            pl.lit(tail).alias("__fe_q_low"), pl.lit(1.0 - tail).alias("__fe_q_high")
        )
    else:
        summary = join_on_keys(summary, _jackknife(parts), by_metric)
        summary = scipy_step(summary, _z0, ["__fe_below2", "n_replicates"], ["__fe_z0"])
        summary = summary.with_columns(pl.lit(level).alias("level"))
        summary = scipy_step(
            summary, _bca_levels, ["__fe_z0", "__fe_accel", "level"], ["__fe_q_low", "__fe_q_high"]
        )
    listed, count = pl.col("__fe_sorted"), pl.col("n_replicates")
    known = pl.col("estimate").is_not_null()
    out = summary.with_columns(
        pl.when(known).then(pl.col("__fe_mean") - pl.col("estimate")).alias("bias"),
        pl.when(known).then(pl.col("std_error")).alias("std_error"),
        pl.when(known).then(_quantile(listed, count, pl.col("__fe_q_low"))).alias("lower"),
        pl.when(known).then(_quantile(listed, count, pl.col("__fe_q_high"))).alias("upper"),
        pl.lit(level).alias("level"),
        pl.lit(method).alias("method"),
        pl.col("metric").replace_strict(names, list(range(len(names)))).alias("__fe_order"),
    )
    return sort_by_keys(out, keys, "__fe_order")


def bootstrap_ci(
    data: IntoFrame,
    measure: pl.Expr | Sequence[pl.Expr],
    *,
    by: Keys = None,
    instance: str | None = None,
    repeats: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    n: int | None = None,
) -> Any:
    """Bootstrap confidence intervals for any measure (accuracy, F1, AUC, AP, cost, MSE…), per
    group, as one lazy plan.

    The replicates are those of :func:`bootstrap_replicates` (same arguments, same draws); the
    interval is read from their distribution.

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    measure
        A named Polars aggregation or a list of them (``fe.accuracy("y", "p")``,
        ``fe.roc_auc("y", "s")``, ``pl.col("loss").mean()``…); see
        :func:`bootstrap_replicates`.
    by
        Key column(s): one interval per group and measure.
    instance
        Resampling unit, unique per group (row order without it); see
        :func:`bootstrap_replicates`.
    repeats
        Number of replicates B, ≥ 1 (≥ 1,000 is usual for 95 % intervals; BCa needs more than
        percentile).
    level
        Confidence level 1 − α in (0, 1).
    method
        ``"percentile"`` (default) or ``"bca"`` (bias-corrected and accelerated).
    stratify
        Optional column to resample within (e.g. the truth, keeping the class sizes; advisable
        for AUC or recall on small or imbalanced groups).
    seed
        Integer seed.
    batch_size
        Replicates per pass (memory bound); does not change the result.

    Returns
    -------
    Same kind as ``data`` with ``*by, metric, estimate, bias, std_error, lower, upper, level,
    method, n_replicates``, one row per group and measure, sorted by keys and then in the order
    of ``measure``:

    * ``metric`` — the measure's output name; ``estimate`` — θ̂, the measure on the group;
    * ``bias`` — mean(θ*) − θ̂; ``std_error`` — the standard deviation of the replicates θ*
      (dividing by B − 1);
    * ``lower``, ``upper`` — the interval; ``level`` and ``method`` as requested;
    * ``n_replicates`` — the number of replicates where the measure was defined (Int64).

    Notes
    -----
    Percentile interval: the α/2 and 1 − α/2 quantiles of θ* (linear interpolation between
    order statistics, numpy's default). BCa (Efron 1987; Efron & Tibshirani 1993, §14.3): the
    quantiles at α₁ = Φ(z₀ + (z₀ + z_{α/2}) / (1 − a (z₀ + z_{α/2}))) and α₂ likewise with
    z_{1−α/2}, where z₀ = Φ⁻¹((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B) (replicates equal to θ̂ count
    ½, as in scipy; it matters for discrete measures such as accuracy) and the acceleration a = Σ Uᵢ³ / (6 (Σ Uᵢ²)^{3/2})
    with Uᵢ = θ̄₍.₎ − θ₍ᵢ₎ from the delete-one jackknife over the group's units. The jackknife is
    exact and grouped: units with identical values in every column the measure reads share one
    leave-one-out value, so it costs (distinct profiles × units) rows per group — a handful of
    profiles for label measures (accuracy, F1…), but up to units² for continuous scores or
    regression values, where large groups should use ``"percentile"`` (or :func:`delong_ci` for
    AUC).

    Undefined (null): everything when θ̂ is null; replicates where the measure is undefined are
    left out (``n_replicates`` counts the rest); the interval when no replicate is defined, and
    for BCa when all replicates lie on one side of θ̂ (z₀ = ±∞) or the jackknife values are
    all equal or undefined (a = 0/0). Resampling cannot leave the range of the measure; the
    intervals are for the group's test set as a sample of the population it was drawn from,
    not for the variability due to training (see docs/uncertainty.md).

    References
    ----------
    Efron (1979), "Bootstrap methods: another look at the jackknife", Ann. Statist. 7(1).
    Efron (1987), "Better bootstrap confidence intervals", JASA 82(397). Efron & Tibshirani
    (1993), *An Introduction to the Bootstrap*, ch. 13–14. Zhou Zhihua, *Machine Learning*,
    §2.2.3 (the bootstrap).

    See Also
    --------
    bootstrap_replicates : the replicates these intervals are read from.
    delong_ci : the normal interval of an AUC, without resampling.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> ci = fe.bootstrap_ci(df, fe.accuracy("y", "p"), repeats=200, seed=1)
    >>> ci.select("metric", "estimate", "n_replicates").row(0)
    ('accuracy', 0.6666666666666666, 200)
    >>> bool(ci["lower"][0] <= ci["estimate"][0] <= ci["upper"][0])
    True
    """
    func = "bootstrap_ci"
    level = check_interval(level, method, func)
    repeats = renamed_argument(func, "n", "repeats", n, repeats, "the same count")
    parts = open_bootstrap(
        data, func, measure, by, instance, stratify, repeats, seed, batch_size, BOOTSTRAP_CI
    )
    out = bootstrap_intervals(parts, level, method, instance, stratify)
    return finish(BOOTSTRAP_CI.out(out, parts["keys"], sort=False), parts["eager"])
