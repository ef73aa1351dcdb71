"""Uncertainty of evaluation results: bootstrap confidence intervals for any measure, DeLong's
variance and paired test for AUCs, and tests for resampling designs whose training sets overlap.

* :func:`bootstrap_replicates` / :func:`bootstrap_ci` — the (stratified) multinomial bootstrap of
  any frameeval measure expression, per group, as one lazy plan; percentile and BCa intervals;
  :func:`roc_band` — a pointwise bootstrap band of the ROC curve.
* :func:`delong_ci` / :func:`delong_test` — the variance of an AUC, its normal interval and the
  test of two correlated AUCs on the same instances (DeLong et al. 1988), from placement values
  computed with ranks in O(n log n) (Sun & Xu 2014).
* :func:`corrected_resampled_t_test` — the Nadeau–Bengio corrected resampled t test for repeated
  hold-out and (repeated) k-fold cross-validation.
* :func:`cv5x2_f_test` — Alpaydin's combined 5×2cv F test.

See ``docs/uncertainty.md`` for when each interval and test is valid.

How the bootstrap draws
-----------------------
Replicate r of a group of m resampling units (instances) draws m units with replacement: slot j
(0 ≤ j < m) of replicate r takes unit ``⌊(h ≫ 32) · m / 2³²⌋`` (Lemire's multiply-shift range
reduction of the high 32 bits), where h is the SplitMix64 mix of the 64-bit word
``(r · 2³² + j) xor SplitMix64(seed)``, computed with Polars integer arithmetic.
Units are ordered by ``instance`` (by row order without it), so the draws are reproducible for a
seed on any machine and Polars version, do not depend on the row order when ``instance=`` is
given, and are the same for every group with the same instances — with ``by="model"`` all models
are resampled on the same instances in each replicate (a paired bootstrap). With ``stratify=``
each stratum of a group is resampled on its own (slot j draws from the stratum it belongs to).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import polars as pl
from scipy import special, stats

from frameeval._frame import as_keys, finish, to_lazy
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import IntoFrame, Keys
from frameeval._validate import (
    Checks,
    _family,
    _group_text,
    check_labels,
    check_not_empty_eager,
    check_numeric,
    check_parameter,
    check_unique,
    label_expr,
    require_columns,
    resolve_pos_label,
)
from frameeval.compare._common import guard as _guard
from frameeval.compare._common import learner_expr as _learner_expr
from frameeval.compare._common import literal as _learner_literal
from frameeval.compare._common import mean_std as _mean_std
from frameeval.compare._common import value_text as _text
from frameeval.exceptions import InvalidDtypeError, InvalidParameterError

__all__ = [
    "bootstrap_ci",
    "bootstrap_replicates",
    "corrected_resampled_t_test",
    "cv5x2_f_test",
    "delong_ci",
    "delong_test",
    "roc_band",
]

# ---------------------------------------------------------------------------------------------
# the counter-based generator (SplitMix64 finaliser on UInt64 columns, wrapping arithmetic)
# ---------------------------------------------------------------------------------------------
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_ROWS_PER_PASS = 1 << 22  # DataFrame inputs: tiled rows per pass (bounds memory, ~0.3 GB)
_LAZY_PASS = 10  # LazyFrame inputs (row count unknown): replicates per pass


def _splitmix64(x: int) -> int:
    """SplitMix64 of a Python int (used for the seed; the columns use :func:`_mix`)."""
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def _u64(value: int) -> pl.Expr:
    return pl.lit(value & _MASK, dtype=pl.UInt64)


def _mix(lf: pl.LazyFrame, source: str, target: str) -> pl.LazyFrame:
    """``target`` = SplitMix64(``source``), one stage per step (each stage reads the previous
    column once, so no sub-expression is evaluated twice)."""
    z = pl.col(target)
    lf = lf.with_columns((pl.col(source) + _u64(_GOLDEN)).alias(target))
    lf = lf.with_columns((z.xor(z // _u64(1 << 30)) * _u64(_MIX1)).alias(target))
    lf = lf.with_columns((z.xor(z // _u64(1 << 27)) * _u64(_MIX2)).alias(target))
    return lf.with_columns(z.xor(z // _u64(1 << 31)).alias(target))


# ---------------------------------------------------------------------------------------------
# small shared helpers
# ---------------------------------------------------------------------------------------------
def _agg(lf: pl.LazyFrame, keys: Sequence[str], exprs: Sequence[pl.Expr]) -> pl.LazyFrame:
    return lf.group_by(list(keys)).agg(exprs) if keys else lf.select(exprs)


def _over(expr: pl.Expr, keys: Sequence[str]) -> pl.Expr:
    return expr.over(list(keys)) if keys else expr


def _join(left: pl.LazyFrame, right: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    if keys:
        return left.join(right, on=list(keys), how="left", nulls_equal=True)
    return left.join(right, how="cross")


def _tie(frame: pl.LazyFrame, checked: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """``frame`` restricted to the groups of ``checked`` (a frame whose plan enforces data
    checks), so that collecting ``frame`` runs those checks."""
    if keys:
        return frame.join(checked.select(keys), on=list(keys), how="semi", nulls_equal=True)
    # a one-row ``checked``: cross join its real columns (a literal-only projection would let
    # the optimiser replace the checked plan by a constant)
    names = checked.collect_schema().names()
    renamed = checked.select(pl.col(n).alias(f"__fe_tie_{i}") for i, n in enumerate(names))
    return frame.join(renamed, how="cross").drop(f"__fe_tie_{i}" for i in range(len(names)))


def _sorted(lf: pl.LazyFrame, keys: Sequence[str], *more: str) -> pl.LazyFrame:
    order = [*keys, *more]
    return lf.sort(order, nulls_last=True) if order else lf


def _enforce(lf: pl.LazyFrame, *guards: pl.Expr) -> pl.LazyFrame:
    failed = pl.coalesce(list(guards)).cast(pl.Int8, strict=True)
    return lf.filter(failed.is_null())


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """numerator / denominator with x/0 = ±inf and 0/0 = null (never NaN)."""
    return (
        pl.when((denominator == 0) & (numerator == 0))
        .then(None)
        .otherwise(numerator / denominator)
        .cast(pl.Float64)
    )


def _check_level(value: float, func: str, name: str) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0.0 < value < 1.0
    check_parameter(ok, func, f"{name} must be in (0, 1), got {value!r}.")
    return float(value)


def _check_int(value: Any, func: str, name: str, minimum: int) -> int:
    ok = isinstance(value, int | np.integer) and not isinstance(value, bool) and value >= minimum
    check_parameter(ok, func, f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def _check_distinct(func: str, keys: Sequence[str], **roles: str | None) -> None:
    """Role columns must differ from each other and from the ``by=`` keys."""
    seen: dict[str, str] = {}
    for role, column in roles.items():
        if column is None:
            continue
        check_parameter(
            column not in seen,
            func,
            f"{seen.get(column)}= and {role}= must name different columns, got {column!r} for "
            "both.",
        )
        seen[column] = role
        check_parameter(
            column not in keys, func, f"by= must not contain the {role}= column, got by={keys}."
        )


def _check_outputs(func: str, keys: Sequence[str], outputs: Sequence[str]) -> None:
    clash = sorted(set(keys) & set(outputs))
    check_parameter(not clash, func, f"by= must not use output column names, got {clash}.")


def _scipy(
    frame: pl.LazyFrame,
    compute: Callable[..., Mapping[str, np.ndarray]],
    inputs: Sequence[str],
    outputs: Sequence[str],
) -> pl.LazyFrame:
    """Add Float64 ``outputs`` = ``compute(*inputs)`` (arrays, in order): one vectorised scipy call over the small
    statistics frame, inside the plan (it runs when the frame is collected). Nulls arrive as
    NaN; NaN results leave as null."""
    names = list(outputs)

    def run(series: pl.Series) -> pl.Series:
        arrays = [series.struct.field(n).cast(pl.Float64).to_numpy() for n in inputs]
        with np.errstate(all="ignore"):
            result = compute(*arrays)
        columns = {n: np.asarray(result[n], dtype=np.float64).reshape(-1) for n in names}
        out = pl.DataFrame(columns, schema={n: pl.Float64 for n in names})
        return out.with_columns(pl.all().fill_nan(None)).to_struct("__fe_scipy")

    dtype = pl.Struct({n: pl.Float64 for n in names})
    step = pl.struct(list(inputs)).map_batches(run, return_dtype=dtype).alias("__fe_scipy")
    return frame.with_columns(step).unnest("__fe_scipy")


# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------
def _measures(measure: Any, func: str) -> tuple[list[pl.Expr], list[str], list[str]]:
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
    schema = _agg(lf, keys, exprs).collect_schema()
    for name in names:
        dtype = schema[name]
        if not (dtype.is_numeric() or dtype == pl.Boolean):
            raise InvalidDtypeError(
                f"{func}(): measure {name!r} must aggregate to one number per group, got "
                f"{dtype}.\nHint: a measure is an aggregation, e.g. fe.accuracy('y', 'p') or "
                "pl.col('loss').mean()."
            )


def _open_bootstrap(
    data: Any,
    func: str,
    measure: Any,
    by: Keys,
    instance: str | None,
    stratify: str | None,
    n: Any,
    seed: Any,
    batch_size: Any,
    outputs: Sequence[str],
    checks: Checks | None = None,
) -> dict[str, Any]:
    """Door checks shared by the bootstrap functions; returns the pieces of the plan.
    ``checks`` may hold data checks of the caller, enforced with the estimate."""
    exprs, names, columns = _measures(measure, func)
    n = _check_int(n, func, "n", 1)
    check_parameter(
        isinstance(seed, int | np.integer) and not isinstance(seed, bool),
        func,
        f"seed must be an integer, got {seed!r}.",
    )
    if batch_size is not None:
        batch_size = _check_int(batch_size, func, "batch_size", 1)
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, by=keys, instance=instance, stratify=stratify)
    require_columns(schema, func, measure=columns)
    _check_distinct(func, keys, instance=instance, stratify=stratify)
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

    checks = checks if checks is not None else Checks(func)
    extra: list[pl.Expr] = []
    if instance is not None:
        checks.not_null(instance, "instance")
        # one row per instance in each group, checked in the same aggregation
        unit = pl.col(instance)
        first_dup = unit.filter(unit.is_duplicated()).min()
        extra = [
            first_dup.cast(pl.String).alias("__fe_dup"),
            (unit == first_dup).sum().cast(pl.Int64).alias("__fe_dup_rows"),
        ]
    if stratify is not None:
        checks.not_null(stratify, "stratify")
    size = pl.len().cast(pl.Int64).alias("__fe_n")
    measures = [e.cast(pl.Float64) for e in exprs]
    estimate = _agg(lf, keys, [*measures, size, *extra, *checks.aggs()])
    estimate = checks.enforce(estimate, keys)
    if instance is not None:
        where = [*(pl.format(f"{k}={{}}, ", _text(k)) for k in keys), pl.lit(f"{instance}=")]
        estimate = _enforce(
            estimate,
            _guard(
                pl.col("__fe_dup").is_not_null(),
                "DuplicateKeyError",
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
    groups = _sorted(parts["estimate"].select(*keys, size), keys).with_row_index("__fe_gid")
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
    key = gid.cast(pl.UInt64) * _u64(1 << 32) + position
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
    word = (pl.col("__fe_r") * _u64(1 << 32) + slot.cast(pl.UInt64)).xor(_u64(seed_word))
    tiled = _mix(tiled.with_columns(word.alias("__fe_word")), "__fe_word", "__fe_z")
    # the drawn unit: ⌊(z ≫ 32) · size ≫ 32⌋ in [0, size) within the slot's stratum; its row in
    # the tiled frame is this row − (this unit − stratum start) + that offset
    high = pl.col("__fe_z") // _u64(1 << 32)
    offset = (high * pl.col("__fe_size") // _u64(1 << 32)).cast(pl.UInt32)
    row = pl.int_range(pl.len(), dtype=pl.UInt32)
    tiled = tiled.with_columns(
        (row - pl.col("__fe_behind") + offset).alias("__fe_take"),
        # one key per replicate × group (its first tiled row), non-decreasing by construction
        (row - slot).set_sorted().alias("__fe_key"),
    )
    picked = tiled.select(
        "__fe_key",
        "__fe_gid",
        "__fe_r",
        *[pl.col(c).gather(pl.col("__fe_take")) for c in carried],
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
    seed_word = _splitmix64(parts["seed"] & _MASK)
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
    n: int = 1000,
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
) -> Any:
    """Bootstrap replicates of any measure, per group: the measure on ``n`` resamples.

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
    n
        Number of replicates, ≥ 1.
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
    keys and replicate (``replicate`` = 1…n, Int64). A replicate where the measure is undefined
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
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> reps = fe.bootstrap_replicates(df, fe.accuracy("y", "p"), n=3, seed=1)
    >>> reps.columns, reps.height
    (['replicate', 'accuracy'], 3)
    """
    func = "bootstrap_replicates"
    parts = _open_bootstrap(
        data, func, measure, by, instance, stratify, n, seed, batch_size, ["replicate"]
    )
    out = _replicates(parts, instance, stratify)
    out = out.select(*parts["keys"], "replicate", *parts["names"])
    return finish(_sorted(out, parts["keys"], "replicate"), parts["eager"])


def _jackknife(parts: dict[str, Any]) -> pl.LazyFrame:
    """``*keys, metric, __fe_accel``: the BCa acceleration from the delete-one jackknife.

    Units with equal values in every column the measures read give equal leave-one-out values,
    so each distinct profile is left out once and weighted by its multiplicity: the plan holds
    (distinct profiles × units) rows per group."""
    keys, carried, exprs, names = parts["keys"], parts["carried"], parts["exprs"], parts["names"]
    columns = [*keys, *carried] or [pl.lit(0).alias("__fe_any")]  # e.g. pl.len() without by=
    units = parts["lf"].select(columns).with_row_index("__fe_row")
    profiles = _agg(
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
    z_low, z_high = special.ndtri(tail), special.ndtri(1.0 - tail)
    low = special.ndtr(z0 + (z0 + z_low) / (1.0 - accel * (z0 + z_low)))
    high = special.ndtr(z0 + (z0 + z_high) / (1.0 - accel * (z0 + z_high)))
    return {"__fe_q_low": low, "__fe_q_high": high}


def _z0(below2: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
    share = below2 / (2.0 * count)
    share = np.where((share > 0) & (share < 1), share, np.nan)
    return {"__fe_z0": special.ndtri(share)}


_CI_OUT = [
    "metric",
    "estimate",
    "bias",
    "std_error",
    "lower",
    "upper",
    "level",
    "method",
    "n_replicates",
]


def _intervals(
    parts: dict[str, Any], level: float, method: str, instance: str | None, stratify: str | None
) -> pl.LazyFrame:
    """``*keys, metric, …`` (the columns of :data:`_CI_OUT`), sorted by keys and measure order."""
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
        summary = _join(summary, _jackknife(parts), by_metric)
        summary = _scipy(summary, _z0, ["__fe_below2", "n_replicates"], ["__fe_z0"])
        summary = summary.with_columns(pl.lit(level).alias("level"))
        summary = _scipy(
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
    return _sorted(out, keys, "__fe_order")


def bootstrap_ci(
    data: IntoFrame,
    measure: pl.Expr | Sequence[pl.Expr],
    *,
    by: Keys = None,
    instance: str | None = None,
    n: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    stratify: str | None = None,
    seed: int = 0,
    batch_size: int | None = None,
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
    n
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
    bootstrap_replicates, delong_ci

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]})
    >>> ci = fe.bootstrap_ci(df, fe.accuracy("y", "p"), n=200, seed=1)
    >>> ci.select("metric", "estimate", "n_replicates").row(0)
    ('accuracy', 0.6666666666666666, 200)
    >>> bool(ci["lower"][0] <= ci["estimate"][0] <= ci["upper"][0])
    True
    """
    func = "bootstrap_ci"
    level = _check_level(level, func, "level")
    check_parameter(
        method in ("percentile", "bca"),
        func,
        f"method must be 'percentile' or 'bca', got {method!r}.",
    )
    parts = _open_bootstrap(
        data, func, measure, by, instance, stratify, n, seed, batch_size, _CI_OUT
    )
    out = _intervals(parts, level, method, instance, stratify)
    return finish(out.select(*parts["keys"], *_CI_OUT), parts["eager"])


