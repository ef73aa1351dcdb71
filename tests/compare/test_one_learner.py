"""Tests of frameeval.compare.one_learner: binomial_test, binomial_distribution (figure 2.6) and
t_test (eqs 2.28–2.30).

Oracles: scipy.stats.binomtest / binom (the definition of the corrected eq 2.27 searched by
brute force) and scipy.stats.ttest_1samp, run per group on ``partition_by``.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    InsufficientDataError,
    InvalidParameterError,
    MissingValueError,
)
from tests.compare._tables import assert_frames_close, shuffled
from tests.helpers.oracle import assert_close, per_group


# ---------------------------------------------------------------------------------------------
# binomial test
# ---------------------------------------------------------------------------------------------
def test_figure_2_6_distribution_matches_the_notes():
    """Golden: the notes ("图 2.6 的 Matlab 绘制", shared/seeds/000) list P(ε̂ = k/10 | ε = 0.3)
    for k = 0…10 to six decimals (0.0014470 for k = 8 is 0.001447 with a trailing zero)."""
    notes = [
        0.028248,
        0.121061,
        0.233474,
        0.266828,
        0.200121,
        0.102919,
        0.036757,
        0.009002,
        0.0014470,
        0.000138,
        0.000006,
    ]
    out = fe.binomial_distribution(10, 0.3)
    assert out["errors"].to_list() == list(range(11))
    assert out["error_rate"].to_list() == [k / 10 for k in range(11)]
    assert out["probability"].round(6).to_list() == notes
    assert out["probability"].sum() == pytest.approx(1.0, abs=1e-12)


def brute_force_critical(m: int, eps0: float, alpha: float) -> int:
    """The corrected eq 2.27 read literally: the smallest c with P(X > c | ε0) < α."""
    return next(c for c in range(m + 1) if stats.binom.sf(c, m, eps0) < alpha)


def test_the_book_example_rejects_above_the_corrected_critical_rate():
    """m = 10, ε0 = 0.3, α = 0.05: P(X > 4) = 0.150 ≥ α and P(X > 5) = 0.047 < α, so c = 5 and
    ε̄ = 0.5 (the tail k = 6…10 of figure 2.6 holds less than α)."""
    out = fe.binomial_test(errors=6, m=10, eps0=0.3).row(0, named=True)
    assert out["critical_count"] == 5 and out["critical_value"] == 0.5
    assert out["reject"] is True and out["statistic"] == 0.6
    assert out["p_value"] == pytest.approx(stats.binom.sf(5, 10, 0.3), abs=1e-15)
    assert fe.binomial_test(errors=5, m=10, eps0=0.3)["reject"].item() is False
    tail = fe.binomial_distribution(10, 0.3, alpha=0.05)
    assert tail.filter("reject")["errors"].to_list() == [6, 7, 8, 9, 10]
    assert tail.filter("reject")["probability"].sum() < 0.05
    assert tail.filter(pl.col("errors") >= 5)["probability"].sum() >= 0.05


@given(
    m=st.integers(1, 60),
    eps0=st.floats(0, 1),
    alpha=st.sampled_from([0.01, 0.05, 0.1, 0.25]),
    share=st.floats(0, 1),
)
def test_binomial_test_matches_definition_and_scipy(m, eps0, alpha, share):
    errors = round(share * m)
    out = fe.binomial_test(errors=errors, m=m, eps0=eps0, alpha=alpha).row(0, named=True)
    c = brute_force_critical(m, eps0, alpha)
    assert out["critical_count"] == c
    assert out["critical_value"] == c / m
    expected_p = stats.binomtest(errors, m, eps0, alternative="greater").pvalue
    assert_close(out["p_value"], expected_p, 1e-9)
    assert out["reject"] == (errors > c) == (expected_p < alpha)


@st.composite
def predictions(draw):
    n = draw(st.integers(1, 40))
    g = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    p = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return pl.DataFrame({"g": g, "y": y, "p": p})


@given(df=predictions(), eps0=st.floats(0.05, 0.6))
def test_binomial_frame_form_equals_the_numbers_form_per_group(df, eps0):
    out = fe.binomial_test(df, truth="y", pred="p", eps0=eps0, by="g")

    def oracle(part):
        errors = int((part["y"] != part["p"]).sum())
        return fe.binomial_test(errors=errors, m=part.height, eps0=eps0).row(0, named=True)

    expected = per_group(df, ["g"], oracle)
    assert out.equals(expected.select(out.columns))
    # row order, laziness and the frame kind do not matter
    lazy = fe.binomial_test(shuffled(df).lazy(), truth="y", pred="p", eps0=eps0, by="g")
    assert isinstance(lazy, pl.LazyFrame) and lazy.collect().equals(out)


def test_binomial_test_errors():
    df = pl.DataFrame({"y": [1, 0], "p": [1, 1]})
    with pytest.raises(InvalidParameterError, match=r"binomial_test\(\): errors must be between"):
        fe.binomial_test(errors=11, m=10, eps0=0.3)
    with pytest.raises(InvalidParameterError, match=r"eps0 must be a rate in \[0, 1\], got 1.5"):
        fe.binomial_test(errors=1, m=10, eps0=1.5)
    with pytest.raises(InvalidParameterError, match="pass either data= with truth=/pred= or"):
        fe.binomial_test(df, truth="y", pred="p", errors=1, m=2, eps0=0.3)
    with pytest.raises(InvalidParameterError, match="alpha must be in"):
        fe.binomial_test(errors=1, m=10, eps0=0.3, alpha=0.0)
    with pytest.raises(ColumnNotFoundError, match="column 'q' \\(pred=\\) not found"):
        fe.binomial_test(df, truth="y", pred="q", eps0=0.3)
    with pytest.raises(MissingValueError, match="column 'p' \\(pred=\\) must not contain nulls"):
        fe.binomial_test(pl.DataFrame({"y": [1, 0], "p": [1, None]}), truth="y", pred="p", eps0=0.3)


# ---------------------------------------------------------------------------------------------
# t test
# ---------------------------------------------------------------------------------------------
@st.composite
def samples(draw):
    frames = []
    for g in range(draw(st.integers(1, 3))):
        k = draw(st.integers(2, 10))
        values = draw(st.lists(st.integers(0, 50), min_size=k, max_size=k, unique=True))
        frames.append(pl.DataFrame({"g": [g] * k, "e": [v / 100 for v in values]}))
    return pl.concat(frames)


@given(df=samples(), eps0=st.sampled_from([0.0, 0.1, 0.25]), alpha=st.sampled_from([0.05, 0.1]))
def test_t_test_matches_scipy_per_group(df, eps0, alpha):
    out = fe.t_test(df, "e", eps0=eps0, by="g", alpha=alpha)

    def oracle(part):
        x = part["e"].to_numpy()
        res = stats.ttest_1samp(x, eps0)
        return {
            "n_values": x.size,
            "mean": x.mean(),
            "std": x.std(ddof=1),
            "statistic": res.statistic,
            "df": x.size - 1,
            "p_value": res.pvalue,
            "critical_value": stats.t.ppf(1 - alpha / 2, x.size - 1),
        }

    expected = per_group(df, ["g"], oracle)
    assert out["g"].to_list() == expected["g"].to_list()
    assert out["n_values"].to_list() == expected["n_values"].to_list()
    assert out["df"].to_list() == expected["df"].to_list()
    for column in ("mean", "std", "statistic", "p_value", "critical_value"):
        assert_close(out[column], expected[column], 1e-9)
    assert out["reject"].to_list() == (out["statistic"].abs() > out["critical_value"]).to_list()
    assert out["reject"].to_list() == (out["p_value"] < alpha).to_list()
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.t_test(shuffled(df).lazy(), "e", eps0=eps0, by="g", alpha=alpha)
    assert_frames_close(lazy.collect(), out)


def test_t_test_constant_samples_are_exact():
    """Equal values give σ = 0 exactly: ±inf when μ ≠ ε0 (p-value 0), null when μ = ε0."""
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2], "e": [0.1] * 3 + [0.2] * 3})
    out = fe.t_test(df, "e", eps0=0.2, by="g")
    assert out["std"].to_list() == [0.0, 0.0]
    assert out["mean"].to_list() == [0.1, 0.2]
    assert out["statistic"][0] == -np.inf and out["p_value"][0] == 0.0 and out["reject"][0]
    assert out.row(1, named=True)["statistic"] is None
    assert out.row(1, named=True)["p_value"] is None and out.row(1, named=True)["reject"] is None


def test_t_test_critical_value_is_the_t_quantile_of_figure_2_7():
    """Figure 2.7 / eq 2.30: the two-sided critical value t_{α/2, k−1}; for k = 10 at α = 0.05
    it is 2.262 (scipy.stats.t.ppf(0.975, 9))."""
    df = pl.DataFrame({"e": [0.1, 0.2] * 5})
    out = fe.t_test(df, "e", eps0=0.15)
    assert out["critical_value"].item() == pytest.approx(stats.t.ppf(0.975, 9), abs=1e-12)
    assert out["statistic"].item() == pytest.approx(0.0, abs=1e-12)


def test_t_test_errors():
    with pytest.raises(
        InsufficientDataError,
        match=r"t_test\(\): needs at least 2 values of "
        r"'e', got 1 in group g=2\.",
    ):
        fe.t_test(pl.DataFrame({"g": [1, 1, 2], "e": [0.1, 0.2, 0.3]}), "e", eps0=0.1, by="g")
    with pytest.raises(MissingValueError, match="column 'e' \\(metric=\\) must not contain NaN"):
        fe.t_test(pl.DataFrame({"e": [0.1, float("nan")]}), "e", eps0=0.1)
    with pytest.raises(InvalidParameterError, match="eps0 must be a finite number"):
        fe.t_test(pl.DataFrame({"e": [0.1, 0.2]}), "e", eps0=float("inf"))
    with pytest.raises(InvalidParameterError, match="by= must not contain the metric= column"):
        fe.t_test(pl.DataFrame({"e": [0.1, 0.2]}), "e", eps0=0.1, by="e")
