"""Make the embedded item-level example: real models answering the real items of four
benchmarks, K answers each, items clustered by k-means.

A "benchmark" is one of scikit-learn's bundled data sets (breast cancer, wine, iris, digits);
its *items* are the instances of a stratified 30 % test split (seed 0). Five scikit-learn
classifiers (logistic regression, naive Bayes, a decision tree, k-NN, a random forest) answer
every item K = 5 times: answer ``epoch`` s comes from the model fitted on a bootstrap resample
(seed s) of the training part — the repeated runs of one model that give K answers per item.
``correct`` is 1 when the answer is the true class. Each item's ``cluster`` is its k-means
cluster (k = 8, fitted on the standardised training features, seed 0): items that look alike
and tend to be answered alike, the grouping a clustered standard error is for.

Written to ``frameeval/datasets/items_results.parquet`` (what ``frameeval report --example
items`` reads). Run: ``python examples/make_items_example.py [--out PATH] [--small]``
(``--small``: two benchmarks, three models, K = 2 — the test suite runs that).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import polars as pl
from sklearn import datasets
from sklearn.cluster import KMeans
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "frameeval/datasets/items_results.parquet"


def models(seed: int) -> dict[str, object]:
    return {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "naive_bayes": GaussianNB(),
        "decision_tree": DecisionTreeClassifier(random_state=seed),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
        "random_forest": RandomForestClassifier(n_estimators=50, random_state=seed),
    }


def benchmark(name: str, chosen: list[str], k: int) -> pl.DataFrame:
    """One benchmark's long table: ``benchmark, model, item, cluster, epoch, correct``."""
    bunch = getattr(datasets, f"load_{name}")()
    x, y = bunch.data, bunch.target
    ids = np.arange(len(y))
    x_train, x_test, y_train, y_test, _, id_test = train_test_split(
        x, y, ids, test_size=0.3, stratify=y, random_state=0
    )
    scaler = StandardScaler().fit(x_train)
    kmeans = KMeans(n_clusters=8, n_init=10, random_state=0).fit(scaler.transform(x_train))
    cluster = kmeans.predict(scaler.transform(x_test))
    parts = []
    for epoch in range(k):  # loop-ok: K runs of real models
        rng = np.random.default_rng(epoch)
        rows = rng.integers(0, len(y_train), len(y_train))
        for model in chosen:  # loop-ok: a handful of user models
            fitted = models(epoch)[model].fit(x_train[rows], y_train[rows])
            answer = fitted.predict(x_test)
            parts.append(
                pl.DataFrame(
                    {
                        "benchmark": name,
                        "model": model,
                        "item": id_test.astype(np.int64),
                        "cluster": cluster.astype(np.int32),
                        "epoch": np.full(len(y_test), epoch, dtype=np.int32),
                        "correct": (answer == y_test).astype(np.int8),
                    }
                )
            )
    return pl.concat(parts)


def make(small: bool = False) -> pl.DataFrame:
    names = ["breast_cancer", "wine"] if small else ["breast_cancer", "digits", "iris", "wine"]
    chosen = list(models(0))
    if small:
        chosen = ["logistic_regression", "naive_bayes", "decision_tree"]
    k = 2 if small else 5
    table = pl.concat([benchmark(name, chosen, k) for name in names])
    return table.sort("benchmark", "model", "item", "epoch")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=None, help=f"output Parquet ({DEFAULT_OUT})")
    parser.add_argument("--small", action="store_true", help="two benchmarks, three models, K=2")
    args = parser.parse_args()
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="frameeval-items-")) / "items_results.parquet"
    if args.small and args.out.resolve() == DEFAULT_OUT:
        parser.error(f"--small must not overwrite the packaged table {DEFAULT_OUT}; pass --out")
    table = make(small=args.small)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.write_parquet(args.out, compression="zstd", statistics=True)
    print(f"wrote {args.out} ({table.height:,} rows)")


if __name__ == "__main__":
    main()
