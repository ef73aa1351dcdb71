"""The regression report (issue 24): the task detected and said, the answer on RMSE by
``compare_learners`` (verdict, results table, CD diagram), the measures table, the residual
charts, and the interval and quantile sections when their columns are there. Each study is
built once per module (a report build takes seconds)."""

from __future__ import annotations

import html
import re

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.compare.words import format_value
from frameeval.report import build_report
from frameeval.report.answer import for_reader
from frameeval.report.build import CLASSIFICATION, SECTIONS
from frameeval.report.page import header
from frameeval.report.regression import REGRESSION
from frameeval.report.roles import Roles
from frameeval.report.sections import Forecast
from frameeval.report.subgroups import SUBGROUPS


def _text(path) -> str:
    return html.unescape(path.read_text(encoding="utf-8"))


def _body(text: str) -> str:
    return text[text.index("<body><h1") :]


def test_the_first_screen_names_the_best_regressor_and_the_verdict(regression_report) -> None:
    """The answer is compare_learners' on the RMSE per data set (mean over the folds), lower
    is better: the same best learner and the same test as calling it directly."""
    data = fe.datasets.regression_results()
    per_fold = data.group_by("dataset", "learner", "repeat", "fold").agg(fe.rmse("truth", "pred"))
    result = fe.compare_learners(
        per_fold,
        "rmse",
        block="dataset",
        learner="learner",
        fold="fold",
        repeat="repeat",
        higher_is_better=False,
    )
    best = result.ranks.sort("average_rank")["learner"][0]
    body = _body(_text(regression_report))
    first = body[body.index('id="the-answer"') : body.index('id="data"')]
    # the whole verdict: best, and whether it is significant (for a reader: no Python path)
    assert for_reader(result.verdict) in first
    assert best == "ridge" and result.procedure == "friedman"
    assert "Which learner is best on RMSE?" in first
    assert "ridge ranks best (average rank 1.500)" in first
    assert "does not reject that all learners perform the same" in first  # not significant
    assert 'id="results-table-rmse"' in first and 'download="results-rmse.csv"' in first
    assert 'id="chart0"' in first  # the CD diagram
    assert "RMSE: lower is better." in first


def test_the_sections_follow_the_answer(regression_report) -> None:
    text = _text(regression_report)
    body = _body(text)
    order = [
        'id="the-answer"',
        'id="data"',
        'id="regression-measures"',
        'id="residuals"',
        'id="prediction-intervals"',
    ]
    at = [body.index(anchor) for anchor in order]
    assert at == sorted(at)
    assert "Task: regression (detected: the truth or pred column holds non-integral" in body
    assert "forecast columns: lower = 'lower', upper = 'upper'" in body
    assert 'id="performance-measures"' not in body  # no classification section
    assert 'id="quantile-forecasts"' not in body  # no quantile column
    assert 'download="regression-measures.csv"' in body
    for name in ("rmse", "mae", "interval_coverage", "interval_score"):
        assert f">{html.escape(header(name))}</th>" in body


def test_the_measures_table_is_fe_measures(regression_report) -> None:
    """The CSV download is fe.measures on the rows, per data set × learner."""
    text = regression_report.read_text(encoding="utf-8")
    found = re.search(
        r'download="regression-measures.csv" href="data:text/csv;charset=utf-8,'
        r'([^"]+)"',
        text,
    )
    assert found is not None
    from urllib.parse import unquote

    shown = pl.read_csv(unquote(found.group(1)).encode())
    chosen = [c for c in shown.columns if c not in ("dataset", "learner")]
    asked = [c.replace("mean_residual", "mean_error") for c in chosen]
    expected = fe.measures(
        fe.datasets.regression_results(),
        truth="truth",
        pred="pred",
        by=["dataset", "learner"],
        measures=asked,
    ).sort("dataset", "learner")
    # one residual sign on the page (issue 32): the mean residual is truth − pred
    expected = expected.with_columns((-pl.col("mean_error")).alias("mean_residual"))
    assert shown["dataset"].to_list() == expected["dataset"].to_list()
    for name in chosen:
        np.testing.assert_allclose(
            shown[name].to_numpy(), expected[name].to_numpy(), rtol=1e-9, equal_nan=True
        )


