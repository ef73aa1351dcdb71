"""Small embedded example result tables: three real ones, and the tiny made-up tables the
docstring examples share.

``example_results()`` — five scikit-learn classifiers (logistic regression, naive Bayes, decision
tree, k-NN, random forest) evaluated by stratified 10-fold cross-validation (seed 0) on four real
data sets shipped with scikit-learn: breast cancer (binary, 1 = malignant), wine, iris and digits.
Made by ``examples/make_example_results.py`` with ``frameeval.split.kfold`` and
``frameeval.evaluate``.

``regression_results()`` — five scikit-learn regressors (ridge, k-NN, decision tree, random
forest, gradient boosting) evaluated by 10-fold cross-validation (seed 0) on four real data sets
that ship offline with scikit-learn or statsmodels: diabetes, Engel's food expenditure,
Grunfeld's investment and credit-card expenditure, with a 90 % prediction interval per
prediction. Made by ``examples/make_regression_example.py``.

``items_results()`` — an item-level study: five scikit-learn classifiers answer the items (the
instances of a stratified 30 % test split) of four bundled data sets ("benchmarks"), K = 5
times each (refitted on bootstrap resamples of the training part, seeds 0–4); each item in a
k-means cluster of its features. Made by ``examples/make_items_example.py``.

The worked-example tables — ``block_error_rates()``, ``paired_accuracies()``, ``binary_scores()``,
``interval_forecasts()``, ``quantile_forecasts()`` — are made up, a handful of rows each so that a
result can be checked by hand, and shared by the docstring examples; each docstring shows its
table whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

EXAMPLE_RESULTS = Path(__file__).with_name("example_results.parquet")
REGRESSION_RESULTS = Path(__file__).with_name("regression_results.parquet")
ITEMS_RESULTS = Path(__file__).with_name("items_results.parquet")


def example_results(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """The example result table.

    Returns
    -------
    One row per (data set, learner, fold, test instance): ``dataset`` (String), ``learner``
    (String), ``repeat`` (Int32, always 0), ``fold`` (Int32, 0–9), ``instance`` (Int64, row of
    the data set), ``truth``, ``pred`` (Int64 labels) and ``score`` (Float64: the predicted
    probability of class 1 on the binary breast-cancer task, null on the multiclass tasks).

    Examples
    --------
    >>> df = fe.datasets.example_results()
    >>> sorted(df["dataset"].unique())
    ['breast_cancer', 'digits', 'iris', 'wine']
    """
    return pl.scan_parquet(EXAMPLE_RESULTS) if lazy else pl.read_parquet(EXAMPLE_RESULTS)


def regression_results(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """The regression example result table.

    Returns
    -------
    One row per (data set, learner, fold, test instance): ``dataset`` (String: ``credit_card``,
    ``diabetes``, ``engel``, ``grunfeld``), ``learner`` (String), ``repeat`` (Int32, always 0),
    ``fold`` (Int32, 0–9), ``instance`` (Int64, row of the data set), ``truth`` and ``pred``
    (Float64), ``lower`` and ``upper`` (Float64: a 90 % prediction interval, ``pred`` ± the
    90 % quantile of the learner's absolute residuals in a 5-fold cross-validation on the
    training folds).

    Examples
    --------
    >>> df = fe.datasets.regression_results()
    >>> sorted(df["learner"].unique())
    ['decision_tree', 'gradient_boosting', 'knn', 'random_forest', 'ridge']
    """
    return pl.scan_parquet(REGRESSION_RESULTS) if lazy else pl.read_parquet(REGRESSION_RESULTS)


def items_results(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """The item-level example (for :mod:`frameeval.items` and ``frameeval report --example
    items``).

    Returns
    -------
    One row per (benchmark, model, item, epoch): ``benchmark`` (String: ``breast_cancer``,
    ``digits``, ``iris``, ``wine``), ``model`` (String), ``item`` (Int64, row of the data set),
    ``cluster`` (Int32, the item's k-means cluster, 0–7), ``epoch`` (Int32, 0–4: the answer's
    run) and ``correct`` (Int8, 1 when the answer is the true class).

    Examples
    --------
    >>> df = fe.datasets.items_results()
    >>> df.group_by("benchmark").agg(pl.col("item").n_unique()).sort("benchmark").rows()
    [('breast_cancer', 171), ('digits', 540), ('iris', 45), ('wine', 54)]
    """
    return pl.scan_parquet(ITEMS_RESULTS) if lazy else pl.read_parquet(ITEMS_RESULTS)


def _table(columns: dict[str, list[Any]], lazy: bool) -> pl.DataFrame | pl.LazyFrame:
    df = pl.DataFrame(columns)
    return df.lazy() if lazy else df


def block_error_rates(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Made-up error rates of three learners on four blocks (data sets), the setting of Zhou's
    Table 2.5 (*Machine Learning*, §2.4.4), for the rank-test examples: ``block`` (String,
    "1"–"4"), ``learner`` (String, A, B, C), ``error_rate`` (Float64, lower is better). A ranks
    first on three blocks; the average ranks are 1.25, 2.0, 2.75 and Friedman's τ_χ² = 4.5.

    Examples
    --------
    >>> fe.datasets.block_error_rates().pivot("learner", index="block", values="error_rate").rows()
    [('1', 0.1, 0.2, 0.3), ('2', 0.1, 0.3, 0.2), ('3', 0.2, 0.1, 0.3), ('4', 0.1, 0.2, 0.3)]
    """
    errors = [0.1, 0.2, 0.3, 0.1, 0.3, 0.2, 0.2, 0.1, 0.3, 0.1, 0.2, 0.3]
    blocks = [b for b in "1234" for _ in "ABC"]
    return _table({"block": blocks, "learner": list("ABC") * 4, "error_rate": errors}, lazy)


