"""Several classifiers × several real data sets: 10-fold CV → Friedman → Nemenyi → CD diagram.

The workflow of chapter 2.4.4 on data that ships with scikit-learn (UCI breast cancer, wine,
iris, digits):

1. stratified 10-fold cross-validation (``fe.split.kfold``) of five classifiers on each data set,
   run by ``fe.evaluate`` → one long result frame (one row per prediction);
2. metric tables: accuracy per data set × learner × fold and per data set × learner;
3. the Friedman test on the ranks of the learners over the data sets (eq 2.34 and its F form);
4. the Nemenyi post-hoc test (eq 2.36) and the critical-difference (CD) diagram of figure 2.8;
5. the self-contained HTML report of the whole result frame.

Run::

    python examples/01_compare_classifiers.py [OUT_DIR] [--small]

``OUT_DIR`` defaults to a new temporary directory. ``--small`` (used by the test suite): three
small data sets, three learners, 3-fold CV.
"""

from __future__ import annotations

import argparse
import tempfile
import warnings
from pathlib import Path

import polars as pl
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import frameeval as fe


def load(name: str) -> pl.DataFrame:
    """A scikit-learn data set as a frame: ``id``, features ``x0…``, label ``y``."""
    bunch = getattr(datasets, f"load_{name}")()
    frame = pl.DataFrame(bunch.data, schema=[f"x{i}" for i in range(bunch.data.shape[1])])
    return frame.with_columns(pl.Series("y", bunch.target).cast(pl.Int64)).with_row_index("id")


def learners(small: bool) -> dict[str, object]:
    models = {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "naive_bayes": GaussianNB(),
        "decision_tree": DecisionTreeClassifier(random_state=0),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
        "random_forest": RandomForestClassifier(n_estimators=100, random_state=0),
    }
    if small:
        models = {k: models[k] for k in ("logistic_regression", "naive_bayes", "decision_tree")}
    return models


def cross_validate(small: bool) -> pl.DataFrame:
    """The long result frame: dataset, learner, repeat, fold, instance, truth, pred, score."""
    names = ["iris", "wine", "breast_cancer"]
    if not small:
        names.append("digits")
    k = 3 if small else 10
    parts = []
    for name in names:  # a handful of data sets, each running user models
        data = load(name)
        splits = fe.split.kfold(data, k=k, stratify="y", instance="id", seed=0)
        wrapped = {
            n: fe.split.sklearn_learner(model, truth="y") for n, model in learners(small).items()
        }
        results = fe.evaluate(data, splits, wrapped, truth="y", instance="id")
        parts.append(results.with_columns(dataset=pl.lit(name)))
    return pl.concat(parts).select(
        "dataset", "learner", "repeat", "fold", "instance", "truth", "pred", "score"
    )


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: temp dir)")
    parser.add_argument("--small", action="store_true", help="a quick run for the test suite")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="frameeval_example1_"))
    out.mkdir(parents=True, exist_ok=True)

    results = cross_validate(args.small)
    results.write_parquet(out / "results.parquet")

    # Metric tables: per fold (the spread) and per data set (the Friedman blocks).
    per_fold = (
        results.group_by("dataset", "learner", "fold")
        .agg(fe.accuracy("truth", "pred"), fe.error_rate("truth", "pred"))
        .sort("dataset", "learner", "fold")
    )
    per_dataset = (
        results.group_by("dataset", "learner")
        .agg(fe.accuracy("truth", "pred"), fe.error_rate("truth", "pred"))
        .sort("dataset", "learner")
    )
    per_fold.write_csv(out / "accuracy_per_fold.csv")
    per_dataset.write_csv(out / "accuracy_per_dataset.csv")
    print(per_dataset.pivot("learner", index="dataset", values="accuracy"))

    # Friedman: are the learners' average ranks over the data sets all equal?
    ranks = fe.rank_table(per_dataset, "accuracy", block="dataset")
    average = fe.average_ranks(per_dataset, "accuracy", block="dataset")
    with warnings.catch_warnings():
        # With few data sets frameeval warns that the χ² form is unreliable; we decide on the
        # F form (eq 2.35), as the book recommends.
        warnings.filterwarnings("ignore", message=r"friedman\(\): chi2_p_value")
        friedman = fe.friedman(per_dataset, "accuracy", block="dataset")
    # Nemenyi: which pairs differ by more than the critical difference CD?
    nemenyi = fe.nemenyi(per_dataset, "accuracy", block="dataset")
    friedman.write_csv(out / "friedman.csv")
    nemenyi.write_csv(out / "nemenyi.csv")
    row = friedman.row(0, named=True)
    print(
        f"Friedman (F form, eq 2.35): F = {row['statistic']:.3f}, "
        f"df = ({row['df1']}, {row['df2']}), p = {row['p_value']:.4f}, reject = {row['reject']}"
    )
    print(f"Nemenyi CD = {nemenyi['critical_value'][0]:.3f} (α = {row['alpha']})")
    print(average.sort("average_rank"))

    fe.charts.save(fe.charts.cd_diagram(average, cd=nemenyi), out / "cd_diagram.svg")
    fe.charts.save(
        fe.charts.cd_diagram(average, cd=nemenyi, style="demsar"), out / "cd_diagram_demsar.svg"
    )
    fe.charts.save(fe.charts.rank_heatmap(ranks, average), out / "rank_heatmap.svg")
    fe.charts.save(
        fe.charts.metric_distribution(per_fold, "accuracy", facet="dataset"),
        out / "accuracy_per_fold.svg",
    )

    # The whole result frame as one self-contained HTML page.
    fe.write_report(results, out / "report.html", title="Five classifiers on UCI data", force=True)
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
