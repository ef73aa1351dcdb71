"""Run the benchmark suite and print, per task, frameeval next to what users would use instead.

Usage: ``python -m benchmarks [--scale small|medium|large] [--only NAME ...]``

Every comparison runs in the same process on the same data, so ratios are meaningful on any
machine; absolute times are for the machine in docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import platform
import time
from collections.abc import Callable
from typing import Any

import polars as pl

SCALES = {"small": (1_000_000, 1_000), "medium": (10_000_000, 1_000), "large": (50_000_000, 1_000)}
KEYS = ["dataset", "model", "fold"]


def timed(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def report(task: str, rows: dict[str, float]) -> None:
    base = rows["frameeval"]
    print(f"\n## {task}")
    for name, seconds in rows.items():
        ratio = seconds / base
        print(f"  {name:<34} {seconds:9.3f} s   {ratio:8.2f}x frameeval")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", choices=list(SCALES), default="small")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--sklearn-groups", type=int, default=None,
                        help="time the scikit-learn loop on this many groups and extrapolate")
    args = parser.parse_args(argv)
    n_rows, n_groups = SCALES[args.scale]
    print(f"# frameeval benchmarks — scale {args.scale}: {n_rows:,} rows, {n_groups:,} groups")
    print(f"# {platform.platform()}, python {platform.python_version()}, polars {pl.__version__}, "
          f"threads {pl.thread_pool_size()}")

    from benchmarks import tasks

    for name, task in tasks.TASKS.items():
        if args.only and name not in args.only:
            continue
        task(n_rows, n_groups, report, timed, args.sklearn_groups)
    return 0
