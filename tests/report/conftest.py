from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe


@pytest.fixture(scope="session")
def example_report(tmp_path_factory: pytest.TempPathFactory):
    """The report of the embedded example (all data sets), built once per test session."""
    path = tmp_path_factory.mktemp("report") / "report.html"
    fe.write_report(fe.datasets.example_results(), path)
    return path


@pytest.fixture(scope="session")
def small_results() -> pl.DataFrame:
    """Two data sets (one binary with scores), three learners: quick to report on."""
    data = fe.datasets.example_results()
    return data.filter(
        pl.col("dataset").is_in(["breast_cancer", "iris"])
        & pl.col("learner").is_in(["decision_tree", "knn", "naive_bayes"])
    )


@pytest.fixture(scope="session")
def regression_report(tmp_path_factory: pytest.TempPathFactory):
    """The report of the embedded regression example (its interval columns inferred), built
    once per test session."""
    path = tmp_path_factory.mktemp("regression") / "regression.html"
    fe.write_report(fe.datasets.regression_results(), path, title="Regression example")
    return path
