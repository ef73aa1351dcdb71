"""Reproduce the type I error table of docs/compare-learners.md ("One data set, k learners").

Run from the repository root (about a minute on one core):

    python docs/make_compare_simulation.py

1,000 null studies of three learners that perform the same (``null_tables`` of
tests/compare/test_auto_splits.py: splits of a repeat correlate by 0.1 = 1/k, splits of
different repeats by 0.05), for 3 repeats × 10 folds and 5 repeats × 2 folds; prints the share
of studies in which each procedure rejects at α = 0.05.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import frameeval as fe  # noqa: E402
from tests.compare.test_auto_splits import null_tables  # noqa: E402

ALPHA = 0.05
N_TABLES = 1000


def family_rate(result: fe.compare.Comparison) -> float:
    """Share of tables where any pair is rejected (the family-wise error)."""
    return float(result.post_hoc.group_by("table").agg(pl.col("reject").any())["reject"].mean())


def one_pair_rate(result: fe.compare.Comparison) -> float:
    pair = result.post_hoc.filter((pl.col("a") == "A") & (pl.col("b") == "B"))
    return float((pair["p_value"] < ALPHA).mean())


def naive_rate(data: pl.DataFrame) -> float:
    split = data.with_columns(pl.format("{}/{}", "repeat", "fold").alias("split"))
    out = fe.paired_t_test(
        split, "accuracy", a="A", b="B", learner="model", block="split", by="table", alpha=ALPHA
    )
    return float(out["reject"].mean())


def over_splits_rate(data: pl.DataFrame, procedure: str) -> float:
    split = data.with_columns(pl.format("{}/{}", "repeat", "fold").alias("split"))
    result = fe.compare_learners(
        split.drop("repeat", "fold"),
        "accuracy",
        block="split",
        by="table",
        procedure=procedure,  # type: ignore[arg-type]
        alpha=ALPHA,
    )
    return float(result.omnibus["reject"].mean())


def main() -> None:
    warnings.simplefilter("ignore")
    cv = null_tables(N_TABLES, repeats=3, folds=10, seed=1)
    corrected = fe.compare_learners(cv, "accuracy", by="table", alpha=ALPHA)
    print("3 repeats × 10 folds")
    print(f"  corrected t + Holm, family-wise     {family_rate(corrected):.3f}")
    print(f"  corrected t, one pair               {one_pair_rate(corrected):.3f}")
    print(f"  naive paired t over 30 splits       {naive_rate(cv):.3f}")
    print(f"  Friedman over the splits as blocks  {over_splits_rate(cv, 'friedman'):.3f}")
    print(f"  RM-ANOVA over the splits as blocks  {over_splits_rate(cv, 'anova'):.3f}")
    five = null_tables(N_TABLES, repeats=5, folds=2, seed=2)
    f_test = fe.compare_learners(five, "accuracy", by="table", alpha=ALPHA)
    forced = fe.compare_learners(five, "accuracy", by="table", procedure="corrected_t")
    print("5 repeats × 2 folds")
    print(f"  combined 5×2cv F + Holm, family     {family_rate(f_test):.3f}")
    print(f"  combined 5×2cv F, one pair          {one_pair_rate(f_test):.3f}")
    print(f"  corrected t (ratio 1) + Holm        {family_rate(forced):.3f}")
    print(f"  naive paired t over 10 splits       {naive_rate(five):.3f}")


if __name__ == "__main__":
    main()
