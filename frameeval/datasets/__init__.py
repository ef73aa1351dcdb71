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

The worked-example tables are made up, a handful of rows each, so that a docstring's result can be
checked by hand; several docstrings share each one (its own docstring shows it whole):

- ``block_error_rates()`` — three learners' error rates on four blocks (data sets), the setting
  of Zhou's Table 2.5: the rank tests (Friedman, Quade, Nemenyi, Shaffer…).
- ``paired_accuracies()`` — two learners' accuracies on six blocks: the two-learner tests on
  many data sets (Wilcoxon, Bayesian signed-rank).
- ``binary_scores()`` — six binary labels with a score, one tie: ROC, P-R, gains and lift
  curves, thresholds.
- ``binary_predictions()`` — six binary labels with a predicted label: confusion counts and the
  bootstrap.
- ``binary_probabilities()`` — six binary labels with a predicted probability: calibration.
- ``interval_forecasts()`` — six true values with a prediction interval each.
- ``quantile_forecasts()`` — two instances' quantile forecasts at the levels 0.1, 0.5, 0.9.
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


def _table(columns: dict[str, list[Any]], lazy: bool) -> pl.DataFrame | pl.LazyFrame:
    df = pl.DataFrame(columns)
    return df.lazy() if lazy else df


def block_error_rates(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Error rates of three learners A, B, C on four blocks (data sets) 1–4: the setting of
    Zhou's Table 2.5 (made-up values), for the examples of the rank tests.

    A ranks first on three blocks and its average rank is 1.25; B's is 2.0 and C's 2.75. With
    N = 4 blocks the Friedman statistic τ_χ² is 4.5 (p ≈ 0.105 on 2 degrees of freedom).

    Returns
    -------
    Twelve rows, one per block × learner: ``block`` (String, ``"1"``–``"4"``), ``learner``
    (String, ``"A"``, ``"B"``, ``"C"``) and ``error_rate`` (Float64; lower is better).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.5.

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.block_error_rates().pivot("learner", index="block", values="error_rate")
    shape: (4, 4)
    ┌───────┬─────┬─────┬─────┐
    │ block ┆ A   ┆ B   ┆ C   │
    │ ---   ┆ --- ┆ --- ┆ --- │
    │ str   ┆ f64 ┆ f64 ┆ f64 │
    ╞═══════╪═════╪═════╪═════╡
    │ 1     ┆ 0.1 ┆ 0.2 ┆ 0.3 │
    │ 2     ┆ 0.1 ┆ 0.3 ┆ 0.2 │
    │ 3     ┆ 0.2 ┆ 0.1 ┆ 0.3 │
    │ 4     ┆ 0.1 ┆ 0.2 ┆ 0.3 │
    └───────┴─────┴─────┴─────┘
    """
    errors = [0.1, 0.2, 0.3, 0.1, 0.3, 0.2, 0.2, 0.1, 0.3, 0.1, 0.2, 0.3]
    blocks = [b for b in "1234" for _ in "ABC"]
    return _table({"block": blocks, "learner": list("ABC") * 4, "error_rate": errors}, lazy)


def paired_accuracies(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Accuracies of two learners A and B on six blocks (data sets) d0–d5 (made-up values), for
    the examples of the two-learner tests over many data sets.

    A is better on every block, by 0.01 to 0.06.

    Returns
    -------
    Twelve rows, one per block × learner: ``block`` (String, ``"d0"``–``"d5"``), ``learner``
    (String, ``"A"``, ``"B"``) and ``accuracy`` (Float64; higher is better).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.paired_accuracies().pivot("learner", index="block", values="accuracy").rows()
    [('d0', 0.81, 0.8), ('d1', 0.72, 0.7), ('d2', 0.93, 0.9), ('d3', 0.64, 0.6), ('d4', 0.85, 0.8), ('d5', 0.76, 0.7)]
    """
    accuracy = [0.81, 0.72, 0.93, 0.64, 0.85, 0.76, 0.80, 0.70, 0.90, 0.60, 0.80, 0.70]
    blocks = [f"d{i}" for i in range(6)] * 2
    return _table({"block": blocks, "learner": ["A"] * 6 + ["B"] * 6, "accuracy": accuracy}, lazy)


def binary_scores(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six binary labels with a score (made up), for the examples of the ROC, P-R, gains and
    lift curves and of the threshold tables.

    Three positives and three negatives; a positive and a negative tie at score 0.8, so the ROC
    curve has one diagonal step. ROC AUC = 5/6.

    Returns
    -------
    Six rows in descending score: ``y`` (Int64, the true label, 1 = positive) and ``s``
    (Float64, the score; higher means more likely positive).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.binary_scores().to_dict(as_series=False)
    {'y': [1, 0, 1, 1, 0, 0], 's': [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}
    """
    return _table({"y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.4, 0.3, 0.1]}, lazy)


def binary_predictions(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six binary labels with a predicted label (made up), for the examples of the confusion
    counts and the bootstrap.

    TP = 2, FN = 1, FP = 1, TN = 2: accuracy 4/6.

    Returns
    -------
    Six rows: ``y`` (Int64, the true label, 1 = positive) and ``p`` (Int64, the predicted
    label).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.binary_predictions().to_dict(as_series=False)
    {'y': [1, 0, 1, 1, 0, 0], 'p': [1, 0, 0, 1, 1, 0]}
    """
    return _table({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0]}, lazy)


def binary_probabilities(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six binary labels with a predicted probability of the positive class (made up), for the
    examples of the calibration curve and errors.

    Returns
    -------
    Six rows in ascending probability: ``y`` (Int64, the true label, 1 = positive) and ``p``
    (Float64, the predicted probability of 1).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.binary_probabilities().to_dict(as_series=False)
    {'y': [0, 0, 1, 0, 1, 1], 'p': [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]}
    """
    return _table({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9]}, lazy)


def interval_forecasts(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Six true values, each with a prediction interval (made up), for the examples of the
    interval coverage, width and score.

    Three of the six intervals hold their true value (rows 1, 3 and 4); the truth lies below the
    interval in rows 2 and 6 and above it in row 5. Mean width 13/12.

    Returns
    -------
    Six rows: ``y`` (Float64, the true value), ``lo`` and ``hi`` (Float64, the interval's lower
    and upper bound, ``lo <= hi``).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.interval_forecasts().rows()
    [(1.0, 0.5, 1.5), (2.0, 2.5, 3.0), (3.0, 2.0, 4.0), (4.0, 3.0, 5.0), (5.0, 4.0, 4.5), (6.0, 6.5, 7.0)]
    """
    columns = {
        "y": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        "lo": [0.5, 2.5, 2.0, 3.0, 4.0, 6.5],
        "hi": [1.5, 3.0, 4.0, 5.0, 4.5, 7.0],
    }
    return _table(columns, lazy)


def quantile_forecasts(lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Quantile forecasts of two instances at the levels 0.1, 0.5 and 0.9 (made up), for the
    examples of the pinball loss, the weighted interval score and the coverage chart, in the
    long format (one row per instance × level).

    Instance 1 (truth 3) is forecast 1, 2, 4; instance 2 (truth 5) is forecast 4, 6, 9.

    Returns
    -------
    Six rows: ``id`` (Int64, the instance), ``y`` (Float64, its true value), ``q`` (Float64, the
    level) and ``f`` (Float64, the predicted quantile at that level).

    Examples
    --------
    >>> import frameeval as fe
    >>> fe.datasets.quantile_forecasts().rows()
    [(1, 3.0, 0.1, 1.0), (1, 3.0, 0.5, 2.0), (1, 3.0, 0.9, 4.0), (2, 5.0, 0.1, 4.0), (2, 5.0, 0.5, 6.0), (2, 5.0, 0.9, 9.0)]
    """
    columns = {
        "id": [1, 1, 1, 2, 2, 2],
        "y": [3.0, 3.0, 3.0, 5.0, 5.0, 5.0],
        "q": [0.1, 0.5, 0.9, 0.1, 0.5, 0.9],
        "f": [1.0, 2.0, 4.0, 4.0, 6.0, 9.0],
    }
    return _table(columns, lazy)


__all__ = [
    "EXAMPLE_RESULTS",
    "ITEMS_RESULTS",
    "REGRESSION_RESULTS",
    "binary_predictions",
    "binary_probabilities",
    "binary_scores",
    "block_error_rates",
    "example_results",
    "interval_forecasts",
    "items_results",
    "paired_accuracies",
    "quantile_forecasts",
    "regression_results",
]
