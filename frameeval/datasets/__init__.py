"""Small embedded example result tables (real data).

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
"""

from __future__ import annotations

from pathlib import Path

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
    >>> import frameeval as fe
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
    >>> import frameeval as fe
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
    >>> import frameeval as fe, polars as pl
    >>> df = fe.datasets.items_results()
    >>> df.group_by("benchmark").agg(pl.col("item").n_unique()).sort("benchmark").rows()
    [('breast_cancer', 171), ('digits', 540), ('iris', 45), ('wine', 54)]
    """
    return pl.scan_parquet(ITEMS_RESULTS) if lazy else pl.read_parquet(ITEMS_RESULTS)


__all__ = [
    "EXAMPLE_RESULTS",
    "ITEMS_RESULTS",
    "REGRESSION_RESULTS",
    "example_results",
    "items_results",
    "regression_results",
]