def _tpr_at(is_pos: pl.Expr, score: str, fpr: float) -> pl.Expr:
    """TPR of the tie-aware ROC curve at false positive rate ``fpr`` (an aggregation).

    With k = fpr · n⁻ and v the (⌊k⌋ + 1)-th largest negative score, a / b the negatives above /
    at v and c / d the positives above / at v, the curve crosses FPR = k/n⁻ on the diagonal step
    of the tie block at v: TPR = (c + d (k − a) / b) / n⁺. At k = a (a negative's FPR) that is
    the top of the vertical step there, the largest TPR at that FPR; at FPR = 1 it is 1.
    """
    s = pl.col(score).cast(pl.Float64)
    neg = ~is_pos
    n_pos = is_pos.sum().cast(pl.Float64)
    n_neg = neg.sum().cast(pl.Float64)
    defined = (n_pos > 0) & (n_neg > 0)
    if fpr >= 1.0:
        return pl.when(defined).then(pl.lit(1.0))
    k = n_neg * fpr
    index = pl.min_horizontal(k.floor(), n_neg - 1).cast(pl.Int64)
    v = s.filter(neg).sort(descending=True).get(index, null_on_oob=True)

    def count(rows: pl.Expr) -> pl.Expr:
        return rows.sum().cast(pl.Float64)

    above, tied = count(neg & (s > v)), count(neg & (s == v))
    tp = count(is_pos & (s > v)) + count(is_pos & (s == v)) * (k - above) / tied
    return pl.when(defined).then(tp / n_pos)


