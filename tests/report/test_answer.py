"""The first screen's answer (stand-in until compare_learners / results_table are merged):
the verdict states what fe.friedman, fe.nemenyi and fe.average_ranks found, in words."""

from __future__ import annotations

import polars as pl
import pytest

import frameeval as fe
from frameeval.report.answer import answer


@pytest.fixture(scope="module")
def per_dataset() -> pl.DataFrame:
    data = fe.datasets.example_results()
    per_fold = data.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    return per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())


def test_example_verdict_names_the_best_learner_and_what_the_tests_allow(per_dataset) -> None:
    """Issue 18's worked example: logistic regression has the best average rank (1.62),
    Friedman's F form rejects (p = 0.048) while its χ² form does not (p = 0.078), and no
    Nemenyi pair differs."""
    with pytest.warns(UserWarning, match="χ² approximation"):
        found = answer(per_dataset, "accuracy", block="dataset", learner="learner")
    assert found.verdict.startswith(
        "logistic_regression ranks best on accuracy (average rank 1.62 of 5 learners over "
        "N = 4 datasets)."
    )
    assert "p = 0.0477: we reject that all learners perform alike at α = 0.05" in found.verdict
    assert "(χ² form p = 0.078)" in found.verdict
    assert "Nemenyi CD = 3.05: no pair of learners differs significantly." in found.verdict
    assert found.ranks["learner"].to_list()[0] == "logistic_regression"
    assert abs(found.cd - 3.0497) < 1e-4
    # the table: learners by average rank, best of each row in bold, an average-rank row
    assert found.table_html.index("logistic_<wbr>regression") < found.table_html.index(
        "decision_<wbr>tree"
    )
    assert "<td><b>0.977</b></td>" in found.table_html  # breast_cancer: logistic_regression
    assert '<tr class="rank"><td class="text">average rank</td><td>1.62</td>' in found.table_html
    assert list(found.downloads) == ["results-accuracy.csv"]


def test_pairs_that_differ_are_named() -> None:
    blocks = [f"b{i}" for i in range(12)]
    data = pl.DataFrame(
        {
            "dataset": blocks * 3,
            "learner": ["good"] * 12 + ["middle"] * 12 + ["bad"] * 12,
            "accuracy": [0.9] * 12 + [0.8] * 12 + [0.7] * 12,
        }
    )
    found = answer(data, "accuracy", block="dataset", learner="learner")
    assert "good ranks best" in found.verdict
    # the largest rank difference first
    assert "Nemenyi CD = 0.96: 3 of 3 pairs differ significantly (good > bad, " in found.verdict
    assert "middle > bad" in found.verdict and "good > middle" in found.verdict


def test_one_learner_or_one_block_says_what_cannot_be_concluded() -> None:
    one = pl.DataFrame({"dataset": ["a", "b"], "learner": ["x", "x"], "accuracy": [0.5, 0.6]})
    found = answer(one, "accuracy", block="dataset", learner="learner")
    assert found.verdict == "Only one learner: nothing to compare on accuracy."
    assert found.ranks is None and found.cd is None
    block = pl.DataFrame({"dataset": ["a", "a"], "learner": ["x", "y"], "accuracy": [0.5, 0.6]})
    found = answer(block, "accuracy", block="dataset", learner="learner")
    assert found.verdict.startswith("y has the best accuracy (0.600) on the one dataset.")
    assert "needs at least two" in found.verdict
