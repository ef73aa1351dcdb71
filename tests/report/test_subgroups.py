"""The report's Subgroups section (``--sensitive``): it answers first with the numbers of
fe.subgroups.gaps / compare_gaps, shows the gap table, one chart per data set and the slices;
absent without ``sensitive``; a missing column is a typed error, also on the command line."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

import frameeval as fe
from frameeval.exceptions import ColumnNotFoundError
from tests.report.synthetic import breast_cancer_with_size


@pytest.fixture(scope="module")
def page(subgroups_report) -> str:
    """The session's Subgroups report (tests/report/conftest.py), as text."""
    return html.unescape(subgroups_report.read_text(encoding="utf-8"))


def test_the_section_answers_first_with_the_gaps_numbers(page: str) -> None:
    data = breast_cancer_with_size()
    common = {
        "sensitive": ["size", "texture"],
        "measures": ["recall", "selection_rate", "accuracy"],
    }
    gaps = fe.subgroups.gaps(
        data, "truth", "pred", by=["dataset", "learner"], ci=0.95, instance="instance", **common
    )
    recall = gaps.filter(pl.col("measure") == "recall").sort("difference", descending=True)
    worst, best = recall.row(0, named=True), recall.row(recall.height - 1, named=True)
    section = page[page.index('id="subgroups"') :]
    first = re.sub(r"<[^>]+>", " ", section[: section.index("Gaps across")])
    expected = (
        f"{worst['learner']}'s recall gap across size × texture groups is "
        f"{worst['difference']:.2f} [{worst['difference_low']:.2f}, "
        f"{worst['difference_high']:.2f}]"
    )
    assert expected in first
    assert f"{best['learner']}'s {best['difference']:.2f}" in first
    assert "paired bootstrap, Holm-adjusted p = " in first
    assert "Learners' gaps compared on the same rows" in section
    assert "the slices where it errs most (SliceLine" in section
    assert "size=" in section and "texture=" in section


def test_absent_without_sensitive_and_a_missing_column_is_an_error(tmp_path) -> None:
    data = breast_cancer_with_size()
    path = tmp_path / "plain.html"
    fe.write_report(data, path)
    assert 'id="subgroups"' not in path.read_text(encoding="utf-8")
    with pytest.raises(ColumnNotFoundError, match=r"column 'age' \(sensitive=\) not found"):
        fe.write_report(data, tmp_path / "x.html", sensitive="age")


def test_the_command_line_flag(tmp_path) -> None:
    from frameeval.cli import main

    source = tmp_path / "results.parquet"
    breast_cancer_with_size().write_parquet(source)
    out = tmp_path / "cli.html"
    assert main(["report", str(source), "-o", str(out), "--sensitive", "size", "-q"]) == 0
    assert 'id="subgroups"' in out.read_text(encoding="utf-8")
