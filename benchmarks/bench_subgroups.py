"""fe.subgroups side by side (issue 36): gaps against the grouped sums they need, slices against
the ``sliceline`` package.

Usage: ``python -m benchmarks.bench_subgroups [--rows 5000000] [--slice-rows 1000000]``

* **gaps**: 5 measures (accuracy, selection rate, recall, FPR, precision) × 4 sensitive columns
  and their 6 pairs × 10 models on ``--rows`` rows: the ten ``fe.subgroups.gaps`` calls (values
  only), collected together, against the bare grouped sums they need — per sensitive spec one
  ``group_by(model, *sensitive)`` and one ``group_by(model)`` of TP, FP, FN, TN — also collected
  together. The goal: ≤ 2×.
* **slices**: ``--slice-rows`` rows × 8 categorical features, one planted weak slice, to level
  3: ``fe.subgroups.slices`` against ``sliceline.Slicefinder`` (same α, k, max_l, min_sup) on the
  same codes; the goal: ≤ 10 s. Both must put the planted slice first.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

import frameeval as fe

MEASURES = ["accuracy", "selection_rate", "recall", "fpr", "precision"]
SENSITIVE = ["sex", "age", "region", "income"]


def _best(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):  # loop-ok: timing runs
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def gap_data(rows: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows, dtype=np.int8)
    return pl.DataFrame(
        {
            "model": rng.integers(0, 10, rows, dtype=np.int8),
            "sex": rng.integers(0, 2, rows, dtype=np.int8),
            "age": rng.integers(0, 5, rows, dtype=np.int8),
            "region": rng.integers(0, 4, rows, dtype=np.int8),
            "income": rng.integers(0, 3, rows, dtype=np.int8),
            "y": y,
            "p": np.where(rng.random(rows) < 0.8, y, 1 - y).astype(np.int8),
        }
    )


def specs() -> list[list[str]]:
    return [[s] for s in SENSITIVE] + [list(p) for p in itertools.combinations(SENSITIVE, 2)]


def gaps_plans(lf: pl.LazyFrame) -> list[pl.LazyFrame]:
    return [
        fe.subgroups.gaps(lf, "y", "p", sensitive=s, by="model", measures=MEASURES) for s in specs()
    ]


def sums_plans(lf: pl.LazyFrame) -> list[pl.LazyFrame]:
    """The grouped sums the gaps need: the four confusion counts per model × group and per
    model."""
    y, p = pl.col("y") == 1, pl.col("p") == 1
    counts = [
        (y & p).sum().alias("tp"),
        (~y & p).sum().alias("fp"),
        (y & ~p).sum().alias("fn"),
        (~y & ~p).sum().alias("tn"),
    ]
    out = []
    for s in specs():  # loop-ok: ten specs
        out.append(lf.group_by("model", *s).agg(counts))
        out.append(lf.group_by("model").agg(counts))
    return out


def slice_data(rows: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    columns = {f"f{j}": rng.integers(0, 3 + j % 4, rows, dtype=np.int8) for j in range(8)}
    df = pl.DataFrame(columns)
    weak = (df["f0"] == 1) & (df["f3"] == 2) & (df["f5"] == 0)
    wrong = rng.random(rows) < np.where(weak.to_numpy(), 0.7, 0.1)
    y = rng.integers(0, 2, rows, dtype=np.int8)
    return df.with_columns(y=pl.Series(y), p=pl.Series(np.where(wrong, 1 - y, y).astype(np.int8)))


def run_gaps(rows: int, repeats: int) -> dict[str, float]:
    lf = gap_data(rows).lazy()
    ours = _best(lambda: pl.collect_all(gaps_plans(lf)), repeats)
    sums = _best(lambda: pl.collect_all(sums_plans(lf)), repeats)
    return {"frameeval gaps": ours, "grouped sums": sums, "ratio": ours / sums}


def run_slices(rows: int, repeats: int, peer: bool = True) -> dict[str, Any]:
    df = slice_data(rows)
    features = [f"f{j}" for j in range(8)]
    options = {"alpha": 0.95, "top": 5, "max_level": 3, "min_support": 32}
    found: list[pl.DataFrame] = []

    def ours() -> None:
        found.append(fe.subgroups.slices(df, "y", "p", features=features, **options))

    out: dict[str, Any] = {"frameeval slices": _best(ours, repeats)}
    out["frameeval first"] = found[-1]["slice"][0]
    if peer:
        from sliceline.slicefinder import Slicefinder

        x = df.select(features).to_numpy()
        errors = (df["y"] != df["p"]).cast(pl.Float64).to_numpy()
        finder = Slicefinder(alpha=0.95, k=5, max_l=3, min_sup=32, verbose=False)
        out["sliceline"] = _best(lambda: finder.fit(x, errors), 1)
        first = finder.top_slices_[0]
        out["sliceline first"] = " & ".join(
            f"{f}={v}" for f, v in zip(features, first, strict=True) if v is not None
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=5_000_000)
    parser.add_argument("--slice-rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-sliceline", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; polars {pl.__version__}")
    g = run_gaps(args.rows, args.repeats)
    print(f"## gaps: 5 measures × 10 sensitive specs × 10 models, {args.rows:,} rows")
    print(
        f"{g['ratio']:.2f}x  frameeval gaps {g['frameeval gaps']:.3f} s; "
        f"grouped sums {g['grouped sums']:.3f} s"
    )
    s = run_slices(args.slice_rows, args.repeats, not args.no_sliceline)
    print(f"## slices: {args.slice_rows:,} rows × 8 features, level 3")
    print(f"frameeval slices {s['frameeval slices']:.3f} s (first: {s['frameeval first']})")
    if "sliceline" in s:
        print(f"sliceline {s['sliceline']:.3f} s (first: {s['sliceline first']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
