"""Learning and validation curves: diagnosing high bias against high variance (chapter 2.5).

On the handwritten digits data that ships with scikit-learn (1,797 8×8 images, 10 classes):

1. learning curves (training and validation error against the training-set size, stratified
   5-fold CV) of Gaussian naive Bayes and of an unpruned decision tree;
2. a validation curve of the tree's ``max_depth``;
3. ``fe.learning_curve_diagnosis`` reads the curves at the largest training size: a large
   train–validation gap is high variance (more data or more regularisation will help); a small
   gap with a validation curve still falling means more data would help; a small gap on a flat,
   high curve is high bias (more data will not help; a richer model will); else a good fit. Its
   thresholds (``max_gap=0.05``, ``acceptable=0.1``, ``min_slope=0.01`` per doubling of the
   training set) are the reader's to change. The learning-curve chart carries the sentences.

Run::

    python examples/05_learning_validation_curves.py [OUT_DIR] [--small]

``--small`` (used by the test suite): 3 folds, 3 training sizes, 4 depths, 600 images.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import polars as pl
from sklearn.datasets import load_digits
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import frameeval as fe


def load(small: bool) -> pl.DataFrame:
    bunch = load_digits()
    frame = pl.DataFrame(bunch.data, schema=[f"x{i}" for i in range(bunch.data.shape[1])])
    frame = frame.with_columns(pl.Series("y", bunch.target).cast(pl.Int64)).with_row_index("id")
    return frame.sample(600, seed=0).sort("id") if small else frame


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: temp dir)")
    parser.add_argument("--small", action="store_true", help="a quick run for the test suite")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="frameeval_example5_"))
    out.mkdir(parents=True, exist_ok=True)

    data = load(args.small)
    splits = fe.split.kfold(data, k=3 if args.small else 5, stratify="y", instance="id", seed=0)
    learners = {
        "naive_bayes": fe.split.sklearn_learner(GaussianNB(), truth="y", score=False),
        "decision_tree": fe.split.sklearn_learner(
            DecisionTreeClassifier(random_state=0), truth="y", score=False
        ),
    }
    sizes = (0.2, 0.6, 1.0) if args.small else (0.1, 0.2, 0.4, 0.6, 0.8, 1.0)
    learning = fe.learning_curve(
        data, splits, learners, truth="y", instance="id", train_sizes=sizes
    )
    learning.write_csv(out / "learning_curve.csv")
    verdicts = fe.learning_curve_diagnosis(learning)
    chart = fe.charts.learning_curve(learning, facet="learner", diagnosis=verdicts)
    fe.charts.save(chart, out / "learning_curve.svg")
    verdicts.write_csv(out / "diagnosis_learning_curve.csv")
    with pl.Config(fmt_str_lengths=300, tbl_width_chars=200):
        print(verdicts.drop("explanation"))
    for row in verdicts.iter_rows(named=True):  # one sentence per learner
        print(f"{row['learner']}: {row['explanation']}")

    def tree(depth: int):
        return fe.split.sklearn_learner(
            DecisionTreeClassifier(max_depth=depth, random_state=0), truth="y", score=False
        )

    depths = [1, 3, 6, 12] if args.small else [1, 2, 3, 4, 6, 8, 10, 12, 16]
    validation = fe.validation_curve(
        data, splits, tree, "max_depth", depths, truth="y", instance="id"
    )
    validation.write_csv(out / "validation_curve.csv")
    fe.charts.save(
        fe.charts.validation_curve(validation, "max_depth"), out / "validation_curve.svg"
    )
    per_depth = fe.learning_curve_diagnosis(validation)
    per_depth.write_csv(out / "diagnosis_validation_curve.csv")
    print(per_depth.drop("explanation"))
    best = per_depth.sort("validation", "max_depth").row(0, named=True)
    print(f"lowest validation error at max_depth = {best['max_depth']}")
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()
