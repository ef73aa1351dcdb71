"""Four grouped frameeval expressions against a bare ``group_by`` of the sums they need,
eagerly and lazily: labels (accuracy, precision, recall, F1) and regression (RMSE, MAE, R²,
MAPE), and ``fe.measures`` of the four regression measures.

Backs ``docs/performance.md``, "Session 12: one regression measure on 5M rows": the sentence
on the grouped faces ("four regression expressions ÷ their sums, eager 1.35–1.70 …, lazy
1.59–1.75 …, three runs each of ``python -m benchmarks.probes.grouped_ratios 7``"). 1M rows ×
1,000 ``dataset × model × fold`` groups (:mod:`benchmarks.data`); prints each case's best time
(ms) of ``rounds`` interleaved rounds (default 9), then the six ratios
``frameeval ÷ floor``.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.grouped_ratios 7

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`).

Before/after (A/B of two checkouts): ``PYTHONPATH`` decides which ``frameeval`` is measured;
the page's "main" and branch figures are runs of this probe with ``PYTHONPATH`` set to each
checkout in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import frameeval as fe
from benchmarks.data import regression_frame, result_frame
from benchmarks.probes._common import (
    KEYS,
    env_int,
    faces,
    interleaved,
    label_floor,
    label_four,
    rounds_arg,
)
from benchmarks.tasks import regression_sums

RATIOS = [
    ("label four eager", "label floor eager"),
    ("label four lazy", "label floor lazy"),
    ("reg four eager", "reg floor eager"),
    ("reg four lazy", "reg floor lazy"),
    ("reg measures lazy", "reg floor lazy"),
    ("reg measures eager", "reg floor eager"),
]


def cases() -> dict[str, Callable[[], Any]]:
    """The label and regression floors and the frameeval expressions, eager and lazy."""
    rows, groups = env_int("ROWS", 1_000_000), env_int("GROUPS", 1000)
    df = result_frame(rows, groups)
    rf = regression_frame(rows, groups)
    plain, extremes = regression_sums()
    names = ["rmse", "mae", "r2", "mape"]
    rfour = [getattr(fe, n)("y_true", "y_pred") for n in names]
    return {
        **faces(df, label_floor(), label_four(), "label "),
        **faces(rf, plain + extremes, rfour, "reg "),
        "reg measures lazy": lambda: fe.measures(
            rf.lazy(), truth="y_true", pred="y_pred", by=KEYS, measures=names
        ).collect(),
        "reg measures eager": lambda: fe.measures(
            rf, truth="y_true", pred="y_pred", by=KEYS, measures=names
        ),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases, print each, then the ratios of the frameeval cases to their floors."""
    best = interleaved(cases(), rounds_arg(argv, 9))
    for k, v in best.items():
        print(f"{v * 1e3:8.1f} ms  {k}")
    for a, f in RATIOS:
        print(f"{a} / {f} = {best[a] / best[f]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
