"""Four grouped regression expressions (RMSE, MAE, R², MAPE) against their floor of nine sums,
eagerly and lazily, with each builder alone and single aggregates (finiteness forms) beside
them.

Backs ``docs/performance.md``, "Session 11: one check per rule in an eager query" (the tables
"After the session-11 merges" and "After the session-12 merges", row "rmse, mae, r2, mape ÷
their nine sums": ``four`` ÷ ``floor`` eagerly, ``four lazy`` ÷ ``floor lazy``). 1M rows ×
1,000 groups of :func:`benchmarks.data.regression_frame`; prints each case's best time (ms) of
``rounds`` interleaved rounds (default 11; the page's figures used 7) and its ratio to ``len``.
The label row of the same tables is :mod:`benchmarks.probes.grouped_labels`.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.grouped_regression 7

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`). It measures the ``frameeval`` on ``PYTHONPATH``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

import frameeval as fe
from benchmarks.data import regression_frame
from benchmarks.probes._common import KEYS, env_int, grouped, run
from benchmarks.tasks import regression_sums

NAMES = ["rmse", "mae", "r2", "mape"]


def cases() -> dict[str, Callable[[], Any]]:
    """Eager ``group_by(keys).agg`` of each form; ``four lazy`` and ``floor lazy``."""
    df = regression_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    y, f = pl.col("y_true"), pl.col("y_pred")
    e = f - y
    plain, extremes = regression_sums()
    sums = [*plain, *extremes]
    four = [getattr(fe, n)("y_true", "y_pred") for n in NAMES]
    c = {
        "len": [pl.len()],
        "floor": sums,
        "four": four,
        **{n: [getattr(fe, n)("y_true", "y_pred")] for n in NAMES},
        "ee.sum": [(e * e).sum()],
        "y.sum": [y.sum()],
        "notfinite.sum": [(~y.is_finite()).fill_null(False).sum()],
        "notfinite.sum nofill": [(~y.is_finite()).sum()],
        "(y*0).sum": [(y * 0).sum()],
        "(y*0+f*0).sum": [(y * 0 + f * 0).sum()],
        "isfinite.all": [y.is_finite().all()],
        "is_nan.any": [y.is_nan().any()],
        "y.null_count": [y.null_count()],
    }
    out: dict[str, Callable[[], Any]] = {k: grouped(df, e, numbered=True) for k, e in c.items()}
    out["four lazy"] = lambda: df.lazy().group_by(KEYS).agg(four).collect()
    out["floor lazy"] = lambda: df.lazy().group_by(KEYS).agg(sums).collect()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
