"""What one aggregate over the rows adds to an eager grouped label query: ``len()`` alone, one
and two boolean sums, Σ (y + p) in several integer widths, Σ (y + p) of the raw labels, the
class rule's bitwise OR of ``(y − 1) | (p − 1)``, and TP.

Backs ``docs/performance.md``, "Session 13", "Eager labels (issue 31 point 1)": "the grouping
alone (``len()``) 20–24 ms of CPU; each boolean sum over the rows +2.8–4 ms; the class rule's
bitwise OR … +6.2 ms and Σ (y + p) +4.4 ms", and the forms "tried and not kept" (Σ of
``[y = pos] + [p = pos]`` as Int64 or Int8). 1M rows × 1,000 groups of
:func:`benchmarks.data.result_frame`; prints the frame's schema, then each case's best time
(ms) of ``rounds`` interleaved rounds (default 11) and its ratio to ``len``.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.label_aggregates

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`). Only bare Polars is timed (no frameeval expression).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from benchmarks.data import result_frame
from benchmarks.probes._common import env_int, grouped, run


def cases() -> dict[str, Callable[[], Any]]:
    """One eager ``group_by(keys).agg`` per aggregate form (see the module docstring)."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    print(df.schema)
    T, P = pl.col("y_true"), pl.col("y_pred")
    y, p = T == 1, P == 1
    c = {
        "len": [pl.len()],
        "ky": [y.sum()],
        "ky,kp": [y.sum(), p.sum().alias("b")],
        "K": [(y.cast(pl.Int64) + p.cast(pl.Int64)).sum()],
        "K u32": [(y.cast(pl.UInt32) + p.cast(pl.UInt32)).sum()],
        "K (T==1)+(P==1) i8": [(y.cast(pl.Int8) + p.cast(pl.Int8)).sum()],
        "S": [(T + P).sum()],
        "OR": [((T - 1) | (P - 1)).bitwise_or()],
        "TP": [(y & p).sum()],
    }
    return {k: grouped(df, e) for k, e in c.items()}


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
