"""The grouped label faces of one checkout in one process: the eager and lazy floors of five
sums, the four label expressions eagerly and lazily, and ``fe.measures`` of the same four
lazily.

Backs ``docs/performance.md``, "Session 13", "Eager labels (issue 31 point 1)": the
separate-process comparison ("main and this branch alternated", where the eager floor alone
moved between 32 and 43 ms from one process to the next) and the lazy faces' ratios (four
expressions ÷ the lazy floor, ``fe.measures``). 1M rows × 1,000 groups; prints each case's
best time (ms) of ``rounds`` interleaved rounds (default 11) and its ratio to ``floor eager``
(the lazy ratios are ``four lazy`` and ``lazy measures`` ÷ ``floor lazy``, read from the times).

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.label_faces

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`).

Before/after (A/B of two checkouts): run it as separate processes with ``PYTHONPATH`` set to
main's checkout and to the branch's in turn (alternated); the page shows why a one-process
A/B (:mod:`benchmarks.probes.label_rule_ab`) ranks a 3 ms change better.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import frameeval as fe
from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, env_int, faces, label_floor, label_four, run

NAMES = ["precision", "recall", "f1", "accuracy"]


def cases() -> dict[str, Callable[[], Any]]:
    """Eager and lazy floor and four, and lazy ``fe.measures``."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    floor, four = label_floor(), label_four()
    return {
        **faces(df, floor, four),
        "lazy measures": lambda: fe.measures(
            df.lazy(), truth="y_true", pred="y_pred", by=KEYS, measures=NAMES
        ).collect(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
