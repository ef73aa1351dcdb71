"""Benchmark: forecast scores (CRPS, WIS, interval score) vs properscoring / scoringrules.

Usage: ``python -m benchmarks.bench_forecast [--instances 20000] [--members 50]
[--levels 23] [--groups 10] [--repeat 3]``

Every side runs in the same process on the same data. The libraries take dense arrays (one row
per instance, one column per member or level) that are built outside the timer; frameeval takes
the long frame (one row per instance × member or level), groups by ``g`` and instance, checks
its inputs in the plan and returns a mean per group. A "polars floor" is the bare aggregation
with no checks. The best of ``--repeat`` runs is printed.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe


def _best(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):  # loop-ok: repeated timing
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _print(title: str, rows: dict[str, float]) -> None:
    base = rows["frameeval"]
    print(f"\n{title}")
    for name, seconds in rows.items():
        print(f"  {seconds:8.3f} s  {seconds / base:6.2f}x  {name}")


def crps(instances: int, members: int, groups: int, repeat: int) -> None:
    import properscoring as ps
    import scoringrules as sr

    rng = np.random.default_rng(0)
    y = rng.normal(size=instances)
    x = rng.normal(size=(instances, members)) + rng.normal(size=(instances, 1))
    df = pl.DataFrame(
        {
            "g": np.repeat(np.arange(instances) % groups, members),
            "id": np.repeat(np.arange(instances), members),
            "y": np.repeat(y, members),
            "x": x.ravel(),
        }
    )
    xs, ys = pl.col("x"), pl.col("y")
    m = pl.len().cast(pl.Float64)
    floor = (xs - ys).abs().mean() - (
        2.0 * xs.sort(descending=True).cum_sum().sum() - (m + 1.0) * xs.sum()
    ) / (m * m)
    rows = {
        "frameeval": _best(lambda: fe.crps(df, "y", "x", "id", by="g"), repeat),
        "polars floor (same formula, no checks)": _best(
            lambda: df.group_by("g", "id").agg(floor.alias("c")).group_by("g").agg(pl.mean("c")),
            repeat,
        ),
        "properscoring.crps_ensemble (dense array, no grouping)": _best(
            lambda: ps.crps_ensemble(y, x), repeat
        ),
        "scoringrules.crps_ensemble nrg, numpy (dense, no grouping)": _best(
            lambda: sr.crps_ensemble(y, x, estimator="nrg", backend="numpy"), repeat
        ),
    }
    _print(f"CRPS: {instances:,} instances x {members} members = {df.height:,} rows", rows)


def wis(instances: int, levels: int, groups: int, repeat: int) -> None:
    import scoringrules as sr
    from scipy.stats import norm

    k = (levels - 1) // 2
    lower = np.linspace(0.01, 0.45, k)
    taus = np.concatenate([lower, [0.5], 1 - lower[::-1]])
    rng = np.random.default_rng(1)
    y = rng.normal(size=instances)
    q = rng.normal(size=(instances, 1)) + norm.ppf(taus)[None, :]
    df = pl.DataFrame(
        {
            "g": np.repeat(np.arange(instances) % groups, len(taus)),
            "id": np.repeat(np.arange(instances), len(taus)),
            "y": np.repeat(y, len(taus)),
            "q": np.tile(taus, instances),
            "f": q.ravel(),
        }
    )
    alphas = 2 * taus[:k]

    def sr_wis() -> Any:  # interval form; |y − m| added by hand (see tests/forecast)
        intervals = sr.interval_score(
            y[:, None], q[:, :k], q[:, ::-1][:, :k], alphas[None, :], backend="numpy"
        )
        return (0.5 * np.abs(y - q[:, k]) + (intervals * alphas / 2).sum(axis=1)) / (k + 0.5)

    ys, fs, ls = pl.col("y"), pl.col("f"), pl.col("q")
    pinball = (ys - fs) * (ls - (ys < fs).cast(pl.Float64))
    rows = {
        "frameeval": _best(
            lambda: fe.weighted_interval_score(df, "y", "f", "q", "id", by="g"), repeat
        ),
        "frameeval quantile_scores (per level, no instance checks)": _best(
            lambda: fe.quantile_scores(df, "y", "f", "q", by="g"), repeat
        ),
        "polars floor (2 x mean pinball per instance, no checks)": _best(
            lambda: (
                df.group_by("g", "id")
                .agg((2 * pinball.mean()).alias("w"))
                .group_by("g")
                .agg(pl.mean("w"))
            ),
            repeat,
        ),
        "scoringrules interval_score, Bracher form (dense, no grouping)": _best(sr_wis, repeat),
    }
    _print(f"WIS: {instances:,} instances x {len(taus)} levels = {df.height:,} rows", rows)


def interval(instances: int, groups: int, repeat: int) -> None:
    import scoringrules as sr

    rng = np.random.default_rng(2)
    y = rng.normal(size=instances)
    centre = y + rng.normal(size=instances)
    df = pl.DataFrame(
        {"g": np.arange(instances) % groups, "y": y, "lo": centre - 1.5, "hi": centre + 1.5}
    )
    lo, hi = df["lo"].to_numpy(), df["hi"].to_numpy()
    ys, los, his = pl.col("y"), pl.col("lo"), pl.col("hi")
    floor = ((his - los) + 20 * (los - ys).clip(0) + 20 * (ys - his).clip(0)).mean()
    rows = {
        "frameeval": _best(
            lambda: df.group_by("g").agg(fe.interval_score("y", "lo", "hi", alpha=0.1)), repeat
        ),
        "polars floor (same formula, no guard)": _best(lambda: df.group_by("g").agg(floor), repeat),
        "scoringrules.interval_score, numpy (dense, no grouping)": _best(
            lambda: sr.interval_score(y, lo, hi, 0.1, backend="numpy").mean(), repeat
        ),
    }
    _print(f"interval score: {instances:,} rows, {groups} groups", rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20_000)
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--levels", type=int, default=23)
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"polars {pl.__version__}, {platform.python_version()}, {platform.machine()}")
    crps(args.instances, args.members, args.groups, args.repeat)
    wis(args.instances * 2, args.levels, args.groups, args.repeat)
    interval(args.instances * 50, args.groups, args.repeat)


if __name__ == "__main__":
    main()
