"""The report as sections (issue 33): the roles resolved and the task checked once per report,
a section that does not apply says why in one place, the steps named."""

from __future__ import annotations

import sys

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from frameeval.report import roles as report_roles
from frameeval.report.build import CLASSIFICATION, STEPS
from frameeval.report.page import Page
from frameeval.report.regression import REGRESSION, REGRESSION_STEPS
from frameeval.report.roles import Forecast, ReportRoles, Roles, Unused
from frameeval.report.sections import Options, Section, Study, render


def _classification() -> pl.DataFrame:
    """Two data sets (one binary, one with three classes), three learners, two folds."""
    rng = np.random.default_rng(33)
    n = 2 * 3 * 2 * 15
    frame = pl.DataFrame(
        {
            "dataset": np.repeat(["a", "b"], n // 2),
            "learner": np.tile(np.repeat(["x", "y", "z"], 30), 2),
            "fold": np.tile(np.repeat([0, 1], 15), 6),
            "instance": np.tile(np.arange(30), 6),
            "truth": np.concatenate([rng.integers(0, 2, n // 2), rng.integers(0, 3, n // 2)]),
            "pred": np.concatenate([rng.integers(0, 2, n // 2), rng.integers(0, 3, n // 2)]),
            "score": rng.random(n),
        }
    )
    return frame.with_columns(
        pl.when(pl.col("dataset") == "a").then(pl.col("score")).alias("score")
    )


def _regression() -> pl.DataFrame:
    """Two data sets, two learners, two folds, numeric truth and predictions."""
    rng = np.random.default_rng(34)
    n = 2 * 2 * 2 * 12
    truth = rng.normal(10.0, 2.0, n)
    return pl.DataFrame(
        {
            "dataset": np.repeat(["a", "b"], n // 2),
            "learner": np.tile(np.repeat(["x", "y"], 24), 2),
            "fold": np.tile(np.repeat([0, 1], 12), 4),
            "truth": truth,
            "pred": truth + rng.normal(0.0, 1.0, n),
        }
    )


@pytest.fixture
def task_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call of ``check_task``, wherever a module imported it from: the tasks found."""
    original = report_roles.check_task
    calls: list[str] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = original(*args, **kwargs)
        calls.append(found)
        return found

    for name, module in list(sys.modules.items()):
        if name.startswith("frameeval") and getattr(module, "check_task", None) is original:
            monkeypatch.setattr(module, "check_task", counted)
    return calls


@pytest.mark.parametrize(
    ("make", "task"), [(_classification, "classification"), (_regression, "regression")]
)
def test_write_report_checks_the_task_once(make, task, task_checks, tmp_path) -> None:
    fe.write_report(make(), tmp_path / "report.html")
    assert task_checks == [task]


def test_the_command_line_checks_the_task_once(task_checks, tmp_path, capsys) -> None:
    from frameeval.cli import main

    results = tmp_path / "results.parquet"
    _classification().write_parquet(results)
    assert main(["report", str(results), "-o", str(tmp_path / "r.html"), "-q"]) == 0
    assert task_checks == ["classification"]
    assert "task: classification" not in capsys.readouterr().err  # -q: no progress lines


def test_build_report_checks_the_task_once(task_checks) -> None:
    fe.report.build_report(_classification(), Roles(truth="truth", pred="pred", score="score"))
    assert task_checks == ["classification"]


def _study(**present: str) -> Study:
    roles = Roles(truth="truth", **present)
    return Study(
        task="classification",
        lf=pl.LazyFrame({"truth": [1]}),
        roles=ReportRoles(**vars(roles)),
        present=roles,
        unused=Unused(missing=("pred",)),
        forecast=Forecast(),
        options=Options(),
    )


def test_a_section_that_does_not_apply_says_why_under_its_heading() -> None:
    """``applies`` returns the reason; ``render`` writes it (the body is not drawn); a section
    of another task, or needing a column the results lack, is absent."""
    drawn: list[str] = []
    sections = (
        Section("shown", lambda page, study: drawn.append("shown"), task="classification"),
        Section(
            "skipped",
            lambda page, study: drawn.append("skipped"),
            title="Skipped section",
            why_not=lambda study: "Nothing to show: no pred column.",
        ),
        Section("other task", lambda page, study: drawn.append("other"), task="regression"),
        Section("needs pred", lambda page, study: drawn.append("pred"), needs=("pred",)),
        Section("needs groups", lambda page, study: drawn.append("groups"), needs=("sensitive",)),
    )
    page = Page(title="t")
    said: list[str] = []
    study = _study()
    study.say = said.append
    assert sections[1].applies(study) == "Nothing to show: no pred column."
    assert sections[0].applies(study) is None
    assert render(page, study, sections) == ["shown", "skipped"]
    assert drawn == ["shown"]
    text = page.render()
    assert '<h2 id="skipped-section">Skipped section</h2>' in text
    assert '<p class="skip">Nothing to show: no pred column.</p>' in text


def test_the_label_sections_say_why_without_a_pred_column() -> None:
    """The measures and comparison sections need hard predictions: their reasons name the
    missing role (the page's words)."""
    study = _study(score="score")
    reasons = {
        s.name: s.applies(study) for s in CLASSIFICATION if s.name in ("measures", "compare")
    }
    assert reasons["measures"].startswith("Label measures and confusion matrices need hard")
    assert reasons["compare"].startswith("The tests on accuracy need hard predictions: no pred")


def test_steps_are_named_in_page_order() -> None:
    assert STEPS.answer == "comparing learners" and STEPS.compare == "comparison tests"
    assert [s.step for s in CLASSIFICATION[1:]] == list(STEPS[3:])
    assert [s.step for s in REGRESSION] == list(REGRESSION_STEPS)
    assert REGRESSION_STEPS[0] == "comparing regressors on RMSE"
