"""Bias–variance against model complexity with bootstrap training sets (chapter 2.5).

On the diabetes regression data that ships with scikit-learn (442 patients, 10 features, target
= disease progression after one year), regression trees of increasing depth are trained on many
bootstrap samples of a training pool and predict one fixed test set; for each depth the mean
squared error is split into squared bias (eq 2.40) and variance (eq 2.38), the picture of
figure 2.9: shallow trees are biased, deep trees vary with their training set.

The noise term (eq 2.39) needs the noise-free target, which real data does not have; here the
observed target plays the role of y, so ``error = bias_squared + variance`` holds exactly and the
noise is folded into the bias.

Run::

    python examples/04_bias_variance.py [OUT_DIR] [--small]

``--small`` (used by the test suite): depths 1–4 and 10 training sets instead of 1–10 and 100.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import polars as pl
from sklearn.datasets import load_diabetes
from sklearn.tree import DecisionTreeRegressor

import frameeval as fe


def load() -> pl.DataFrame:
    bunch = load_diabetes()
    frame = pl.DataFrame(bunch.data, schema=list(bunch.feature_names))
    return frame.with_columns(pl.Series("y", bunch.target)).with_row_index("id")


def tree(depth: int, features: list[str]):
    """``fit_predict(train, test)`` for a regression tree of the given depth."""

    def fit_predict(train: pl.DataFrame, test: pl.DataFrame):
        model = DecisionTreeRegressor(max_depth=depth, random_state=0)
        model.fit(train.select(features).to_numpy(), train["y"].to_numpy())
        return model.predict(test.select(features).to_numpy())

    return fit_predict


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: temp dir)")
    parser.add_argument("--small", action="store_true", help="a quick run for the test suite")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="frameeval_example4_"))
    out.mkdir(parents=True, exist_ok=True)

    data = load()
    features = [c for c in data.columns if c not in ("id", "y")]
    # One hold-out split: the training pool the bootstrap samples are drawn from, and the fixed
    # test instances every model predicts.
    split = fe.split.holdout(data, test_size=0.3, instance="id", seed=0)
    test_ids = split.filter(pl.col("role") == "test").select("id")
    pool = data.join(test_ids, on="id", how="anti")
    test = data.join(test_ids, on="id", how="semi").sort("id")

    depths = range(1, 5) if args.small else range(1, 11)
    learners = {depth: tree(depth, features) for depth in depths}
    predictions = fe.bootstrap_predictions(
        pool, test, learners, truth="y", instance="id", repeats=10 if args.small else 100, seed=0
    ).rename({"learner": "max_depth"})

    decomposition = fe.bias_variance(
        predictions, "y", "pred", instance="id", by="max_depth", loss="squared"
    )
    decomposition.write_csv(out / "bias_variance.csv")
    print(decomposition)
    best = decomposition.sort("error").row(0, named=True)
    print(f"lowest expected error at max_depth = {best['max_depth']} (error {best['error']:.1f})")

    fe.charts.save(
        fe.charts.bias_variance(decomposition, complexity="max_depth"), out / "bias_variance.svg"
    )
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
