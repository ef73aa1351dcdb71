"""A synthetic study that stresses the report's layout: many classes, learners and data sets.

Issue 18's browser check: 30 data sets (the first ``binary`` of them binary with scores, the rest
``classes``-class), 12 learners with long names, a few rows per cell. Seeded, vectorised.
"""

from __future__ import annotations

import numpy as np
import polars as pl

NAMES = (
    "logistic_regression_l2",
    "random_forest_500_trees",
    "gradient_boosting_depth_3",
    "support_vector_machine_rbf",
    "k_nearest_neighbours_k15",
    "gaussian_naive_bayes",
    "decision_tree_pruned",
    "multilayer_perceptron_2x64",
    "extra_trees_classifier",
    "linear_discriminant_analysis",
    "adaboost_stumps",
    "ridge_classifier_cv",
)


def synthetic_results(
    *,
    datasets: int = 30,
    learners: int = 12,
    classes: int = 10,
    binary: int = 4,
    folds: int = 3,
    instances: int = 20,
    seed: int = 18,
) -> pl.DataFrame:
    """``dataset, learner, fold, instance, truth, pred, score`` (score null on multiclass sets)."""
    rng = np.random.default_rng(seed)
    names = [NAMES[j % len(NAMES)] + ("" if j < len(NAMES) else f"_{j}") for j in range(learners)]
    per_dataset = folds * instances
    d = np.repeat(np.arange(datasets), learners * per_dataset)
    j = np.tile(np.repeat(np.arange(learners), per_dataset), datasets)
    i = np.tile(np.arange(per_dataset), datasets * learners)
    k = np.where(d < binary, 2, classes)
    truth_of = rng.integers(0, 1 << 30, (datasets, per_dataset))
    truth = truth_of[d, i] % k
    skill = rng.uniform(0.45, 0.95, (datasets, learners))
    right = rng.random(d.size) < skill[d, j]
    pred = np.where(right, truth, (truth + 1 + rng.integers(0, 1 << 30, d.size) % (k - 1)) % k)
    score = np.clip(
        0.5 + (2 * (truth == 1) - 1) * skill[d, j] * 0.5 + rng.normal(0, 0.25, d.size), 0, 1
    ).round(3)
    return (
        pl.DataFrame({"dataset": [f"synthetic_set_{n:02d}" for n in range(datasets)]})
        .with_row_index("d")
        .join(
            pl.DataFrame(
                {
                    "d": d.astype(np.uint32),
                    "learner": np.asarray(names)[j],
                    "fold": (i // instances).astype(np.int32),
                    "instance": i.astype(np.int64),
                    "truth": truth.astype(np.int64),
                    "pred": pred.astype(np.int64),
                    "score": np.where(d < binary, score, np.nan),
                }
            ),
            on="d",
        )
        .drop("d")
        .with_columns(pl.col("score").fill_nan(None))
        .sort("dataset", "learner", "instance")
    )


def one_dataset_results(*, seed: int = 23) -> pl.DataFrame:
    """Issue 23's study: one binary data set, three learners, 10-fold cross-validation with 30
    test instances per fold (``dataset, learner, fold, instance, truth, pred, score``)."""
    return synthetic_results(
        datasets=1, learners=3, classes=2, binary=1, folds=10, instances=30, seed=seed
    )


def breast_cancer_with_size() -> pl.DataFrame:
    """The embedded example's breast-cancer results (three learners) with two attributes
    derived from scikit-learn's bundled data: ``size`` (mean radius in tertiles) and
    ``texture`` (mean texture above its median): the Subgroups section's real example."""
    from sklearn.datasets import load_breast_cancer

    import frameeval as fe

    x, _ = load_breast_cancer(return_X_y=True, as_frame=True)
    radius = pl.Series(x["mean radius"].to_numpy())
    texture = x["mean texture"].to_numpy()
    attributes = pl.DataFrame(
        {
            "instance": np.arange(len(x)),
            "size": radius.bin_quantiles(3, labels=["small", "medium", "large"]).cast(pl.String),
            "texture": np.where(texture > np.median(texture), "rough", "smooth"),
        }
    )
    data = fe.datasets.example_results().filter(
        (pl.col("dataset") == "breast_cancer")
        & pl.col("learner").is_in(["decision_tree", "knn", "logistic_regression"])
    )
    return data.join(attributes, on="instance", how="inner")
