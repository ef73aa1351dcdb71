"""Make the embedded example result table: real classifiers on real data, 10-fold CV.

Five scikit-learn classifiers are evaluated by stratified 10-fold cross-validation (one repeat,
seed 0) on four real data sets that ship with scikit-learn — breast cancer (Wisconsin diagnostic,
binary: 1 = malignant), wine, iris and digits (multiclass) — using frameeval's own splits and
``evaluate``. The result is the long frame of DESIGN §1, written to
``frameeval/datasets/example_results.parquet`` (what ``frameeval report --example`` reads).

Run: ``python examples/make_example_results.py [--out PATH] [--small]`` (``--small``: two data
sets, three learners, 3-fold — the test suite runs that). Without ``--out`` the table goes to a
temporary directory; the packaged table is replaced only when ``--out`` names it, and never by a
``--small`` table (which would leave ``frameeval demo`` showing three learners).
"""

from __future__ import annotations

import argparse
import tempfile
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

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "frameeval/datasets/example_results.parquet"


def load(name: str) -> pl.DataFrame:
    """One data set as a frame: ``id``, feature columns ``x0…``, ``y``."""
    bunch = getattr(datasets, f"load_{name}")()
    y = bunch.target
    if name == "breast_cancer":  # scikit-learn codes malignant as 0; make it the positive class
        y = 1 - y
    frame = pl.DataFrame(bunch.data, schema=[f"x{i}" for i in range(bunch.data.shape[1])])
    return frame.with_columns(pl.Series("y", y).cast(pl.Int64)).with_row_index("id")


def learners() -> dict[str, object]:
    return {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "naive_bayes": GaussianNB(),
        "decision_tree": DecisionTreeClassifier(random_state=0),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
        "random_forest": RandomForestClassifier(n_estimators=100, random_state=0),
    }


def make(small: bool = False) -> pl.DataFrame:
    names = ["breast_cancer", "iris"] if small else ["breast_cancer", "wine", "iris", "digits"]
    chosen = learners()
    if small:
        chosen = {k: chosen[k] for k in ("logistic_regression", "naive_bayes", "decision_tree")}
    k = 3 if small else 10
    parts = []
    for name in names:  # loop-ok: a handful of data sets, each running user models
        data = load(name)
        splits = fe.split.kfold(data, k=k, stratify="y", instance="id", seed=0)
        wrapped = {n: fe.split.sklearn_learner(est, truth="y") for n, est in chosen.items()}
        results = fe.evaluate(data, splits, wrapped, truth="y", instance="id", progress=False)
        parts.append(results.with_columns(pl.lit(name).alias("dataset")))
    out = pl.concat(parts)
    return out.select(
        "dataset",
        "learner",
        "repeat",
        "fold",
        pl.col("instance").cast(pl.Int64),
        "truth",
        "pred",
        "score",
    ).sort("dataset", "learner", "repeat", "fold", "instance")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"output Parquet file (default: a new temporary directory; the "
        f"packaged table is {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--small",
        action="store_true",
        help="two data sets, three learners, 3-fold (what the tests run)",
    )
    args = parser.parse_args()
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="frameeval-example-")) / "example_results.parquet"
    if args.small and args.out.resolve() == DEFAULT_OUT:
        parser.error(f"--small must not overwrite the packaged table {DEFAULT_OUT}; pass --out")
    table = make(small=args.small)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.write_parquet(args.out, compression="zstd", statistics=True)
    print(f"wrote {args.out} ({table.height:,} rows)")


if __name__ == "__main__":
    main()