def quantile_study() -> pl.DataFrame:
    """One data set, three learners of growing noise, 5 folds, quantile forecasts at three
    levels (one row per instance × level; no crossing)."""
    rng = np.random.default_rng(3)
    n, levels, z = 300, [0.1, 0.5, 0.9], [-1.2816, 0.0, 1.2816]
    truth = rng.normal(10.0, 3.0, n)
    parts = []
    for learner, noise in (("sharp", 0.5), ("middling", 1.5), ("vague", 3.0)):
        center = truth + rng.normal(0.0, noise, n)
        for level, quantile in zip(levels, z, strict=True):
            parts.append(
                pl.DataFrame(
                    {
                        "model": learner,
                        "fold": np.arange(n) % 5,
                        "row_id": np.arange(n),
                        "y_true": truth,
                        "y_pred": center + quantile * noise,
                        "quantile": level,
                    }
                )
            )
    return pl.concat(parts)


@pytest.fixture(scope="module")
def quantile_page() -> str:
    data = quantile_study()
    roles = Roles(truth="y_true", pred="y_pred", learner="model", fold="fold", instance="row_id")
    page = build_report(data, roles, task="regression", forecast=Forecast(quantile="quantile"))
    return html.unescape(page.render())


def test_a_quantile_study_on_one_data_set(quantile_page) -> None:
    """The median rows answer on one data set's folds (the split-level path of
    compare_learners); the quantile section shows pinball loss and coverage per level."""
    body = _body(quantile_page)
    first = body[body.index('id="the-answer"') : body.index('id="data"')]
    assert "sharp" in first and "significantly worse than sharp" in first
    assert "Task: regression (given (task= / --task))." in body
    assert 'id="quantile-forecasts"' in body and ">pinball loss</th>" in body
    assert 'id="prediction-intervals"' not in body
    scores = fe.quantile_scores(
        quantile_study(), truth="y_true", pred="y_pred", quantile="quantile", by="model"
    ).sort("model", "quantile")
    sharp = scores.filter(pl.col("model") == "sharp")
    assert f"<td>{format_value(sharp['pinball_loss'][0])}</td>" in body


def test_the_sections_declare_their_task_and_needs() -> None:
    """build.py only orders the sections: every regression section is a Section of the
    regression task, the interval and quantile ones need their columns, and the classification
    ones are untouched by them (the Subgroups section comes last, for either task)."""
    assert SECTIONS == CLASSIFICATION + REGRESSION + SUBGROUPS
    assert {s.task for s in CLASSIFICATION} == {"classification"}
    assert {s.task for s in REGRESSION} == {"regression"}
    needs = {s.name: s.needs for s in REGRESSION}
    assert needs["intervals"] == ("lower", "upper") and needs["quantiles"] == ("quantile",)
    assert len({s.name for s in SECTIONS}) == len(SECTIONS)


def test_many_learners_on_one_data_set_without_folds() -> None:
    """Twenty learners: the two-dimensional histograms use fewer bins (every chart's data under
    Altair's 5,000 rows: 30 bins would give up to 18,000 cells); one data set without folds:
    the verdict names the best RMSE and says no test over data sets can be run."""
    rng = np.random.default_rng(5)
    truth = rng.normal(0.0, 1.0, 400)
    data = pl.concat(
        pl.DataFrame({"model": f"m{i:02d}", "y": truth, "p": truth + rng.normal(0, 0.1 + i, 400)})
        for i in range(20)
    )
    page = build_report(data, Roles(truth="y", pred="p", learner="model"))
    specs = page._specs
    sizes = [len(rows) for spec in specs for rows in spec.get("datasets", {}).values()]
    assert len(specs) >= 3 and sizes and max(sizes) <= 5000
    text = html.unescape(page.render())
    assert "m00 has the best RMSE" in text
    assert "Task: regression (detected" in text