_BAND_OUT = [
    "fpr",
    "tpr",
    "std_error",
    "lower",
    "upper",
    "level",
    "method",
    "n_replicates",
]


def roc_band(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    instance: str | None = None,
    points: int = 21,
    n: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    stratify: bool = True,
    seed: int = 0,
    batch_size: int | None = None,
    stratified: bool | None = None,
) -> Any:
    """A pointwise bootstrap confidence band of the ROC curve (vertical averaging), per group.

    At ``points`` equally spaced false positive rates the true positive rate of the ROC curve is
    a measure like any other; its bootstrap interval at every FPR gives the band (Fawcett 2006,
    §8.1 "vertical averaging"; Macskassy & Provost 2004). The replicates are those of
    :func:`bootstrap_ci`, by default stratified by class so every resample has both classes.

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        instance (× ``by`` group).
    truth, score
        True label and score columns (larger score = more positive).
    by
        Key column(s): one band per group.
    pos_label
        The positive class (default 1 / True; required for string labels).
    instance
        Resampling unit, unique per group (row order without it); see
        :func:`bootstrap_replicates`.
    points
        Number of FPR values 0, 1/(points − 1), …, 1 (≥ 2).
    n, level, method, seed, batch_size
        As in :func:`bootstrap_ci`.
    stratify
        Resample positives and negatives separately (default), keeping the class sizes.
    stratified
        Deprecated alias of ``stratify`` (one name per meaning, as in :func:`bootstrap_ci`);
        it warns and will be removed in the next release.

    Returns
    -------
    Same kind as ``data`` with ``*by, fpr, tpr, std_error, lower, upper, level, method,
    n_replicates``, one row per group and FPR value, sorted by keys and ``fpr``: ``tpr`` — the
    TPR of the group's ROC curve at ``fpr``; ``lower``, ``upper`` — the pointwise interval.

    Notes
    -----
    The ROC curve is the tie-aware one of §2.3.3 (a run of tied scores is one diagonal step), and
    the TPR at an FPR where the curve rises vertically is the top of that rise (at FPR 0: the
    share of positives scored above every negative; at FPR 1: 1). The band is pointwise: each
    FPR has coverage ``level`` on its own; the whole curve lies inside it less often. A group
    with one class gives nulls.

    References
    ----------
    Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27(8).
    Macskassy & Provost (2004), "Confidence bands for ROC curves", ROCAI. Zhou Zhihua, *Machine
    Learning*, §2.3.3.

    See Also
    --------
    bootstrap_ci, delong_ci, frameeval.charts.uncertainty.roc_band

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 1, 1, 0, 0, 0], "s": [0.9, 0.8, 0.3, 0.7, 0.2, 0.1]})
    >>> band = fe.roc_band(df, "y", "s", points=3, n=50)
    >>> band.select("fpr", "tpr").rows()
    [(0.0, 0.6666666666666666), (0.5, 1.0), (1.0, 1.0)]
    """
    func = "roc_band"
    level = _check_level(level, func, "level")
    check_parameter(
        method in ("percentile", "bca"),
        func,
        f"method must be 'percentile' or 'bca', got {method!r}.",
    )
    points = _check_int(points, func, "points", 2)
    if stratified is not None:
        import warnings

        warnings.warn(
            f"{func}(): stratified= is deprecated, use stratify= (the same meaning).",
            DeprecationWarning,
            stacklevel=2,
        )
        stratify = stratified
    check_parameter(
        isinstance(stratify, bool), func, f"stratify must be True or False, got {stratify!r}."
    )
    lf, _ = to_lazy(data, func)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, score=score)
    check_labels(schema, func, truth=truth)
    check_numeric(schema, func, score=score)
    positive = resolve_pos_label(schema, func, truth, pos_label)
    is_pos = label_expr(truth, schema) == positive
    checks = Checks(func)
    checks.label(truth, "truth", schema[truth])
    checks.finite(score, "score", schema[score])
    checks.present(
        is_pos, f"pos_label {positive!r} must occur in column {truth!r}, got no such row"
    )
    grid = [i / (points - 1) for i in range(points)]
    names = [f"__fe_tpr_{i}" for i in range(points)]
    measures = [_tpr_at(is_pos, score, f).alias(name) for f, name in zip(grid, names, strict=True)]
    parts = _open_bootstrap(
        data, func, measures, by, instance, truth if stratify else None, n, seed, batch_size,
        _BAND_OUT, checks,
    )
    _check_distinct(func, parts["keys"], truth=truth, score=score, instance=instance)
    out = _intervals(parts, level, method, instance, truth if stratify else None).with_columns(
        pl.col("metric").replace_strict(names, grid, return_dtype=pl.Float64).alias("fpr"),
        pl.col("estimate").alias("tpr"),
    )
    return finish(out.select(*parts["keys"], *_BAND_OUT), parts["eager"])


