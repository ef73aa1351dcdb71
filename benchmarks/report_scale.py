"""The main job at scale (issue 15): ``frameeval report`` on a 20M-row partitioned Parquet study.

    python -m benchmarks.report_scale [--instances 10000] [--decimals 3] [--keep]
    python -m benchmarks.report_scale --task regression   # issue 24: a regression study

Writes (once, seeded) the study of :mod:`benchmarks.study` — 10 data sets × 20 learners × 10
folds × ``--instances`` instances per fold, one Parquet file per data set — to
``benchmarks/data/study-<rows>/`` (gitignored), then runs the command as a user would, in a
child process: ``python -m frameeval report '<dir>/*.parquet' -o <tmp>/report.html -q``, and
prints its wall time, its peak resident set (the child's ``ru_maxrss``: the same number as
``/usr/bin/time -v``'s "Maximum resident set size") and the page size. The budget (issue 15):
≤ 60 s, ≤ 2 GiB, page ≤ 5 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=10_000)
    parser.add_argument("--decimals", type=int, default=3, help="-1: continuous scores")
    parser.add_argument("--keep", action="store_true", help="keep the generated study")
    parser.add_argument(
        "--task", choices=["classification", "regression"], default="classification"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT.parent))
    from benchmarks.study import generate, generate_regression

    rows = 10 * 20 * 10 * args.instances
    start = time.perf_counter()
    if args.task == "regression":
        directory = ROOT / "data" / f"study-{rows}-regression"
        generate_regression(directory, instances=args.instances)
    else:
        directory = ROOT / "data" / f"study-{rows}-{args.decimals}"
        generate(
            directory,
            instances=args.instances,
            decimals=None if args.decimals < 0 else args.decimals,
        )
    size = sum(p.stat().st_size for p in directory.glob("*.parquet"))
    print(
        f"study: {rows:,} rows in 10 Parquet files ({size / 2**20:.0f} MiB), generated or "
        f"found in {time.perf_counter() - start:.1f} s; {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory(prefix="frameeval-report-") as tmp:
        out = Path(tmp) / "report.html"
        command = [
            sys.executable,
            "-m",
            "frameeval",
            "report",
            str(directory / "*.parquet"),
            "-o",
            str(out),
            "-q",
        ]
        start = time.perf_counter()
        subprocess.run(
            command, check=True, cwd=ROOT.parent, env=os.environ | {"PYTHONPATH": str(ROOT.parent)}
        )
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # Linux: KiB
        page = out.stat().st_size
    print(f"{'wall s':>8} {'peak RSS GiB':>13} {'page MiB':>9}")
    print(f"{seconds:>8.1f} {peak / 2**30:>13.2f} {page / 2**20:>9.2f}")
    budget = seconds <= 60 and peak <= 2 * 2**30 and page <= 5 * 10**6
    print("within the budget (60 s, 2 GiB, 5 MB)" if budget else "OVER the budget")
    if not args.keep:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
