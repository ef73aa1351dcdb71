"""Out-of-core scale benchmark: grouped confusion + P/R/F1 and grouped exact AUC on Parquet.

    python benchmarks/scale.py --rows 200_000_000 --groups 1000 --files 40

1. writes (once, seeded) a partitioned Parquet data set of ``--rows`` rows and ``--groups``
   groups to ``benchmarks/data/scale-<rows>/`` (gitignored): columns ``group`` (Int32), ``y``
   (Int8), ``pred`` (Int8), ``score`` (Float64, 3 decimals, so the exact-AUC table has at most
   groups × 1,001 rows);
2. runs each task in a fresh child process on ``pl.scan_parquet(<dir>/*.parquet)`` with the
   streaming engine and reports wall time and the child's peak RSS (``getrusage`` maxrss):
   ``confusion`` = ``fe.confusion_matrix`` + ``fe.classification_report`` (P/R/F1 per class and
   averages) by group, collected together; ``auc`` = ``fe.ranking_report`` by group (exact
   AUC, ties one half, plus AP);
3. checks on a subsample (the first ``--check-files`` files) that the streamed results equal the
   in-memory eager results (counts and AUC exactly).

Nothing is printed but a table and the check; ``--keep`` keeps the data for a rerun, otherwise it
is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

import frameeval as fe  # noqa: E402


def generate(directory: Path, rows: int, groups: int, files: int, seed: int = 8) -> None:
    if directory.exists() and len(list(directory.glob("*.parquet"))) == files:
        return
    directory.mkdir(parents=True, exist_ok=True)
    per = -(-rows // files)
    for i in range(files):  # loop-ok: one seeded chunk per file
        n = min(per, rows - i * per)
        rng = np.random.default_rng([seed, i])
        y = rng.integers(0, 2, n, dtype=np.int8)
        quality = rng.uniform(0.05, 0.35, groups)  # per-group separation
        g = rng.integers(0, groups, n, dtype=np.int32)
        score = np.clip(rng.normal(0.5 + (2 * y - 1) * quality[g], 0.2), 0, 1).round(3)
        pl.DataFrame(
            {"group": g, "y": y, "pred": (score >= 0.5).astype(np.int8), "score": score}
        ).write_parquet(directory / f"part-{i:04d}.parquet", row_group_size=1_000_000)


def plans(lf: pl.LazyFrame, task: str) -> list[pl.LazyFrame]:
    if task == "confusion":
        return [
            fe.confusion_matrix(lf, truth="y", pred="pred", by="group"),
            fe.classification_report(lf, truth="y", pred="pred", by="group"),
        ]
    return [fe.ranking_report(lf, truth="y", score="score", by="group")]


def child(directory: str, task: str) -> None:
    """Run one task in this (fresh) process and print JSON: seconds, peak RSS, rows out."""
    lf = pl.scan_parquet(f"{directory}/*.parquet")
    start = time.perf_counter()
    out = pl.collect_all(plans(lf, task), engine="streaming")
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    print(json.dumps({"seconds": seconds, "peak_bytes": peak, "rows_out": [o.height for o in out]}))


def check(directory: Path, files: int) -> int:
    """Streamed scan of the first files == eager in-memory result; returns the rows checked."""
    paths = sorted(directory.glob("*.parquet"))[:files]
    df = pl.read_parquet(paths)
    for task in ("confusion", "auc"):  # loop-ok: two tasks
        streamed = pl.collect_all(plans(pl.scan_parquet(paths), task), engine="streaming")
        eager = plans(df.lazy(), task)
        for got, lazy in zip(streamed, eager, strict=True):
            expected = lazy.collect(engine="in-memory")
            if task == "auc":  # AUC is integer-valued sums: exact; AP sums floats unordered
                assert got["roc_auc"].equals(expected["roc_auc"]), "AUC differs"
                diff = (got["average_precision"] - expected["average_precision"]).abs().max()
                assert isinstance(diff, float) and diff < 1e-12, diff
            elif "count" in got.columns:
                assert got.equals(expected), "confusion counts differ"
            else:
                keyed = ["group", "average", "label", "support"]
                assert got.select(keyed).equals(expected.select(keyed)), "support differs"
                for col in ("precision", "recall", "fbeta"):
                    diff = (got[col] - expected[col]).abs().max()
                    assert isinstance(diff, float) and diff < 1e-12, (col, diff)
    return df.height


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--files", type=int, default=0, help="default: one per 5M rows")
    parser.add_argument("--check-files", type=int, default=2)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("DIR", "TASK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    files = args.files or max(1, args.rows // 5_000_000)
    directory = ROOT / "data" / f"scale-{args.rows}"
    start = time.perf_counter()
    generate(directory, args.rows, args.groups, files)
    size = sum(p.stat().st_size for p in directory.glob("*.parquet"))
    print(
        f"data: {args.rows:,} rows, {args.groups} groups, {files} files, "
        f"{size / 2**30:.2f} GiB on disk, generated/found in {time.perf_counter() - start:.1f} s"
    )
    print(
        f"polars {pl.__version__}, {os.cpu_count()} CPUs, POLARS_MAX_THREADS="
        f"{os.environ.get('POLARS_MAX_THREADS', 'default')}"
    )
    print(f"{'task':<10} {'wall s':>8} {'peak RSS GiB':>13} {'rows/s (M)':>11}")
    for task in ("confusion", "auc"):  # loop-ok: two tasks
        result = subprocess.run(
            [sys.executable, __file__, "--child", str(directory), task],
            check=True,
            capture_output=True,
            text=True,
        )
        stats = json.loads(result.stdout.strip().splitlines()[-1])
        print(
            f"{task:<10} {stats['seconds']:>8.1f} {stats['peak_bytes'] / 2**30:>13.2f} "
            f"{args.rows / stats['seconds'] / 1e6:>11.1f}"
        )
    checked = check(directory, args.check_files)
    print(f"subsample check: streamed == in-memory on {checked:,} rows (counts, AUC exact)")
    if not args.keep:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