# ---------------------------------------------------------------------------------------------
# DeLong
# ---------------------------------------------------------------------------------------------
def _open_scores(
    data: Any, func: str, truth: str, score: str, by: Keys, pos_label: Any, **more: str | None
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema, pl.Expr, Checks]:
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, truth=truth, score=score, by=keys, **more)
    _check_distinct(func, keys, truth=truth, score=score, **more)
    check_labels(schema, func, truth=truth)
    check_numeric(schema, func, score=score)
    positive = resolve_pos_label(schema, func, truth, pos_label)
    check_not_empty_eager(data, eager, lf, func)
    is_pos = label_expr(truth, schema) == positive
    checks = Checks(func)
    checks.label(truth, "truth", schema[truth])
    checks.finite(score, "score", schema[score])
    checks.present(
        is_pos, f"pos_label {positive!r} must occur in column {truth!r}, got no such row"
    )
    return lf, eager, keys, schema, is_pos, checks


def _placements(lf: pl.LazyFrame, keys: list[str], score: str) -> pl.LazyFrame:
    """Add ``__fe_v``: the placement value of each instance within its group (Sun & Xu 2014).

    A positive's placement is the share of negatives it outranks (ties count ½), V₁₀; a
    negative's is the share of positives that outrank it, V₀₁. With midranks R over the group
    and R⁺ / R⁻ within the class: V₁₀ = (R − R⁺) / n⁻ and V₀₁ = 1 − (R − R⁻) / n⁺.
    """
    s = pl.col(score).cast(pl.Float64)
    pos = pl.col("__fe_pos")
    n_pos = _over(pos.sum(), keys).cast(pl.Float64)
    n_neg = _over(pl.len(), keys).cast(pl.Float64) - n_pos
    rank_all = _over(s.rank("average"), keys).cast(pl.Float64)
    rank_class = s.rank("average").over([*keys, "__fe_pos"]).cast(pl.Float64)
    outranked = rank_all - rank_class
    value = pl.when(pos).then(outranked / n_neg).otherwise(1.0 - outranked / n_pos)
    return lf.with_columns(
        pl.when((n_pos > 0) & (n_neg > 0)).then(value).alias("__fe_v"),
        n_pos.alias("__fe_n_pos"),
        n_neg.alias("__fe_n_neg"),
    )


_DELONG_CI_OUT = [
    "metric",
    "estimate",
    "variance",
    "std_error",
    "lower",
    "upper",
    "level",
    "method",
    "n_pos",
    "n_neg",
]


def delong_ci(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    level: float = 0.95,
) -> Any:
    """AUC with DeLong's variance and normal confidence interval, per group.

    The AUC is a two-sample U statistic; DeLong, DeLong & Clarke-Pearson (1988) estimate its
    variance from the placement values of the instances (each positive's share of negatives
    ranked below it, each negative's share of positives ranked above it), which Sun & Xu (2014)
    compute with midranks in O(n log n).

    Parameters
    ----------
    data
        Long result frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        instance (× ``by`` group).
    truth
        True label column (binary use: ``pos_label`` against the rest).
    score
        Score column, larger = more positive.
    by
        Key column(s): one AUC per group.
    pos_label
        The positive class (default 1 / True; required for string labels).
    level
        Confidence level in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, metric, estimate, variance, std_error, lower, upper, level,
    method, n_pos, n_neg``, sorted by keys: ``metric`` = ``"roc_auc"``; ``estimate`` — the AUC
    (ties count ½, eq 2.22's 1 − ℓ_rank); ``variance`` = S₁₀/n⁺ + S₀₁/n⁻; ``std_error`` its
    square root; ``lower``, ``upper`` = AUC ∓ z_{(1+level)/2}·std_error, clipped to [0, 1];
    ``method`` = ``"delong"``; ``n_pos``, ``n_neg`` — the class sizes (Int64).

    Notes
    -----
    AUC = mean of V₁₀ over positives = 1 − ℓ_rank (eqs 2.21–2.22). S₁₀ and S₀₁ are the sample
    variances (dividing by n⁺ − 1 and n⁻ − 1) of the placements V₁₀ of the positives and V₀₁ of
    the negatives. Unweighted: every row is one instance (``weight=`` is not supported).

    Undefined (null): AUC, variance and interval of a group with one class; the variance and
    interval when a class has a single instance. At perfect separation (AUC 0 or 1) the
    variance is 0 and the interval collapses to a point — use :func:`bootstrap_ci` there. The
    normal interval suits moderate to large samples with an AUC away from 0 and 1.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), "Comparing the areas under two or more correlated
    receiver operating characteristic curves: a nonparametric approach", Biometrics 44(3).
    Sun & Xu (2014), "Fast implementation of DeLong's algorithm for comparing the areas under
    correlated receiver operating characteristic curves", IEEE Signal Processing Letters 21(11).
    Hanley & McNeil (1982), Radiology 143(1). Zhou Zhihua, *Machine Learning*, §2.3.3.

    See Also
    --------
    delong_test, bootstrap_ci

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"y": [1, 1, 1, 0, 0, 0], "s": [0.9, 0.8, 0.3, 0.7, 0.2, 0.1]})
    >>> out = fe.delong_ci(df, "y", "s")
    >>> out.select("estimate", "n_pos", "n_neg").row(0)
    (0.8888888888888888, 3, 3)
    >>> round(out["std_error"][0], 4)  # √(2/81): S₁₀ = S₀₁ = 1/27 over 3 + 3 instances
    0.1571
    """
    func = "delong_ci"
    level = _check_level(level, func, "level")
    lf, eager, keys, _, is_pos, checks = _open_scores(data, func, truth, score, by, pos_label)
    _check_outputs(func, keys, _DELONG_CI_OUT)
    rows = pl.len().alias("__fe_rows")
    checked = checks.enforce(_agg(lf, keys, [rows, *checks.aggs()]), keys)
    frame = _tie(lf.select(*keys, score, is_pos.alias("__fe_pos")), checked, keys)
    frame = _placements(frame, keys, score)
    v, pos = pl.col("__fe_v"), pl.col("__fe_pos")
    out = _agg(
        frame,
        keys,
        [
            v.filter(pos).mean().alias("estimate"),
            v.filter(pos).var(ddof=1).alias("__fe_s10"),
            v.filter(~pos).var(ddof=1).alias("__fe_s01"),
            pos.sum().cast(pl.Int64).alias("n_pos"),
            (~pos).sum().cast(pl.Int64).alias("n_neg"),
        ],
    )
    z = float(special.ndtri(0.5 + level / 2.0))
    variance = pl.col("__fe_s10") / pl.col("n_pos") + pl.col("__fe_s01") / pl.col("n_neg")
    known = pl.col("estimate").is_not_null()
    out = out.with_columns(
        pl.when(known).then(variance).alias("variance"),
    ).with_columns(
        pl.col("variance").sqrt().alias("std_error"),
    )
    se = pl.col("std_error")
    out = out.with_columns(
        pl.lit("roc_auc").alias("metric"),
        (pl.col("estimate") - z * se).clip(0.0, 1.0).alias("lower"),
        (pl.col("estimate") + z * se).clip(0.0, 1.0).alias("upper"),
        pl.lit(level).alias("level"),
        pl.lit("delong").alias("method"),
    )
    return finish(_sorted(out.select(*keys, *_DELONG_CI_OUT), keys), eager)


