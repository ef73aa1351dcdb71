"""Memory a grouped label query adds, lazily and eagerly: the floor of five sums, the four
label expressions, ``fe.measures`` of the same four and ``len()`` alone.

Backs ``docs/performance.md``, "Session 13", "Memory (point 5): a fixed per-thread buffer of
the class rule, not a per-row cost" (the table of MiB added by rows × groups and threads, and
the floor with parts of the rule added). Each case's peak memory is read with
:func:`benchmarks.timing.peak_memory` (Linux: the resident set's high-water mark above its level
at the start; elsewhere the probe says so and stops) ``reps`` times after one
warm-up run, and its minimum and median printed in MiB.

Run from the repository root, with jemalloc (Polars' allocator) returning freed pages at once::

    _RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0 \\
        python -m benchmarks.probes.label_memory ROWS GROUPS [reps] [name=expression ...]

e.g. ``... label_memory 1000000 1000 5``; the page's rows varied ``ROWS`` / ``GROUPS``,
``POLARS_MAX_THREADS=1`` and ``POLARS_IDEAL_MORSEL_SIZE=25000``. ``reps`` defaults to 5. Each
further argument ``name=expression`` adds a case: ``expression`` is Python evaluated with
``pl``, ``fe``, ``df``, ``KEYS``, ``floor`` (the five sums) and ``four`` (the four label
expressions) in scope and must give a function of no arguments, e.g.
``'rule=lambda: df.lazy().group_by(KEYS).agg(floor + [((pl.col("y_true") - 1) |
(pl.col("y_pred") - 1)).bitwise_or()]).collect()'``.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

import frameeval as fe
from benchmarks.data import result_frame
from benchmarks.probes._common import KEYS, label_floor, label_four
from benchmarks.timing import peak_memory

NAMES = ["precision", "recall", "f1", "accuracy"]


def cases(rows: int, groups: int, extra: Sequence[str] = ()) -> dict[str, Callable[[], Any]]:
    """The six standard cases on ``rows`` × ``groups``, and one per ``name=expression``."""
    df = result_frame(rows, groups)
    floor, four = label_floor(), label_four()
    out: dict[str, Callable[[], Any]] = {
        "floor lazy": lambda: df.lazy().group_by(KEYS).agg(floor).collect(),
        "four lazy": lambda: df.lazy().group_by(KEYS).agg(four).collect(),
        "measures lazy": lambda: fe.measures(
            df.lazy(), truth="y_true", pred="y_pred", by=KEYS, measures=NAMES
        ).collect(),
        "len lazy": lambda: df.lazy().group_by(KEYS).agg(pl.len()).collect(),
        "floor eager": lambda: df.group_by(KEYS).agg(floor),
        "four eager": lambda: df.group_by(KEYS).agg(four),
    }
    scope = {"pl": pl, "fe": fe, "df": df, "KEYS": KEYS, "floor": floor, "four": four}
    for arg in extra:
        name, source = arg.split("=", 1)
        out[name] = eval(source, scope)  # a case given on the command line (see above)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``ROWS GROUPS [reps] [name=expression ...]``: print min and median MiB per case."""
    args = sys.argv[1:] if argv is None else list(argv)
    rows, groups = int(args[0]), int(args[1])
    reps = int(args[2]) if len(args) > 2 else 5
    fns = cases(rows, groups, args[3:])
    for fn in fns.values():
        fn()
    res: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            peak = peak_memory(fn)
            if peak is None:
                print("peak memory is not readable here (Linux /proc only)")
                return 1
            res[k].append(peak / 2**20)
    for k, v in res.items():
        print(
            f"{rows:>9} {groups:>6} {k:16s} min {min(v):6.1f}  "
            f"median {statistics.median(v):6.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
