"""The one scipy step of the comparison tests (the decision lives in :mod:`frameeval.compare.results`).

The scipy step
--------------
Every test aggregates its statistic with Polars into a small frame (one row per group, or per
group × learner pair) and then applies scipy's distributions to whole columns of it in **one**
vectorised call, through ``map_batches`` on a struct of the needed columns. The call sits inside
the lazy plan: a LazyFrame input gives a LazyFrame output and scipy runs when the user collects
it, on the small statistics frame only; nothing is collected behind the user's back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from frameeval.compare.results import decide  # noqa: F401 - the p-value rule, kept importable


def scipy_step(
    frame: pl.LazyFrame,
    compute: Callable[..., Mapping[str, np.ndarray]],
    inputs: Sequence[str],
    outputs: Sequence[str],
) -> pl.LazyFrame:
    """Add Float64 ``outputs`` computed by ``compute(*arrays)`` (one float ndarray per input, in
    order) in one vectorised call.

    Nulls arrive as NaN; NaN results leave as null. The call runs inside the plan (when the
    frame is collected) on the whole statistics column at once.
    """
    names = list(outputs)

    def run(series: pl.Series, **_: Any) -> pl.Series:  # polars passes return_dtype=
        arrays = [series.struct.field(name).cast(pl.Float64).to_numpy() for name in inputs]
        with np.errstate(all="ignore"):
            result = compute(*arrays)
        columns = {n: np.asarray(result[n], dtype=np.float64).reshape(-1) for n in names}
        out = pl.DataFrame(columns, schema={n: pl.Float64 for n in names})
        return out.with_columns(pl.all().fill_nan(None)).to_struct("__scipy")

    dtype = pl.Struct({n: pl.Float64 for n in names})
    step = pl.struct(list(inputs)).map_batches(run, return_dtype=dtype).alias("__scipy")
    return frame.with_columns(step).unnest("__scipy")


def f_values(
    statistic: np.ndarray, df1: np.ndarray, df2: np.ndarray, alpha: np.ndarray
) -> dict[str, np.ndarray]:
    """``p_value`` and ``critical_value`` of an F(df1, df2) statistic at level ``alpha``."""
    from scipy import stats

    return {
        "p_value": stats.f.sf(statistic, df1, df2),
        "critical_value": stats.f.isf(alpha, df1, df2),
    }


def per_unique(fn: Callable[..., np.ndarray], *arrays: np.ndarray) -> np.ndarray:
    """``fn`` evaluated once per distinct combination of the (finite) argument rows."""
    if arrays[0].size == 0:
        return np.empty(0)
    stacked = np.column_stack([np.asarray(x, dtype=float) for x in arrays])
    out = np.full(stacked.shape[0], np.nan)
    ok = np.isfinite(stacked).all(axis=1)
    if not ok.any():
        return out
    unique, inverse = np.unique(stacked[ok], axis=0, return_inverse=True)
    values = np.asarray(fn(*unique.T), dtype=float)
    out[ok] = values[inverse.reshape(-1)]
    return out


def mean_std(value: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Sample mean and standard deviation (ddof = 1) of a group, exact for a constant sample
    (mean = the value, std = 0: floating-point noise must not turn 0/0 into a huge statistic)."""
    constant = value.min() == value.max()
    mean = pl.when(constant).then(value.min()).otherwise(value.mean())
    std = pl.when(constant).then(pl.lit(0.0)).otherwise(value.std(ddof=1))
    return mean, std


def better_expr(
    a_better: pl.Expr, b_better: pl.Expr, a_col: str = "a", b_col: str = "b"
) -> pl.Expr:
    """The better learner of a rejected comparison, null otherwise."""
    return (
        pl.when(pl.col("reject") & a_better)
        .then(pl.col(a_col))
        .when(pl.col("reject") & b_better)
        .then(pl.col(b_col))
        .alias("better")
    )


def better_by(a_better: pl.Expr) -> pl.Expr:
    """The better learner of a rejected comparison: a where ``a_better``, b otherwise; null
    when not rejected."""
    return (
        pl.when(pl.col("reject"))
        .then(pl.when(a_better).then(pl.col("a")).otherwise(pl.col("b")))
        .alias("better")
    )


def mean_better(hib: bool) -> pl.Expr:
    """The better learner of a rejected comparison by the sign of the ``mean`` difference a − b
    (``hib``: higher is better), null otherwise."""
    sign = pl.col("mean") if hib else -pl.col("mean")
    return better_expr(sign > 0, sign < 0)


def literal(value: Any, schema: pl.Schema, learner: str) -> pl.Expr:
    """A learner name as a literal of the (compared) learner dtype."""
    dtype = pl.String if isinstance(schema[learner], pl.Categorical | pl.Enum) else schema[learner]
    return pl.lit(value).cast(dtype)