def _check_learners(schema: pl.Schema, func: str, learner: str, a: Any, b: Any) -> None:
    family = _family(schema[learner])
    for role, value in (("a", a), ("b", b)):
        if value is None:
            raise InvalidParameterError(f"{func}(): {role}= must name a learner, got None.")
        ok = {
            "string": isinstance(value, str),
            "boolean": isinstance(value, bool),
            "numeric": isinstance(value, int | float) and not isinstance(value, bool),
        }[family]
        if not ok:
            raise InvalidDtypeError(
                f"{func}(): {role}= must match the dtype of column {learner!r} "
                f"({schema[learner]}), got {value!r} ({type(value).__name__})."
            )
    check_parameter(a != b, func, f"a= and b= must be different learners, got {a!r} for both.")


def _both_present(
    frame: pl.LazyFrame,
    keys: list[str],
    func: str,
    where: pl.Expr,
    a: Any,
    b: Any,
    what: str,
    missing_a: pl.Expr,
    missing_b: pl.Expr,
) -> pl.LazyFrame:
    """Raise in-plan when a row of ``frame`` (one per pairing unit) has no value of learner a
    (``missing_a``) or b, listing up to five units."""
    side = pl.when(missing_a).then(pl.lit(f"a={a!r}")).otherwise(pl.lit(f"b={b!r}"))
    text = pl.concat_str([where, pl.lit(" has no value for "), side])
    missing = frame.filter(missing_a | missing_b)
    gaps = _agg(
        missing,
        keys,
        [
            pl.len().cast(pl.Int64).alias("__fe_gaps"),
            text.sort().head(5).str.join(", ").alias("__fe_list"),
        ],
    )
    frame = _join(frame, gaps, keys)
    frame = _enforce(
        frame,
        _guard(
            pl.col("__fe_gaps") > 0,
            "InsufficientDataError",
            f"{func}(): learners a={a!r} and b={b!r} must both have a value for every {what}, "
            "got {} missing: {}{}.",
            pl.col("__fe_gaps"),
            pl.col("__fe_list"),
            _group_text(keys),
        ),
    )
    return frame.drop("__fe_gaps", "__fe_list")


def _two_sided_z(statistic: np.ndarray, alpha: np.ndarray) -> dict[str, np.ndarray]:
    return {
        "p_value": 2.0 * special.ndtr(-np.abs(statistic)),
        "critical_value": special.ndtri(1.0 - alpha / 2.0),
    }


_DELONG_TEST_OUT = [
    "a",
    "b",
    "n_pos",
    "n_neg",
    "roc_auc_a",
    "roc_auc_b",
    "difference",
    "std_error",
    "lower",
    "upper",
    "statistic",
    "p_value",
    "critical_value",
    "alpha",
    "reject",
    "better",
]


