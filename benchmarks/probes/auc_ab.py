"""A/B in one process: eager ``fe.roc_auc`` with its per-group sums read once through one
struct (session 13) and with the plan both faces took before (unshared), against the bare rank
sum.

Backs ``docs/performance.md``, "Session 13", "AUC eagerly (point 3): one struct of its
aggregates" (the table of ``fe.roc_auc`` ÷ the bare rank sum at 1,000 and 10 groups). The
"unshared" case plans the same builder while
:func:`frameeval.metrics.builders.scalar_rows` is patched to answer ``False``; the "shared"
case plans it as it is. 1M rows of :func:`benchmarks.data.result_frame`; prints each case's
best time (ms) of ``rounds`` interleaved rounds (default 11; the page's figures used 9) and its
ratio to ``bare rank sum``.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.auc_ab 9
    CPU=1 POLARS_MAX_THREADS=1 GROUPS=10 python -m benchmarks.probes.auc_ab 9

Environment: ``GROUPS`` (default 1,000), ``ROWS`` (default 1,000,000), ``CPU=1`` for CPU time
(see :mod:`benchmarks.probes`). One checkout: the A/B is the patch, not ``PYTHONPATH``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

import frameeval as fe
from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, env_int, run
from frameeval.metrics import builders


def cases() -> dict[str, Callable[[], Any]]:
    """``bare rank sum``, ``fe.roc_auc`` unshared (main) and shared (branch)."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    after, before = fe.roc_auc("y_true", "score"), fe.roc_auc("y_true", "score")
    keep = builders.scalar_rows

    def unshared() -> pl.DataFrame:
        builders.scalar_rows = lambda *a: False
        try:
            return df.group_by(KEYS).agg(before)
        finally:
            builders.scalar_rows = keep

    return {
        "bare rank sum": lambda: df.group_by(KEYS).agg(pl.col("score").rank().sum()),
        "fe.roc_auc unshared (main)": unshared,
        "fe.roc_auc shared (branch)": lambda: df.group_by(KEYS).agg(after),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
