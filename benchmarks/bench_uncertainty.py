"""Benchmark: grouped bootstrap confidence intervals vs a per-group scikit-learn bootstrap loop.

Usage: ``python -m benchmarks.bench_uncertainty [--groups 1000] [--rows-per-group 10000]
[--replicates 1000] [--measured-replicates 50] [--sklearn-groups 3]``

Both sides run in the same process on the same frame (``benchmarks.data.result_frame``). The
frameeval side computes ``fe.bootstrap_ci`` (percentile) for AUC and for accuracy over all groups
with ``--measured-replicates`` replicates; the work is linear in the number of replicates (every
replicate draws and aggregates the same number of rows), so the time for ``--replicates`` is
extrapolated linearly. The scikit-learn side is what users write today: for each group, for each
replicate, draw indices with numpy and call ``roc_auc_score`` / ``accuracy_score``; it runs on
``--sklearn-groups`` groups and is extrapolated to all groups and all replicates.
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
import polars as pl

import frameeval as fe
from benchmarks.data import result_frame

KEYS = ["dataset", "model", "fold"]


def rank_auc(truth: str, score: str) -> pl.Expr:
    """AUC by midranks (Mann–Whitney), used when fe.roc_auc is not available."""
    pos = pl.col(truth) == 1
    n1 = pos.sum().cast(pl.Float64)
    n0 = pl.len().cast(pl.Float64) - n1
    u = pl.col(score).rank("average").filter(pos).sum() - n1 * (n1 + 1) / 2
    return pl.when((n1 > 0) & (n0 > 0)).then(u / (n1 * n0)).alias("roc_auc")


def sklearn_loop(df: pl.DataFrame, groups: int, replicates: int, seed: int = 0) -> dict[str, float]:
    """Seconds per (group × replicate) of the per-group scikit-learn bootstrap loop."""
    from sklearn.metrics import accuracy_score, roc_auc_score

    parts = df.partition_by(KEYS)[:groups]  # loop-ok: this *is* the baseline
    arrays = [
        (p["y_true"].to_numpy(), p["y_pred"].to_numpy(), p["score"].to_numpy()) for p in parts
    ]
    rng = np.random.default_rng(seed)
    out = {}
    for name in ("roc_auc", "accuracy"):
        start, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for y, p, s in arrays:  # loop-ok: baseline
                values = []
                for _ in range(replicates):  # loop-ok: baseline
                    idx = rng.integers(0, len(y), len(y))
                    if name == "roc_auc":
                        yy = y[idx]
                        values.append(roc_auc_score(yy, s[idx]) if yy.min() < yy.max() else np.nan)
                    else:
                        values.append(accuracy_score(y[idx], p[idx]))
                np.nanpercentile(values, [2.5, 97.5])
        out[name] = (time.perf_counter() - start) / (len(arrays) * replicates)
        print(
            f"scikit-learn {name:<9} {len(arrays)} groups x {replicates} replicates: "
            f"{time.perf_counter() - start:8.2f} s wall, {time.process_time() - cpu:8.2f} s CPU"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--rows-per-group", type=int, default=10_000)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--measured-replicates", type=int, default=50)
    parser.add_argument("--sklearn-groups", type=int, default=3)
    parser.add_argument("--sklearn-replicates", type=int, default=50)
    args = parser.parse_args(argv)
    n_rows = args.groups * args.rows_per_group
    df = result_frame(n_rows, args.groups)
    measures = {"accuracy": fe.accuracy("y_true", "y_pred"), "roc_auc": rank_auc("y_true", "score")}
    if hasattr(fe, "roc_auc"):  # the library's guarded expression, next to the bare formula
        measures["fe.roc_auc"] = fe.roc_auc("y_true", "score")
    print(
        f"# bootstrap CIs: {args.groups:,} groups x ~{args.rows_per_group:,} rows "
        f"({n_rows:,} rows), target {args.replicates:,} replicates"
    )
    print(
        f"# {platform.platform()}, polars {pl.__version__}, threads {pl.thread_pool_size()}; "
        "roc_auc = the bare midrank formula, fe.roc_auc = the library's guarded expression"
    )

    times = {}
    for name, measure in measures.items():
        start, cpu = time.perf_counter(), time.process_time()
        out = fe.bootstrap_ci(df, measure, by=KEYS, repeats=args.measured_replicates, seed=1)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert out.height == df.select(KEYS).n_unique()
        times[name] = elapsed
        print(
            f"frameeval {name:<9} {args.measured_replicates} replicates: {elapsed:8.2f} s wall, "
            f"{cpu:8.2f} s CPU ({n_rows * args.measured_replicates / elapsed / 1e6:6.1f} M "
            "resampled rows/s)"
        )

    per = sklearn_loop(df, args.sklearn_groups, args.sklearn_replicates)
    scale = args.replicates / args.measured_replicates
    print(f"\n## extrapolated to {args.groups:,} groups x {args.replicates:,} replicates")
    for name in measures:
        ours = times[name] * scale
        theirs = per[name.removeprefix("fe.")] * args.groups * args.replicates
        print(
            f"  {name:<9} frameeval {ours:9.1f} s   scikit-learn loop {theirs:9.1f} s   "
            f"({theirs / ours:5.1f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