def delong_test(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    instance: str = "instance",
    by: Keys = None,
    pos_label: Any = None,
    alpha: float = 0.05,
) -> Any:
    """DeLong's test of two correlated AUCs: learners a and b scored the same instances.

    The difference of the two AUCs is asymptotically normal; its variance includes the
    covariance of the two learners' placement values over the shared instances, which is what
    makes the test paired (DeLong et al. 1988). Placements are computed with midranks in
    O(n log n) (Sun & Xu 2014).

    Parameters
    ----------
    data
        Long frame (DataFrame or LazyFrame; pandas / pyarrow are converted), one row per
        learner × instance (× ``by`` group); rows of other learners are ignored.
    truth
        True label column; must be the same in the rows of one instance.
    score
        Score column, larger = more positive.
    a, b
        The two learners (values of ``learner``). Differences are a − b.
    learner, instance
        Columns naming the learner and the instance; every instance needs a row of both.
    by
        Key column(s): one test per group (e.g. ``"dataset"``).
    pos_label
        The positive class (default 1 / True; required for string labels).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_pos, n_neg, roc_auc_a, roc_auc_b, difference,
    std_error, lower, upper, statistic, p_value, critical_value, alpha, reject, better``, sorted
    by keys: ``difference`` = AUC_a − AUC_b; ``std_error`` = √Var(AUC_a − AUC_b); ``lower``,
    ``upper`` — the 1 − α normal interval of the difference; ``statistic`` = z = difference /
    std_error; ``p_value`` = 2 Φ(−|z|); ``critical_value`` = z_{1−α/2}; ``reject`` = |z| >
    z_{1−α/2}; ``better`` — the learner with the larger AUC when rejected, null otherwise.

    Notes
    -----
    Var(AUC_a − AUC_b) = S₁₀/n⁺ + S₀₁/n⁻ where S₁₀ is the sample variance over positives of
    V₁₀ᵃ − V₁₀ᵇ (= S₁₀ᵃᵃ + S₁₀ᵇᵇ − 2 S₁₀ᵃᵇ) and S₀₁ likewise over negatives. Unweighted.

    Undefined (null): everything but the counts for a group with one class; ``std_error``
    onwards when a class has a single instance; ``statistic``, ``p_value``, ``reject`` and
    ``better`` when the variance of the difference is 0 (e.g. identical rankings, or both AUCs
    0 or 1). Raises (inside the plan) on null / NaN / inf scores, a truth that differs between
    the rows of one instance, duplicate (learner, instance) rows, and instances scored by only
    one of the two learners.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), Biometrics 44(3). Sun & Xu (2014), IEEE Signal
    Processing Letters 21(11).

    See Also
    --------
    delong_ci, bootstrap_ci

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({
    ...     "learner": ["A"] * 6 + ["B"] * 6, "instance": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2,
    ...     "s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1, 0.9, 0.2, 0.7, 0.3, 0.8, 0.1]})
    >>> out = fe.delong_test(df, "y", "s", a="A", b="B")
    >>> out.select("roc_auc_a", "roc_auc_b", "reject").row(0)
    (1.0, 0.6666666666666666, False)
    """
    learner, = resolve_roles(data, "delong_test", [by, truth, score, instance], learner=learner)
    func = "delong_test"
    alpha = _check_level(alpha, func, "alpha")
    lf, eager, keys, schema, is_pos, checks = _open_scores(
        data, func, truth, score, by, pos_label, learner=learner, instance=instance
    )
    _check_outputs(func, keys, _DELONG_TEST_OUT)
    _check_learners(schema, func, learner, a, b)
    checks.not_null(instance, "instance")
    name = _learner_expr(learner, schema)
    is_a, is_b = name == pl.lit(a), name == pl.lit(b)
    mine = lf.filter(is_a | is_b)
    mine = check_unique(
        mine, [*keys, learner, instance], func, "one score per learner and instance"
    )
    rows = pl.len().alias("__fe_rows")
    checked = checks.enforce(_agg(mine, keys, [rows, *checks.aggs()]), keys)
    frame = mine.select(
        *keys,
        instance,
        score,
        label_expr(truth, schema).alias("__fe_truth"),
        is_pos.alias("__fe_pos"),
        is_a.alias("__fe_is_a"),
    )
    frame = _placements(frame, [*keys, "__fe_is_a"], score)
    v, from_a = pl.col("__fe_v"), pl.col("__fe_is_a")
    per_x = frame.group_by([*keys, instance]).agg(
        pl.col("__fe_pos").first(),
        pl.col("__fe_truth").n_unique().alias("__fe_truths"),
        v.filter(from_a).first().alias("__fe_a"),
        v.filter(~from_a).first().alias("__fe_b"),
        from_a.any().alias("__fe_has_a"),
        (~from_a).any().alias("__fe_has_b"),
    )
    per_x = _tie(per_x, checked, keys)
    where = pl.concat_str([pl.lit(f"{instance}="), _text(instance)])
    per_x = _enforce(
        per_x,
        _guard(
            pl.col("__fe_truths") > 1,
            "InvalidValueError",
            f"{func}(): column {truth!r} (truth=) must be the same in the rows of one instance, "
            "got different values for {}{}.",
            where,
            _group_text(keys),
        ),
    )
    per_x = _both_present(
        per_x, keys, func, where, a, b, "instance", ~pl.col("__fe_has_a"), ~pl.col("__fe_has_b")
    )
    pos = pl.col("__fe_pos")
    va, vb = pl.col("__fe_a"), pl.col("__fe_b")
    out = _agg(
        per_x,
        keys,
        [
            pos.sum().cast(pl.Int64).alias("n_pos"),
            (~pos).sum().cast(pl.Int64).alias("n_neg"),
            va.filter(pos).mean().alias("roc_auc_a"),
            vb.filter(pos).mean().alias("roc_auc_b"),
            (va - vb).filter(pos).var(ddof=1).alias("__fe_s10"),
            (va - vb).filter(~pos).var(ddof=1).alias("__fe_s01"),
        ],
    )
    defined = (pl.col("n_pos") > 0) & (pl.col("n_neg") > 0)
    variance = pl.col("__fe_s10") / pl.col("n_pos") + pl.col("__fe_s01") / pl.col("n_neg")
    z = float(special.ndtri(1.0 - alpha / 2.0))
    out = out.with_columns(
        pl.when(defined).then(pl.col("roc_auc_a")).alias("roc_auc_a"),
        pl.when(defined).then(pl.col("roc_auc_b")).alias("roc_auc_b"),
        pl.when(defined).then(variance.sqrt()).alias("std_error"),
    ).with_columns((pl.col("roc_auc_a") - pl.col("roc_auc_b")).alias("difference"))
    diff, se = pl.col("difference"), pl.col("std_error")
    out = out.with_columns(
        (diff - z * se).alias("lower"),
        (diff + z * se).alias("upper"),
        pl.when(se > 0).then(diff / se).alias("statistic"),
        pl.lit(alpha).alias("alpha"),
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
    )
    out = _scipy(out, _two_sided_z, ["statistic", "alpha"], ["p_value", "critical_value"])
    reject = pl.col("statistic").abs() > pl.col("critical_value")
    out = out.with_columns(reject.alias("reject")).with_columns(
        pl.when(pl.col("reject") & (diff > 0))
        .then(pl.col("a"))
        .when(pl.col("reject") & (diff < 0))
        .then(pl.col("b"))
        .alias("better")
    )
    return finish(_sorted(out.select(*keys, *_DELONG_TEST_OUT), keys), eager)


# ---------------------------------------------------------------------------------------------
# tests for resampling designs
# ---------------------------------------------------------------------------------------------
def _resolve_direction(func: str, metric: str, higher_is_better: bool | None) -> bool:
    if higher_is_better is not None:
        check_parameter(
            isinstance(higher_is_better, bool),
            func,
            f"higher_is_better must be True, False or None, got {higher_is_better!r}.",
        )
        return higher_is_better
    from frameeval.metrics import MEASURES

    registered = MEASURES.get(metric)
    if registered is None:
        raise InvalidParameterError(
            f"{func}(): higher_is_better= is required for metric column {metric!r} (not the name "
            "of a registered measure), got None.\nHint: higher_is_better=True for accuracy, AUC "
            "or F1; False for an error rate, a cost or MSE."
        )
    return registered.higher_is_better


def _paired_metric(
    data: Any,
    func: str,
    metric: str,
    a: Any,
    b: Any,
    learner: str,
    pair: list[str],
    by: Keys,
    outputs: Sequence[str],
) -> tuple[pl.LazyFrame, bool, list[str], pl.Schema]:
    """``*keys, *pair, __fe_a, __fe_b``: the metric of a and b side by side per split, with the
    in-plan checks (finite metric, no null split ids, one value per learner and split, both
    learners on every split)."""
    lf, eager = to_lazy(data, func)
    keys = as_keys(by)
    schema = lf.collect_schema()
    require_columns(schema, func, by=keys, metric=metric, learner=learner)
    require_columns(schema, func, pair=pair)
    _check_distinct(func, keys, metric=metric, learner=learner)
    for column in pair:
        check_parameter(
            column not in keys and column not in (metric, learner),
            func,
            f"pair columns must differ from by=, metric= and learner=, got {column!r}.",
        )
    _check_outputs(func, keys, outputs)
    check_numeric(schema, func, metric=metric)
    _check_learners(schema, func, learner, a, b)
    check_not_empty_eager(data, eager, lf, func)
    checks = Checks(func)
    checks.finite(metric, "metric", schema[metric])
    for column in pair:
        checks.not_null(column, "pair")
    name = _learner_expr(learner, schema)
    is_a, is_b = name == pl.lit(a), name == pl.lit(b)
    counts = _agg(
        lf,
        keys,
        [
            is_a.sum().cast(pl.Int64).alias("__fe_rows_a"),
            is_b.sum().cast(pl.Int64).alias("__fe_rows_b"),
        ],
    )
    counts = _enforce(
        counts,
        _guard(
            (pl.col("__fe_rows_a") == 0) | (pl.col("__fe_rows_b") == 0),
            "InsufficientDataError",
            f"{func}(): learners a={a!r} and b={b!r} must both have rows, got {{}} rows of a "
            "and {} rows of b{}.",
            pl.col("__fe_rows_a"),
            pl.col("__fe_rows_b"),
            _group_text(keys),
        ),
    )
    mine = lf.filter(is_a | is_b)
    mine = check_unique(
        mine, [*keys, *pair, learner], func, f"one metric value per learner and {'/'.join(pair)}"
    )
    value = pl.col(metric).cast(pl.Float64)
    piv = mine.group_by([*keys, *pair]).agg(
        value.filter(is_a).first().alias("__fe_a"),
        value.filter(is_b).first().alias("__fe_b"),
        *checks.aggs(),
    )
    piv = checks.enforce(piv, keys)
    where = pl.concat_str([pl.concat_str([pl.lit(f"{p}="), _text(p)]) for p in pair], separator=" ")
    piv = _both_present(
        piv,
        keys,
        func,
        where,
        a,
        b,
        "/".join(pair),
        pl.col("__fe_a").is_null(),
        pl.col("__fe_b").is_null(),
    )
    return _tie(piv, counts, keys), eager, keys, schema


