"""A/B in one process: the eager four label expressions with the class rule checked by F1 (the
builder that reads both positive counts anyway) and by the first builder planned (main's plan
before session 13), against the eager floor of five sums.

Backs ``docs/performance.md``, "Session 13", "Eager labels (issue 31 point 1)", the
"Measured" table ("rule at the first builder planned" against "rule at F1"). The "before"
builders are built while :func:`frameeval.metrics.builders.reads_both_counts` is patched to
answer ``False`` (no builder prefers the rule, so the first one planned checks it), the
"after" builders with it as it is; both are timed in the same process on 1M rows × 1,000
groups, best of ``rounds`` interleaved rounds (default 11), each printed with its ratio to
``eager floor``.

Run from the repository root::

    CPU=1 POLARS_MAX_THREADS=1 python -m benchmarks.probes.label_rule_ab

Environment: ``ROWS`` (default 1,000,000), ``GROUPS`` (default 1,000), ``CPU=1`` for CPU
time (see :mod:`benchmarks.probes`). One checkout: the A/B is the patch, not ``PYTHONPATH``
(the page's separate-process comparison of two checkouts is
:mod:`benchmarks.probes.label_faces`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, env_int, label_floor, label_four, run
from frameeval.metrics import builders


def cases() -> dict[str, Callable[[], Any]]:
    """``eager floor``, the four with the rule at the first builder, the four with it at F1."""
    df = result_frame(env_int("ROWS", 1_000_000), env_int("GROUPS", 1000))
    floor = label_floor()
    after = label_four()
    keep = builders.reads_both_counts
    builders.reads_both_counts = lambda *a: False
    try:
        before = label_four()
    finally:
        builders.reads_both_counts = keep
    return {
        "eager floor": lambda: df.group_by(KEYS).agg(floor),
        "eager four, rule at the first builder (main)": lambda: df.group_by(KEYS).agg(before),
        "eager four, rule at f1 (branch)": lambda: df.group_by(KEYS).agg(after),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Time the cases interleaved; ``argv``: the number of rounds (default 11)."""
    return run(cases(), argv)


if __name__ == "__main__":
    raise SystemExit(main())
