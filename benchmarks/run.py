"""Run the benchmark suite and print, per task, frameeval next to what users would use instead.

Usage: ``python -m benchmarks [--scale small|medium|large] [--only NAME ...]``

Every comparison runs in the same process on the same data, so ratios are meaningful on any
machine; absolute times are for the machine in docs/performance.md. Each row shows, ratio first,
the time relative to frameeval's, the best wall time of a few runs, and the peak memory the run
added on top of what the process already held (Linux: the resident-set high-water mark, reset
before the run through ``/proc/self/clear_refs``, minus the resident set at its start; it sees
Polars' and NumPy's native allocations, which ``tracemalloc`` does not).
"""

from __future__ import annotations

import argparse
import gc
import platform
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

SCALES = {"small": (1_000_000, 1_000), "medium": (10_000_000, 1_000), "large": (50_000_000, 1_000)}
KEYS = ["dataset", "model", "fold"]
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


class Measure(NamedTuple):
    """One measured row: best wall time (s) and peak extra memory (bytes; None where unknown)."""

    seconds: float
    peak_bytes: int | None = None
    note: str = ""


def _status_kib(field: str) -> int | None:
    try:
        match = re.search(rf"^{field}:\s+(\d+) kB", _STATUS.read_text(), re.M)
    except OSError:
        return None
    return int(match.group(1)) if match else None


def peak_memory(fn: Callable[[], Any]) -> int | None:
    """Bytes the resident set rose above its level at the start while ``fn`` ran (Linux)."""
    gc.collect()
    try:
        _CLEAR_REFS.write_text("5")  # resets VmHWM to the current resident set
    except OSError:
        return None
    before = _status_kib("VmRSS")
    fn()
    after = _status_kib("VmHWM")
    if before is None or after is None:
        return None
    return max(after - before, 0) * 1024


def timed(fn: Callable[[], Any], repeat: int = 3) -> Measure:
    """Best wall time of ``repeat`` runs, and the peak extra memory of one more run."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return Measure(best, peak_memory(fn))


def _mib(peak: int | None) -> str:
    return "       n/a" if peak is None else f"{peak / 2**20:7.0f} MiB"


def report(task: str, rows: dict[str, Measure | float]) -> None:
    """Print one task: per row the ratio to frameeval's time (first), the time and the memory."""
    measures = {k: v if isinstance(v, Measure) else Measure(v) for k, v in rows.items()}
    base = measures["frameeval"].seconds
    print(f"\n## {task}")
    print(f"  {'× frameeval':>11}  {'time':>9}  {'peak mem':>11}  what")
    for name, m in measures.items():
        note = f"  ({m.note})" if m.note else ""
        print(f"  {m.seconds / base:10.2f}x  {m.seconds:7.3f} s  {_mib(m.peak_bytes)}  {name}{note}")


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

    unknown = set(args.only or []) - set(tasks.TASKS)
    if unknown:
        parser.error(f"unknown task(s) {sorted(unknown)}; tasks: {sorted(tasks.TASKS)}")
    for name, task in tasks.TASKS.items():
        if args.only and name not in args.only:
            continue
        task(n_rows, n_groups, report, timed, args.sklearn_groups)
    return 0