def _two_sided_t(statistic: np.ndarray, df: np.ndarray, alpha: np.ndarray) -> dict[str, Any]:
    return {
        "p_value": 2.0 * stats.t.sf(np.abs(statistic), df),
        "critical_value": stats.t.isf(alpha / 2.0, df),
    }


def _better(hib: bool) -> pl.Expr:
    sign = pl.col("mean") if hib else -pl.col("mean")
    return (
        pl.when(pl.col("reject") & (sign > 0))
        .then(pl.col("a"))
        .when(pl.col("reject") & (sign < 0))
        .then(pl.col("b"))
        .alias("better")
    )


_CORRECTED_OUT = [
    "a",
    "b",
    "n_pairs",
    "mean",
    "std",
    "statistic",
    "df",
    "p_value",
    "critical_value",
    "alpha",
    "reject",
    "better",
]


def corrected_resampled_t_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    n_train: float,
    n_test: float,
    learner: str | None = None,
    pair: str | Sequence[str] = "fold",
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
) -> Any:
    """Nadeau–Bengio corrected resampled t test of two learners (repeated hold-out, k-fold,
    repeated k-fold).

    The J splits of a resampling design share training (and, for repeated hold-out, test)
    instances, so the J differences are positively correlated and the plain paired t test
    (:func:`frameeval.paired_t_test`) underestimates their variance and rejects far too often.
    Nadeau & Bengio (2003) inflate the variance by the factor 1/J + n_test/n_train instead of
    1/J.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted),
        one row per learner × split (× ``by`` group); rows of other learners are ignored.
    metric
        Column with the metric values (error rate, accuracy, AUC…).
    a, b
        The two learners (values of ``learner``); differences are a − b.
    n_train, n_test
        Training and test set sizes of one split (only their ratio matters): for repeated
        hold-out with a ⅓ test set, ``n_train=2, n_test=1``; for (repeated) k-fold CV,
        ``n_train=k - 1, n_test=1``.
    learner
        Column naming the learner.
    pair
        Column(s) identifying the split both learners were evaluated on, e.g. ``"fold"`` or
        ``["repeat", "fold"]``.
    by
        Key column(s): one test per group.
    higher_is_better
        Direction of ``metric`` for ``better`` (default: from the measure registry by name).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_pairs, mean, std, statistic, df, p_value,
    critical_value, alpha, reject, better``, sorted by keys: ``n_pairs`` = J (Int64); ``mean``,
    ``std`` — mean and sample standard deviation (J − 1) of the differences; ``statistic`` =
    mean / (std · √(1/J + n_test/n_train)); ``df`` = J − 1; ``p_value`` two-sided;
    ``critical_value`` = t_{α/2, J−1}; ``reject`` = |statistic| > critical_value; ``better`` —
    the learner with the better mean when rejected, null otherwise.

    Notes
    -----
    With n_test/n_train = 0 this is the paired t test of §2.4.2. For r × k-fold CV (J = r·k,
    n_test/n_train = 1/(k − 1)) it is the "corrected repeated k-fold cv test" of Bouckaert &
    Frank (2004). The correction is a heuristic upper bound on the correlation ρ = n_test /
    (n_train + n_test) of the split estimates; it keeps the type I error near α in simulations
    but is not exact, and it does not account for the variability of the data set itself. When
    all differences are equal the statistic is ±inf, or null when they are all 0 (``p_value``,
    ``reject``, ``better`` null too). Needs J ≥ 2 splits with both learners.

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error", Machine Learning 52(3).
    Bouckaert & Frank (2004), "Evaluating the replicability of significance tests for comparing
    learning algorithms", PAKDD. Zhou Zhihua, *Machine Learning*, §2.4.2.

    See Also
    --------
    cv5x2_f_test, frameeval.paired_t_test, frameeval.cv5x2_t_test

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"learner": ["A"] * 4 + ["B"] * 4, "fold": [1, 2, 3, 4] * 2,
    ...                    "accuracy": [0.80, 0.82, 0.85, 0.81, 0.78, 0.80, 0.80, 0.79]})
    >>> out = fe.corrected_resampled_t_test(df, "accuracy", a="A", b="B", n_train=3, n_test=1)
    >>> out.select("n_pairs", "df", "reject").row(0)
    (4, 3, False)
    >>> round(out["statistic"][0], 4)  # 0.0275 / (0.015 · √(1/4 + 1/3))
    2.4004
    """
    learner, = resolve_roles(data, "corrected_resampled_t_test", [by, metric, pair], learner=learner)
    func = "corrected_resampled_t_test"
    alpha = _check_level(alpha, func, "alpha")
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
        check_parameter(ok, func, f"{name} must be a positive number, got {value!r}.")
    pairs = [pair] if isinstance(pair, str) else list(pair)
    check_parameter(bool(pairs), func, "pair= must name at least one column, got none.")
    hib = _resolve_direction(func, metric, higher_is_better)
    piv, eager, keys, schema = _paired_metric(
        data, func, metric, a, b, learner, pairs, by, _CORRECTED_OUT
    )
    mean, std = _mean_std(pl.col("__fe_a") - pl.col("__fe_b"))
    out = _agg(
        piv,
        keys,
        [pl.len().cast(pl.Int64).alias("n_pairs"), mean.alias("mean"), std.alias("std")],
    )
    out = _enforce(
        out,
        _guard(
            pl.col("n_pairs") < 2,
            "InsufficientDataError",
            f"{func}(): needs at least 2 splits ({'/'.join(pairs)}) with both learners, got "
            "{}{}.",
            pl.col("n_pairs"),
            _group_text(keys),
        ),
    )
    j = pl.col("n_pairs").cast(pl.Float64)
    factor = (1.0 / j + float(n_test) / float(n_train)).sqrt()
    out = out.with_columns(
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
        _ratio(pl.col("mean"), pl.col("std") * factor).alias("statistic"),
        (pl.col("n_pairs") - 1).alias("df"),
        pl.lit(alpha).alias("alpha"),
    )
    out = _scipy(out, _two_sided_t, ["statistic", "df", "alpha"], ["p_value", "critical_value"])
    out = out.with_columns(
        (pl.col("statistic").abs() > pl.col("critical_value")).alias("reject")
    ).with_columns(_better(hib))
    return finish(_sorted(out.select(*keys, *_CORRECTED_OUT), keys), eager)


