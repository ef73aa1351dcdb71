"""Small embedded example result tables (real data).

``example_results()`` — five scikit-learn classifiers (logistic regression, naive Bayes, decision
tree, k-NN, random forest) evaluated by stratified 10-fold cross-validation (seed 0) on four real
data sets shipped with scikit-learn: breast cancer (binary, 1 = malignant), wine, iris and digits.
Made by ``examples/make_example_results.py`` with ``frameeval.split.kfold`` and
``frameeval.evaluate``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

EXAMPLE_RESULTS = Path(__file__).with_name("example_results.parquet")


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


__all__ = ["EXAMPLE_RESULTS", "example_results"]
