"""Run the benchmark suite and print, per task, frameeval next to what users would use instead.

Usage: ``python -m benchmarks [--scale small|medium|large] [--only NAME ...]``

Every comparison runs in the same process on the same data, so ratios are meaningful on any
machine; absolute times are for the machine in docs/performance.md. Each row shows, ratio first,
the time relative to frameeval's, the best wall time of a few runs, and the peak memory the run
added on top of what the process already held.

Peak memory is measured in a separate pass, first, in one child process for all the chosen
tasks (``--memory-pass``) in which Polars' allocator (jemalloc) returns freed memory at once
(``_RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0``) and the C heap is trimmed before each
row (glibc ``malloc_trim``): only then does the resident set follow what is live, instead of
keeping what earlier runs freed. There each row runs once, on Linux, between a reset of the
resident-set high-water mark (``/proc/self/clear_refs``) and a read of ``VmHWM`` — which sees
Polars' and NumPy's native allocations, unlike ``tracemalloc``. That allocator setting slows
Polars down (up to 2×), so the times come from the timing pass, with the default allocator.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from benchmarks.timing import Measure, peak_memory, report, timed

SCALES = {
    "tiny": (20_000, 20),  # for the tests
    "small": (1_000_000, 1_000),
    "medium": (10_000_000, 1_000),
    "large": (50_000_000, 1_000),
}
#: default ``--sklearn-groups`` per scale: the per-group scikit-learn loops (seconds per 100
#: groups, and linear in the number of groups) are timed on this many groups and scaled, so that
#: ``--scale small`` runs in under two minutes; ``--sklearn-groups 0`` times them on all groups
SKLEARN_GROUPS = {"small": 25}
#: the scikit-learn loops of the memory pass at ``--scale small`` run on 5 groups: a loop's
#: peak is one group's arrays and the few groups' frame, tiny next to the columnar rows (at
#: 50 groups they cost the memory pass ~20 s of CPU for rows of 0-3 MiB)
MEMORY_SKLEARN_GROUPS = {"small": 5}
#: how many runs ``timed`` makes per scale: (repeat, budget, cap) — see :func:`timed`; at
#: ``--scale small`` a row stops repeating once its runs add up to 1 s (3 s above) and fast
#: rows are topped up to 0.15 s (0.5 s above), so that the whole suite runs in under two
#: minutes on the 2-core machine
TIMING = {"small": (3, 0.15, 1.0)}
DEFAULT_TIMING = (3, 0.5, 3.0)
#: tasks without a memory pass: import_time measures none (times of fresh interpreters); dask
#: measures its workers' peak in the timing pass itself (their lifetime ``ru_maxrss``), and its
#: single-machine row is the ``streaming`` task's "frameeval" row (the same plans, files, engine)
NO_MEMORY_TASKS = {"import_time", "dask"}
#: ... and per scale: at ``--scale small`` the report's peak memory is left to
#: ``python -m benchmarks.report_scale`` (a fresh process per run, ``ru_maxrss``, at the
#: main job's 20M rows: docs/performance.md); its two builds in the memory pass cost ~20 s
NO_MEMORY_AT = {"small": {"report"}}
KEYS = ["dataset", "model", "fold"]
_RETURN_AT_ONCE = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}


def _memory_pass(
    scale: str, chosen: list[str], sklearn_groups: int | None
) -> dict[str, dict[str, dict[str, int]]]:
    """Run the tasks in one child process with the returning allocator; peak bytes per task and
    row. The child prints one JSON line per task as it finishes it, so a task that crashes the
    child loses only its own rows and those of the tasks after it (one printed line says so)."""
    if not chosen:
        return {}
    command = [sys.executable, "-m", "benchmarks", "--scale", scale, "--memory-pass"]
    groups = MEMORY_SKLEARN_GROUPS.get(scale, sklearn_groups)
    command += ["--sklearn-groups", str(groups or 0)]  # 0: every group
    command += ["--only", *chosen]
    done = subprocess.run(
        command,
        env=os.environ | _RETURN_AT_ONCE,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )
    peaks: dict[str, dict[str, dict[str, int]]] = {}  # task -> table -> row -> bytes
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            peaks |= json.loads(line)
    missing = [task for task in chosen if task not in peaks]
    if done.returncode != 0 or missing:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if "PanicException" in last or "panicked" in last:  # never the raw Rust panic text
            last = "a Rust panic in a third-party extension"
        print(f"# (memory pass of {', '.join(missing) or 'the tasks'} failed: {last[:120]})")
    return peaks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", choices=list(SCALES), default="small")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument(
        "--sklearn-groups",
        type=int,
        default=None,
        help="time the scikit-learn loops on this many groups and extrapolate (default: 25 "
        "at --scale small, else all groups; 0: all groups)",
    )
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory pass")
    parser.add_argument("--memory-pass", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    n_rows, n_groups = SCALES[args.scale]
    if args.sklearn_groups is None:
        args.sklearn_groups = SKLEARN_GROUPS.get(args.scale)
    elif args.sklearn_groups <= 0:
        args.sklearn_groups = None
    if args.sklearn_groups is not None and args.sklearn_groups >= n_groups:
        args.sklearn_groups = None

    from benchmarks import tasks

    unknown = set(args.only or []) - set(tasks.TASKS)
    if unknown:
        parser.error(f"unknown task(s) {sorted(unknown)}; tasks: {sorted(tasks.TASKS)}")
    chosen = [name for name in tasks.TASKS if not args.only or name in args.only]

    if args.memory_pass:  # child: each row once, peak memory only, a JSON line per task
        peaks: dict[str, dict[str, int]] = {}

        def once(fn: Callable[[], Any], repeat: int = 1) -> Measure:
            return Measure(1.0, peak_memory(fn))

        def collect(task: str, rows: dict[str, Measure | float]) -> None:
            peaks[task] = {
                k: v.peak_bytes
                for k, v in rows.items()
                if isinstance(v, Measure) and v.peak_bytes is not None
            }

        for name in chosen:
            peaks.clear()
            tasks.TASKS[name](n_rows, n_groups, collect, once, args.sklearn_groups)
            print(json.dumps({name: peaks}), flush=True)  # a task may print several tables
        return 0

    print(f"# frameeval benchmarks — scale {args.scale}: {n_rows:,} rows, {n_groups:,} groups")
    print(
        f"# {platform.platform()}, python {platform.python_version()}, polars {pl.__version__}, "
        f"threads {pl.thread_pool_size()}"
    )
    if args.sklearn_groups is not None:
        print(
            f"# scikit-learn loops: timed on {args.sklearn_groups} groups and scaled to all "
            "(--sklearn-groups 0 times every group)"
        )
    repeat, budget, cap = TIMING.get(args.scale, DEFAULT_TIMING)
    print(
        f"# time: best of {repeat} runs (up to 15 while they add up to < {budget:g} s, fewer "
        f"once they reach {cap:g} s); peak memory: "
        + ("not measured (--no-memory)" if args.no_memory else "one run per row, measured first")
        + (
            f" (scikit-learn loops on {MEMORY_SKLEARN_GROUPS[args.scale]} groups)"
            if not args.no_memory and args.scale in MEMORY_SKLEARN_GROUPS
            else ""
        )
    )
    skipped = NO_MEMORY_TASKS | NO_MEMORY_AT.get(args.scale, set())
    if not args.no_memory and "report" in chosen and "report" in skipped:
        print("# the report's peak memory: python -m benchmarks.report_scale (not at this scale)")
    measured = [name for name in chosen if name not in skipped]
    memory = {} if args.no_memory else _memory_pass(args.scale, measured, args.sklearn_groups)

    def timing(fn: Callable[[], Any], repeat: int = repeat) -> Measure:
        return timed(fn, repeat, budget, cap)

    for name in chosen:
        found = memory.get(name, {})

        def with_peaks(
            task: str, rows: dict[str, Measure | float], found: dict[str, dict[str, int]] = found
        ) -> None:
            merged: dict[str, Measure | float] = {}
            for row, m in rows.items():
                m = m if isinstance(m, Measure) else Measure(m)
                # the memory pass's peak, else what the timing pass measured itself (dask)
                merged[row] = m._replace(peak_bytes=found.get(task, {}).get(row, m.peak_bytes))
            report(task, merged)

        tasks.TASKS[name](n_rows, n_groups, with_peaks, timing, args.sklearn_groups)
    return 0