def _f_test(statistic: np.ndarray, df1: np.ndarray, df2: np.ndarray, alpha: np.ndarray) -> Any:
    return {
        "p_value": stats.f.sf(statistic, df1, df2),
        "critical_value": stats.f.isf(alpha, df1, df2),
    }


_CV5X2_F_OUT = [
    "a",
    "b",
    "n_repeats",
    "mean",
    "statistic",
    "df1",
    "df2",
    "p_value",
    "critical_value",
    "alpha",
    "reject",
    "better",
]


def cv5x2_f_test(
    data: IntoFrame,
    metric: str,
    *,
    a: Any,
    b: Any,
    learner: str | None = None,
    repeat: str | None = None,
    fold: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
) -> Any:
    """Alpaydin's combined 5×2cv F test of two learners.

    Five repeats of 2-fold cross-validation give ten differences pᵢ⁽ʲ⁾ (repeat i, fold j,
    a − b). Dietterich's 5×2cv t test (:func:`frameeval.cv5x2_t_test`) uses only one of them in
    its numerator, so its result depends on which fold comes first; Alpaydin (1999) combines
    all ten: f = Σᵢ Σⱼ (pᵢ⁽ʲ⁾)² / (2 Σᵢ sᵢ²), with sᵢ² = (pᵢ⁽¹⁾ − p̄ᵢ)² + (pᵢ⁽²⁾ − p̄ᵢ)², is
    approximately F(10, 5) distributed when the learners perform the same.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted),
        one row per learner × repeat × fold (× ``by`` group); rows of other learners are
        ignored.
    metric
        Column with the metric values.
    a, b
        The two learners (values of ``learner``); differences are a − b.
    learner, repeat, fold
        Columns naming the learner, the repeat (5 values in the published design) and the
        fold within it (exactly 2 per repeat).
    by
        Key column(s): one test per group.
    higher_is_better
        Direction of ``metric`` for ``better`` (default: from the measure registry by name).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_repeats, mean, statistic, df1, df2, p_value,
    critical_value, alpha, reject, better``, sorted by keys: ``n_repeats`` = r (Int64);
    ``mean`` — the mean of the 2r differences (for ``better``); ``statistic`` = f; ``df1`` =
    2r, ``df2`` = r (10 and 5 for 5×2cv); ``p_value`` = P(F > f); ``critical_value`` =
    F_{1−α}(df1, df2) (4.7351 for α = 0.05); ``reject`` = f > critical_value; ``better`` —
    the learner with the better mean difference when rejected, null otherwise.

    Notes
    -----
    Under H₀ each pᵢ⁽ʲ⁾/σ is approximately N(0, 1), so Σ (pᵢ⁽ʲ⁾)²/σ² ~ χ²(2r) and
    Σ sᵢ²/σ² ~ χ²(r); assuming them independent, their ratio (each over its df) is F(2r, r).
    r repeats other than 5 follow the same derivation (r ≥ 1). The statistic is +inf when every
    repeat's two differences are equal but not all zero, and null when all are zero
    (``p_value``, ``reject``, ``better`` null too).

    References
    ----------
    Alpaydin (1999), "Combined 5 × 2 cv F test for comparing supervised classification learning
    algorithms", Neural Computation 11(8). Dietterich (1998), Neural Computation 10(7). Zhou
    Zhihua, *Machine Learning*, §2.4.2.

    See Also
    --------
    frameeval.cv5x2_t_test, corrected_resampled_t_test

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> rows = [("A", i, j, 0.80 + 0.01 * i + 0.005 * j) for i in range(5) for j in (1, 2)]
    >>> rows += [("B", i, j, 0.78 + 0.012 * i - 0.004 * j) for i in range(5) for j in (1, 2)]
    >>> df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    >>> out = fe.cv5x2_f_test(df, "accuracy", a="A", b="B")
    >>> out.select("n_repeats", "df1", "df2", "better").row(0)
    (5, 10, 5, 'A')
    >>> round(out["critical_value"][0], 4)
    4.7351
    """
    learner, repeat, fold = resolve_roles(data, "cv5x2_f_test", [by, metric], learner=learner, repeat=repeat, fold=fold)
    func = "cv5x2_f_test"
    alpha = _check_level(alpha, func, "alpha")
    check_parameter(
        repeat != fold, func, f"repeat= and fold= must be different columns, got {repeat!r}."
    )
    hib = _resolve_direction(func, metric, higher_is_better)
    piv, eager, keys, schema = _paired_metric(
        data, func, metric, a, b, learner, [repeat, fold], by, _CV5X2_F_OUT
    )
    d = pl.col("__fe_a") - pl.col("__fe_b")
    per_repeat = piv.group_by([*keys, repeat]).agg(
        pl.len().cast(pl.Int64).alias("__fe_folds"),
        (d**2).sum().alias("__fe_sq"),
        # s² = (p1 − p̄)² + (p2 − p̄)² = (p1 − p2)² / 2 for two folds
        ((d.max() - d.min()) ** 2 / 2.0).alias("__fe_s2"),
        d.sum().alias("__fe_sum"),
    )
    per_repeat = _enforce(
        per_repeat,
        _guard(
            pl.col("__fe_folds") != 2,
            "InsufficientDataError",
            f"{func}(): every {repeat!r} must have exactly 2 {fold!r} values with both learners, "
            "got {} for {}{}.",
            pl.col("__fe_folds"),
            pl.concat_str([pl.lit(f"{repeat}="), _text(repeat)]),
            _group_text(keys),
        ),
    )
    out = _agg(
        per_repeat,
        keys,
        [
            pl.len().cast(pl.Int64).alias("n_repeats"),
            (pl.col("__fe_sum").sum() / (2.0 * pl.len())).alias("mean"),
            pl.col("__fe_sq").sum().alias("__fe_num"),
            (2.0 * pl.col("__fe_s2").sum()).alias("__fe_den"),
        ],
    )
    out = out.with_columns(
        _learner_literal(a, schema, learner).alias("a"),
        _learner_literal(b, schema, learner).alias("b"),
        _ratio(pl.col("__fe_num"), pl.col("__fe_den")).alias("statistic"),
        (2 * pl.col("n_repeats")).alias("df1"),
        pl.col("n_repeats").alias("df2"),
        pl.lit(alpha).alias("alpha"),
    )
    out = _scipy(out, _f_test, ["statistic", "df1", "df2", "alpha"], ["p_value", "critical_value"])
    out = out.with_columns(
        (pl.col("statistic") > pl.col("critical_value")).alias("reject")
    ).with_columns(_better(hib))
    return finish(_sorted(out.select(*keys, *_CV5X2_F_OUT), keys), eager)
