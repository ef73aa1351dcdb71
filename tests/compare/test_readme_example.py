"""README's comparison example: six data sets, three learners, the automatic path."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

import frameeval as fe

SCORES = {
    "dataset": ["d1", "d2", "d3", "d4", "d5", "d6"] * 3,
    "model": ["a"] * 6 + ["b"] * 6 + ["c"] * 6,
    "accuracy": [
        *(0.81, 0.77, 0.90, 0.68, 0.85, 0.73),
        *(0.79, 0.75, 0.91, 0.66, 0.84, 0.74),
        *(0.70, 0.69, 0.80, 0.60, 0.77, 0.64),
    ],
}


def test_readme_example_finds_a_c_and_b_c_automatically() -> None:
    """Six blocks: normality can be checked (Shapiro–Wilk per learner passes), so the
    repeated-measures ANOVA decides, and its Tukey HSD on the repeated-measures error term
    (MS_error on (k − 1)(N − 1) = 10 df, checked here by hand) separates a and b from c."""
    result = fe.compare_learners(pl.DataFrame(SCORES), "accuracy")
    assert result.procedure == "anova"
    x = np.array(SCORES["accuracy"]).reshape(3, 6).T  # blocks × learners
    n, k = x.shape
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
    ms_error = (resid**2).sum() / ((k - 1) * (n - 1))
    hsd = stats.studentized_range.ppf(0.95, k, (k - 1) * (n - 1)) * np.sqrt(ms_error / n)
    ph = result.post_hoc.sort("a", "b")
    assert ph["critical_value"].to_list() == pytest.approx([hsd] * 3, rel=1e-9)
    assert ph.select("a", "b", "reject", "better").rows() == [
        ("a", "b", False, None),
        ("a", "c", True, "a"),
        ("b", "c", True, "b"),
    ]
    assert "a > c" in result.verdict and "b > c" in result.verdict
    assert "No other pair differs significantly." in result.verdict
