"""Cost-sensitive evaluation of a screening model (chapter 2.3.4) on UCI breast cancer data.

A screening test for malignant tumours: missing a malignant case (a false negative) is far
worse than a false alarm. The example

1. cross-validates two models (logistic regression and naive Bayes) that score every instance;
2. computes the cost-sensitive error (eq 2.23) of their hard predictions for a cost matrix
   (a miss costs ``--miss-cost``, a false alarm 1);
3. draws the cost curves of both models (eqs 2.24–2.25, figure 2.5) with the expected total
   cost (area under each lower envelope);
4. finds the operating range — the interval of probability cost P(+)cost — where each model has
   the lower normalised cost, and where this screening setting falls.

Positive class (the book's class 0, whose miss costs cost01) = malignant.

Run::

    python examples/02_cost_sensitive_screening.py [OUT_DIR] [--small] [--miss-cost 10]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import polars as pl
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import frameeval as fe


def load() -> pl.DataFrame:
    """Breast cancer as a frame; ``y`` = 1 for malignant (scikit-learn codes malignant as 0)."""
    bunch = load_breast_cancer()
    frame = pl.DataFrame(bunch.data, schema=[f"x{i}" for i in range(bunch.data.shape[1])])
    return frame.with_columns(pl.Series("y", 1 - bunch.target).cast(pl.Int64)).with_row_index("id")


def envelope_on_grid(curve: pl.DataFrame, grid: pl.DataFrame) -> pl.DataFrame:
    """Each learner's lower envelope (piecewise linear in p_cost) evaluated on a p_cost grid."""
    vertices = curve.sort("learner", "p_cost").select(
        "learner", pl.col("p_cost").alias("x"), pl.col("norm_cost").alias("y")
    )
    points = grid.join(vertices.select("learner").unique(), how="cross").sort("learner", "p_cost")
    left = points.join_asof(
        vertices.rename({"x": "x0", "y": "y0"}),
        left_on="p_cost",
        right_on="x0",
        by="learner",
        strategy="backward",
        check_sortedness=False,
    )
    both = left.join_asof(
        vertices.rename({"x": "x1", "y": "y1"}),
        left_on="p_cost",
        right_on="x1",
        by="learner",
        strategy="forward",
        check_sortedness=False,
    )
    slope = (pl.col("y1") - pl.col("y0")) / (pl.col("x1") - pl.col("x0"))
    value = (
        pl.when(pl.col("x1") == pl.col("x0"))
        .then(pl.col("y0"))
        .otherwise(pl.col("y0") + slope * (pl.col("p_cost") - pl.col("x0")))
    )
    return both.select("learner", "p_cost", value.alias("norm_cost"))


def operating_ranges(curve: pl.DataFrame, a: str, b: str, n: int = 2001) -> pl.DataFrame:
    """Intervals of p_cost where ``a`` or ``b`` has the lower normalised cost (or they tie)."""
    grid = pl.select(p_cost=pl.int_range(0, n, dtype=pl.Int64) / (n - 1))
    wide = envelope_on_grid(curve, grid).pivot("learner", index="p_cost", values="norm_cost")
    diff = pl.col(a) - pl.col(b)
    winner = (
        pl.when(diff.abs() <= 1e-12)
        .then(pl.lit("tie"))
        .when(diff < 0)
        .then(pl.lit(a))
        .otherwise(pl.lit(b))
    )
    return (
        wide.sort("p_cost")
        .with_columns(winner=winner)
        .with_columns(run=pl.col("winner").rle_id())
        .group_by("run")
        .agg(
            pl.col("winner").first(),
            pl.col("p_cost").min().alias("p_cost_from"),
            pl.col("p_cost").max().alias("p_cost_to"),
            (pl.col(b) - pl.col(a)).abs().max().alias("max_gap"),
        )
        .sort("run")
        .drop("run")
    )


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: temp dir)")
    parser.add_argument("--small", action="store_true", help="a quick run for the test suite")
    parser.add_argument("--miss-cost", type=float, default=10.0, help="cost01 of a false negative")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="frameeval_example2_"))
    out.mkdir(parents=True, exist_ok=True)

    data = load()
    splits = fe.split.kfold(data, k=3 if args.small else 10, stratify="y", instance="id", seed=0)
    models = {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "naive_bayes": GaussianNB(),
    }
    learners = {n: fe.split.sklearn_learner(m, truth="y", pos_label=1) for n, m in models.items()}
    results = fe.evaluate(data, splits, learners, truth="y", instance="id")

    # Cost matrix of eq 2.23: rows = actual, columns = predicted; the diagonal costs nothing.
    costs = pl.DataFrame(
        {"actual": [1, 0], "predicted": [0, 1], "cost": [args.miss_cost, 1.0]},
        schema={"actual": pl.Int64, "predicted": pl.Int64, "cost": pl.Float64},
    )
    error = (
        fe.cost_sensitive_error(results, "truth", "pred", costs=costs, by="learner")
        .join(results.group_by("learner").agg(fe.error_rate("truth", "pred")), on="learner")
        .sort("learner")
    )
    error.write_csv(out / "cost_sensitive_error.csv")
    print(error)

    # Cost curves (lower envelopes), every threshold's cost line, expected total cost.
    curve = fe.cost_curve(results, "truth", "score", by="learner", pos_label=1)
    lines = fe.cost_lines(results, "truth", "score", by="learner", pos_label=1)
    total = fe.expected_total_cost(results, "truth", "score", by="learner", pos_label=1)
    curve.write_csv(out / "cost_curve.csv")
    total.write_csv(out / "expected_total_cost.csv")
    print(total.sort("learner"))
    fe.charts.save(fe.charts.cost_curve(curve, lines, total, by="learner"), out / "cost_curve.svg")
    fe.charts.save(
        fe.charts.cost_curve(curve, by="learner", color="learner"), out / "cost_curves_overlaid.svg"
    )

    # Where does each model win? And where does this screening setting sit on the x-axis?
    ranges = operating_ranges(curve, "logistic_regression", "naive_bayes")
    ranges.write_csv(out / "operating_ranges.csv")
    print(ranges)
    here = (
        results.filter(pl.col("learner") == "logistic_regression")
        .select(fe.p_cost(pl.col("truth").cast(pl.Float64).mean(), args.miss_cost, 1.0))
        .item()
    )
    at_here = ranges.filter((pl.col("p_cost_from") <= here) & (pl.col("p_cost_to") >= here))[
        "winner"
    ].to_list()
    print(
        f"screening setting: P(+)cost = {here:.3f} (prevalence, miss cost {args.miss_cost:g}:1)"
        f" → lower cost: {', '.join(at_here)}"
    )
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
