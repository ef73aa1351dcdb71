"""The reports the report tests read, each built once per test session: a test that takes one
(as a fixture argument) joins that report's xdist group, so the one worker that builds it runs
every test that reads it (tests/report/test_browser.py marks its parametrized cases itself)."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from tests.report.synthetic import breast_cancer_with_size

#: the reports (session fixtures here, module fixtures in their test files): one xdist group each
REPORTS = (
    "example_report",
    "regression_report",
    "subgroups_report",
    "synthetic_report",
    "one_dataset_report",
    "quantile_page",
)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for name in REPORTS:
            if name in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(name))


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
def subgroups_report(tmp_path_factory: pytest.TempPathFactory):
    """Issue 36: the Subgroups section (--sensitive size texture) on real data, built once per
    test session (tests/report/test_subgroups.py and test_browser.py read it)."""
    path = tmp_path_factory.mktemp("subgroups") / "subgroups.html"
    fe.write_report(breast_cancer_with_size(), path, sensitive=["size", "texture"])
    return path


@pytest.fixture(scope="session")
def regression_report(tmp_path_factory: pytest.TempPathFactory):
    """The report of the embedded regression example (its interval columns inferred), built
    once per test session."""
    path = tmp_path_factory.mktemp("regression") / "regression.html"
    fe.write_report(fe.datasets.regression_results(), path, title="Regression example")
    return path
