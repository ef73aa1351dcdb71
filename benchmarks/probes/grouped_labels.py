"""The four grouped label expressions against their floor of five sums, eagerly and lazily,
with the single builders and single aggregates beside them.

Backs ``docs/performance.md``, "Session 11: one check per rule in an eager query" (the tables
"After the session-11 merges" and "After the session-12 merges", row "precision, recall, f1,
accuracy ÷ the five label sums": ``four`` ÷ ``floor`` eagerly, ``four lazy`` ÷ ``floor lazy``).
1M rows × 1,000 groups of :func:`benchmarks.data.result_frame`; prints each case's best time
(ms) of ``rounds`` interleaved rounds (default 11; the page's figures used 7) and its ratio to
``len``. The regression row of the same tables is :mod:`benchmarks.probes.grouped_regression`.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.grouped_labels 7

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`). It measures the ``frameeval`` on ``PYTHONPATH``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

import frameeval as fe
from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, env_int, grouped, label_floor, label_four, run


def cases() -> dict[str, Callable[[], Any]]:
    """Eager ``group_by(keys).agg`` of each form; ``four lazy`` and ``floor lazy``."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    T, P = pl.col("y_true"), pl.col("y_pred")
    y, p = T == 1, P == 1
    floor, four = label_floor(), label_four()
    c = {
        "len": [pl.len()],
        "floor": floor,
        "four": four,
        "precision": [fe.precision("y_true", "y_pred")],
        "accuracy": [fe.accuracy("y_true", "y_pred")],
        "T.sum": [T.sum()],
        "T.max": [T.max()],
        "T.bitwise_or": [T.bitwise_or()],
        "(T-1).sum": [(T - 1).sum()],
        "y.sum": [y.sum()],
        "(y&p).sum": [(y & p).sum()],
        "T.null_count": [T.null_count()],
    }
    out: dict[str, Callable[[], Any]] = {k: grouped(df, e, numbered=True) for k, e in c.items()}
    out["four lazy"] = lambda: df.lazy().group_by(KEYS).agg(four).collect()
    out["floor lazy"] = lambda: df.lazy().group_by(KEYS).agg(floor).collect()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
