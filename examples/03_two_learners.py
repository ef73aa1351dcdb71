"""Two learners on one data set: the 5×2cv paired t test and McNemar's test (chapter 2.4.2–2.4.3).

On UCI breast cancer data (scikit-learn ships it), logistic regression against a decision tree:

1. 5×2 cross-validation (``fe.split.cv5x2``: five repeats of 2-fold CV), the error rate of each
   learner on each of the ten test folds, and the 5×2cv paired t test (eq 2.32, Dietterich 1998)
   with its t-distribution chart;
2. one stratified hold-out split, both learners' predictions on the same test instances, the
   2×2 contingency table of table 2.4 (e00, e01, e10, e11) and McNemar's test (eq 2.33).

Run::

    python examples/03_two_learners.py [OUT_DIR] [--small]

``--small`` (used by the test suite) uses a 300-row subsample.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import altair as alt
import polars as pl
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import frameeval as fe


def load(small: bool) -> pl.DataFrame:
    """Breast cancer as a frame; ``y`` = 1 for malignant."""
    bunch = load_breast_cancer()
    frame = pl.DataFrame(bunch.data, schema=[f"x{i}" for i in range(bunch.data.shape[1])])
    frame = frame.with_columns(pl.Series("y", 1 - bunch.target).cast(pl.Int64)).with_row_index("id")
    return frame.sample(300, seed=0).sort("id") if small else frame


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: temp dir)")
    parser.add_argument("--small", action="store_true", help="a quick run for the test suite")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="frameeval_example3_"))
    out.mkdir(parents=True, exist_ok=True)

    data = load(args.small)
    models = {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "decision_tree": DecisionTreeClassifier(random_state=0),
    }
    learners = {n: fe.split.sklearn_learner(m, truth="y") for n, m in models.items()}
    a, b = "logistic_regression", "decision_tree"

    # 1. 5×2cv: ten error rates per learner, paired by (repeat, fold).
    splits = fe.split.cv5x2(data, stratify="y", instance="id", seed=0)
    results = fe.evaluate(data, splits, learners, truth="y", instance="id")
    errors = (
        results.group_by("learner", "repeat", "fold")
        .agg(fe.error_rate("truth", "pred"))
        .sort("learner", "repeat", "fold")
    )
    errors.write_csv(out / "errors_5x2cv.csv")
    t_test = fe.cv5x2_t_test(errors, "error_rate", a=a, b=b)
    t_test.write_csv(out / "cv5x2_t_test.csv")
    row = t_test.row(0, named=True)
    print(
        f"5x2cv t test (eq 2.32): t = {row['statistic']:.3f}, df = {row['df']}, "
        f"p = {row['p_value']:.4f}, reject = {row['reject']}, better = {row['better']}"
    )
    fe.charts.save(
        fe.charts.t_distribution(row["df"], alpha=row["alpha"], statistic=row["statistic"]),
        out / "cv5x2_t_distribution.svg",
    )
    fe.charts.save(fe.charts.metric_distribution(errors, "error_rate"), out / "errors_5x2cv.svg")

    # 2. McNemar on one hold-out test set: both learners predict the same instances.
    holdout = fe.split.holdout(data, test_size=0.3, stratify="y", instance="id", seed=1)
    predictions = fe.evaluate(data, holdout, learners, truth="y", instance="id")
    table = fe.contingency_table(predictions, "truth", "pred", a=a, b=b)
    table.write_csv(out / "contingency_table.csv")
    print(table)
    mcnemar = fe.mcnemar(predictions, "truth", "pred", a=a, b=b)
    mcnemar.write_csv(out / "mcnemar.csv")
    row = mcnemar.row(0, named=True)
    print(
        f"McNemar (eq 2.33): chi2 = {row['statistic']:.3f}, p = {row['p_value']:.4f}, "
        f"reject = {row['reject']}, better = {row['better']}"
    )
    # The contingency table drawn as a 2×2 heatmap: "a correct?" × "b correct?".
    cells = table.select(
        pl.col("a_correct")
        .replace_strict({True: f"{a} right", False: f"{a} wrong"})
        .alias("actual"),
        pl.col("b_correct")
        .replace_strict({True: f"{b} right", False: f"{b} wrong"})
        .alias("predicted"),
        "count",
    )
    # confusion_heatmap labels its axes Actual / Predicted; say what rows and columns are here.
    heatmap = fe.charts.confusion_heatmap(cells).properties(
        title=alt.TitleParams(
            "McNemar contingency table (table 2.4)",
            subtitle=f"rows: is {a} right? columns: is {b} right? (off-diagonal: e01, e10)",
        )
    )
    fe.charts.save(heatmap, out / "contingency_table.svg")
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
