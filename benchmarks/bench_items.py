"""Benchmark: ``fe.items.compare`` on a study of many models × benchmarks × items.

Usage: ``python -m benchmarks.bench_items [--models 20] [--benchmarks 10] [--items 10000]
[--repeat 1]``

The goal of issue 34: every pair of 20 models on 10 benchmarks of 10,000 items (2M rows, 1,900
paired comparisons with McNemar's exact test and Holm's correction) in ≤ 5 s and ≤ 2 GiB. The
table is built outside the timer (0/1 scores; string benchmark and model names); the time is
the best of ``--repeat`` eager calls, from the rows to the collected result. The peak memory is
the maximum resident set size of a child process that builds the table and runs one call (so
it includes the table itself). A NumPy baseline (the models' 0/1 matrix per benchmark, its Gram
matrix for every pair's both-correct count, then McNemar's p-values by scipy) is timed beside
it, the matrix built outside its timer.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe


def study(models: int, benchmarks: int, items: int) -> pl.DataFrame:
    """``benchmark, model, item, correct``: model m answers item i correctly with probability
    depending on the item's difficulty and the model's skill (correlated across models)."""
    rng = np.random.default_rng(0)
    difficulty = rng.random((benchmarks, 1, items))
    skill = np.linspace(0.3, 0.7, models).reshape(1, models, 1)
    correct = rng.random((benchmarks, models, items)) < np.clip(skill + difficulty - 0.5, 0, 1)
    b, m, i = np.meshgrid(np.arange(benchmarks), np.arange(models), np.arange(items), indexing="ij")
    return pl.DataFrame(
        {
            "benchmark": b.ravel(),
            "model": m.ravel(),
            "item": i.ravel().astype(np.int64),
            "correct": correct.ravel().astype(np.int8),
        }
    ).with_columns(pl.format("bench-{}", "benchmark"), pl.format("model-{}", "model"))


def _best(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):  # loop-ok: repeated timing
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def numpy_baseline(matrices: list[np.ndarray]) -> list[np.ndarray]:
    """Per benchmark: both-correct counts of every pair (the Gram matrix), the discordant
    counts and McNemar's exact p-values (a loop over benchmarks: the baseline as users write it)."""
    from scipy import stats

    out = []
    for x in matrices:  # loop-ok: this *is* the baseline
        gram = x.T @ x
        totals = np.diag(gram)
        n10 = totals[:, None] - gram
        n01 = n10.T
        low = np.minimum(n10, n01)
        out.append(np.minimum(1.0, 2.0 * stats.binom.cdf(low, n10 + n01, 0.5)))
    return out


def child(models: int, benchmarks: int, items: int) -> None:
    df = study(models, benchmarks, items)
    fe.items.compare(df, "correct", by="benchmark")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(peak)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--benchmarks", type=int, default=10)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = (args.models, args.benchmarks, args.items)
    if args.child:
        child(*sizes)
        return 0
    df = study(*sizes)
    print(
        f"# fe.items.compare: {args.models} models x {args.benchmarks} benchmarks x "
        f"{args.items:,} items = {df.height:,} rows"
    )
    print(
        f"python {platform.python_version()}, polars {pl.__version__}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    result = fe.items.compare(df, "correct", by="benchmark")
    seconds = _best(lambda: fe.items.compare(df, "correct", by="benchmark"), args.repeat)
    matrices = [
        part.sort("model", "item")["correct"]
        .to_numpy()
        .reshape(args.models, args.items)
        .T.astype(np.int64)
        for part in df.partition_by("benchmark", maintain_order=True)
    ]
    baseline = _best(lambda: numpy_baseline(matrices), args.repeat)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_items",
            "--child",
            "--models",
            str(args.models),
            "--benchmarks",
            str(args.benchmarks),
            "--items",
            str(args.items),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    peak_mib = int(done.stdout.strip().splitlines()[-1]) / 1024
    print(
        f"| frameeval `fe.items.compare` | {seconds:.2f} s | peak RSS {peak_mib:,.0f} MiB "
        f"(child: table + call) | {result.height:,} pairs |"
    )
    print(f"| NumPy Gram matrix + scipy McNemar (matrix prebuilt) | {baseline:.2f} s | — | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