def paired_accuracies(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Made-up accuracies of two learners on six blocks, for the examples of the two-learner tests
    over many data sets: ``block`` (String, d0–d5), ``learner`` (String, A, B), ``accuracy``
    (Float64). A is better on every block, by 0.01 to 0.06.

    Examples
    --------
    >>> fe.datasets.paired_accuracies().pivot("learner", index="block", values="accuracy").rows()
    [('d0', 0.81, 0.8), ('d1', 0.72, 0.7), ('d2', 0.93, 0.9), ('d3', 0.64, 0.6), ('d4', 0.85, 0.8), ('d5', 0.76, 0.7)]
    """
    accuracy = [0.81, 0.72, 0.93, 0.64, 0.85, 0.76, 0.80, 0.70, 0.90, 0.60, 0.80, 0.70]
    blocks = [f"d{i}" for i in range(6)] * 2
    return _table({"block": blocks, "learner": ["A"] * 6 + ["B"] * 6, "accuracy": accuracy}, lazy)


def binary_scores(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six made-up scored rows for the ROC, P-R, gains, lift and threshold examples: the label
    ``y`` (Int64, 1 = positive) and the score ``s`` (Float64), in descending score. A positive
    and a negative tie at 0.8 (one diagonal ROC step); ROC AUC = 5/6.

    Examples
    --------
    >>> fe.datasets.binary_scores().to_dict(as_series=False)
    {'y': [1, 0, 1, 1, 0, 0], 's': [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}
    """
    return _table({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}, lazy)


def interval_forecasts(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six made-up prediction intervals for the interval examples: the truth ``y`` and the bounds
    ``lo`` <= ``hi`` (Float64). Rows 1, 3, 4 hold their truth, it lies below the interval in
    rows 2 and 6 and above in row 5; mean width 13/12.

    Examples
    --------
    >>> fe.datasets.interval_forecasts().rows()
    [(1.0, 0.5, 1.5), (2.0, 2.5, 3.0), (3.0, 2.0, 4.0), (4.0, 3.0, 5.0), (5.0, 4.0, 4.5), (6.0, 6.5, 7.0)]
    """
    truth, lower = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.5, 2.5, 2.0, 3.0, 4.0, 6.5]
    return _table({"y": truth, "lo": lower, "hi": [1.5, 3.0, 4.0, 5.0, 4.5, 7.0]}, lazy)


def quantile_forecasts(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Made-up quantile forecasts of two instances, one row per instance × level, for the
    quantile examples: ``id`` (Int64), its truth ``y``, the level ``q`` (0.1, 0.5, 0.9) and the
    predicted quantile ``f`` (Float64): instance 1 (truth 3) gets 1, 2, 4; instance 2 (truth 5)
    gets 4, 6, 9.

    Examples
    --------
    >>> fe.datasets.quantile_forecasts().rows()
    [(1, 3.0, 0.1, 1.0), (1, 3.0, 0.5, 2.0), (1, 3.0, 0.9, 4.0), (2, 5.0, 0.1, 4.0), (2, 5.0, 0.5, 6.0), (2, 5.0, 0.9, 9.0)]
    """
    ids, truth, levels = [1, 1, 1, 2, 2, 2], [3.0] * 3 + [5.0] * 3, [0.1, 0.5, 0.9] * 2
    return _table({"id": ids, "y": truth, "q": levels, "f": [1.0, 2.0, 4.0, 4.0, 6.0, 9.0]}, lazy)


__all__ = [
    "EXAMPLE_RESULTS",
    "ITEMS_RESULTS",
    "REGRESSION_RESULTS",
    "binary_scores",
    "block_error_rates",
    "example_results",
    "interval_forecasts",
    "items_results",
    "paired_accuracies",
    "quantile_forecasts",
    "regression_results",
]
