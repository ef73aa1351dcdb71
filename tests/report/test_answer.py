"""The first screen's answer: the verdict is fe.compare_learners', the table fe.results_table's
(great-tables HTML, offline and scoped), and the table is offered as CSV and LaTeX."""

from __future__ import annotations

import re

import polars as pl
import pytest

import frameeval as fe
from frameeval.report.answer import answer, offline_table_html


@pytest.fixture(scope="module")
def per_dataset() -> pl.DataFrame:
    data = fe.datasets.example_results()
    per_fold = data.group_by("dataset", "learner", "repeat", "fold").agg(
        fe.accuracy("truth", "pred")
    )
    return per_fold.group_by("dataset", "learner").agg(pl.col("accuracy").mean())


def test_example_verdict_is_compare_learners(per_dataset) -> None:
    """Issue 18's worked example: logistic regression has the best average rank (1.625),
    Friedman's F form rejects (p = 0.0477) while its χ² form does not (p = 0.0780), and no
    Nemenyi pair differs."""
    found = answer(per_dataset, "accuracy", block="dataset", learner="learner")
    result = fe.compare_learners(
        per_dataset, "accuracy", block="dataset", learner="learner", higher_is_better=True
    )
    assert found.verdict == result.verdict and found.procedure == "friedman"
    assert found.verdict.startswith("logistic_regression ranks best (average rank 1.625)")
    assert "F_F = 3.32, p = 0.0477; χ²_F = 8.40, p = 0.0780" in found.verdict
    assert "no pair differs significantly by the Nemenyi test" in found.verdict
    assert "CD = 3.05 with N = 4" in found.verdict
    assert found.ranks["learner"].to_list()[0] == "logistic_regression"
    assert abs(found.cd - 3.0497) < 1e-4
    assert list(found.downloads) == ["results-accuracy.csv", "results-accuracy.tex"]


def test_the_table_is_results_table(per_dataset) -> None:
    found = answer(per_dataset, "accuracy", block="dataset", learner="learner", description="mean")
    html = found.table_html
    assert 'id="results-table-accuracy"' in html and "gt_table" in html
    assert "accuracy per dataset (mean)" in html
    # learners in average-rank order, an average-rank row, the footnote names the test
    assert html.index("logistic_regression") < html.index("decision_tree")
    assert "average rank" in html and "Nemenyi test" in html
    mime, latex = found.downloads["results-accuracy.tex"]
    assert mime == "application/x-latex"
    assert latex == fe.results_table(
        per_dataset,
        "accuracy",
        block="dataset",
        learner="learner",
        higher_is_better=True,
        significance=fe.compare_learners(
            per_dataset, "accuracy", block="dataset", learner="learner", higher_is_better=True
        ),
        format="latex",
    )
    assert r"logistic\_regression" in latex and r"\textbf{0.977}" in latex


def test_table_html_is_offline_and_scoped(per_dataset) -> None:
    html = answer(per_dataset, "accuracy", block="dataset", learner="learner").table_html
    assert not re.search(r"@import|<link\b|url\(|(?:src|href)=\"(?:https?:)?//", html)
    css = html[html.index("<style>") + 7 : html.index("</style>")]
    selectors = re.findall(r"(?m)^([^{}@]*?)\s*\{", css)
    assert selectors
    for rule in selectors:
        for selector in rule.split(","):
            assert selector.strip().startswith("#results-table-accuracy"), selector
    raw = (
        '<div id="t"><style>\n@import url("https://fonts.googleapis.com/css?x");\n'
        "#t thead, tbody, tr { border: 0; }\n tr { color: red; }\n"
        '#t .a { background: url(https://x.org/i.png); }</style><link rel="stylesheet" '
        'href="https://x.org/s.css"><table></table></div>'
    )
    clean = offline_table_html(raw, "t")
    assert "http" not in clean and "<link" not in clean
    assert "#t thead, #t tbody, #t tr {" in clean and "#t tr {" in clean


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
    assert found.verdict.startswith("good ranks best")
    assert "good > middle" in found.verdict and "good > bad" in found.verdict
    assert "middle > bad" in found.verdict
    assert found.table_html.count("†") >= 12  # every bad / middle cell is marked


def test_one_learner_or_one_block_says_what_cannot_be_concluded() -> None:
    one = pl.DataFrame({"dataset": ["a", "b"], "learner": ["x", "x"], "accuracy": [0.5, 0.6]})
    found = answer(one, "accuracy", block="dataset", learner="learner")
    assert found.verdict == "Only one learner: nothing to compare on accuracy."
    assert found.ranks is None and found.cd is None and "gt_table" in found.table_html
    block = pl.DataFrame({"dataset": ["a", "a"], "learner": ["x", "y"], "accuracy": [0.5, 0.6]})
    found = answer(block, "accuracy", block="dataset", learner="learner")
    assert found.verdict.startswith("y has the best accuracy (0.600) on the one dataset.")
    assert "needs at least two" in found.verdict
    tied = pl.DataFrame(
        {"dataset": ["a", "a", "b", "b"], "learner": ["x", "y"] * 2, "accuracy": [0.5] * 4}
    )
    found = answer(tied, "accuracy", block="dataset", learner="learner")
    assert found.verdict.startswith("Nothing can be concluded: all 2 learners")
    assert found.ranks is None and found.procedure == "none"
