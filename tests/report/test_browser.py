"""The report in Debian's headless Chromium, as a reader sees it (issue 18): at 1,400 px and at
800 px, every chart draws, nothing overflows the page horizontally, no chart is wider than the
1,100 px page, and the browser console stays silent (no Vega warning, no error). Runs on the
embedded example and on a synthetic 10-class, 12-learner, 30-data-set study. Chromium is
installed by ``.ci/run``; the test fails (it is not skipped) without it."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

import frameeval as fe
from tests.report.browser import inspect, screenshot
from tests.report.synthetic import one_dataset_results, synthetic_results

pytestmark = pytest.mark.browser

PAGE = 1100  # the report's max-width


@pytest.fixture(scope="module")
def synthetic_report(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("synthetic") / "synthetic.html"
    fe.write_report(synthetic_results(), path, title="Synthetic: 30 data sets, 12 learners")
    return path


@pytest.fixture(scope="module")
def one_dataset_report(tmp_path_factory: pytest.TempPathFactory):
    """Issue 23: one data set, three learners, 10-fold cross-validation."""
    path = tmp_path_factory.mktemp("one") / "one.html"
    fe.write_report(one_dataset_results(), path, title="One data set, three learners")
    return path


#: charts each report draws at least (one data set: no CD diagram, one panel per chart)
MIN_CHARTS = {"example_report": 8, "synthetic_report": 8, "one_dataset_report": 5}


@pytest.mark.parametrize("width", [1400, 800])
@pytest.mark.parametrize("which", ["example_report", "synthetic_report", "one_dataset_report"])
def test_report_renders_fits_and_is_silent(which: str, width: int, request, tmp_path) -> None:
    report = request.getfixturevalue(which)
    seen = inspect(report, width)
    assert seen.charts >= MIN_CHARTS[which]
    assert seen.rendered == seen.charts and seen.errors == 0
    assert seen.charts_without_svg == 0
    assert seen.console == []
    assert seen.scroll_width <= seen.inner_width, (seen.scroll_width, seen.inner_width)
    if width > PAGE:  # the page has its full width: no chart is wider than it
        assert seen.overflowing_charts == [] and seen.widest_chart <= PAGE
    shot = screenshot(report, tmp_path / f"{which}-{width}.png", width, 1600)
    assert shot.stat().st_size > 10_000


def test_the_first_screen_answers(example_report) -> None:
    """The first section is the answer: the compare_learners verdict, the results_table
    (great-tables HTML, with its CSV and LaTeX downloads) and the CD diagram, before the
    drill-down."""
    text = example_report.read_text(encoding="utf-8")
    body = text[text.index("<body>") :]
    answer = body.index('id="the-answer"')
    assert answer < body.index('id="data"') < body.index('id="performance-measures"')
    first = body[answer : body.index('id="data"')]
    assert "logistic_regression ranks best (average rank 1.62)" in first
    assert "p = 0.0477" in first and "no pair differs significantly" in first
    assert 'id="results-table-accuracy"' in first and "gt_table" in first
    assert 'download="results-accuracy.csv"' in first
    assert 'download="results-accuracy.tex"' in first
    assert 'id="chart0"' in first  # the CD diagram is the page's first chart
    # offline: nothing is loaded from the network
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//|@import|<link\b", text)


def test_one_dataset_first_screen_names_the_winner_and_the_significant_pairs(
    one_dataset_report,
) -> None:
    """Issue 23: on one data set the first screen states the best learner and the pairs that
    differ by the corrected resampled t test over the folds (Holm), as compare_learners says on
    the per-fold accuracy; the drill-down lists every pair."""
    data = one_dataset_results()
    per_fold = data.group_by("learner", "fold").agg(fe.accuracy("truth", "pred").alias("accuracy"))
    result = fe.compare_learners(per_fold, "accuracy", learner="learner", fold="fold")
    assert result.procedure == "corrected_t"
    best = result.ranks.filter(pl.col("position") == 1)["learner"][0]
    differ = result.post_hoc.filter(pl.col("reject"))
    assert differ.height >= 1  # the study is built so that some pair differs
    text = html.unescape(one_dataset_report.read_text(encoding="utf-8"))
    body = text[text.index("<body>") :]
    first = body[body.index('id="the-answer"') : body.index('id="data"')]
    assert f"{best} has the best mean accuracy" in first
    assert "Nadeau–Bengio corrected resampled t test with Holm's adjustment" in first
    for row in differ.iter_rows(named=True):
        worse = row["b"] if row["better"] == row["a"] else row["a"]
        assert f"{worse} is significantly worse than {row['better']}" in first
    assert "compare exactly two learners; here there are 3 — see every pair" in body
    assert "Every pair of learners on the folds of the data set" in body
