"""Tests of frameeval.compare.post_hoc: nemenyi, nemenyi_q (Table 2.7), bonferroni_dunn,
bonferroni_dunn_q and holm.

Oracles: scikit-posthocs' posthoc_nemenyi_friedman (p-values), the normal distribution for
Bonferroni–Dunn (Demšar 2006, §3.2.2), statsmodels' multipletests for Holm; golden values from
the book's Table 2.7 (as transcribed in shared/seeds/002).
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
import scikit_posthocs as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError, InvalidValueError
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled
from tests.helpers.examples import budget
from tests.helpers.oracle import assert_close

# Table 2.7 of the book, "Nemenyi 检验中常用的 q_α 值", k = 2…10 (shared/seeds/002, line 262).
TABLE_2_7 = {
    0.05: [1.960, 2.344, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.1: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}


@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_nemenyi_q_reproduces_table_2_7(alpha):
    computed = [fe.nemenyi_q(k, alpha) for k in range(2, 11)]
    np.testing.assert_allclose(computed, TABLE_2_7[alpha], atol=1e-3)


def test_the_two_cells_the_book_rounds_differently():
    """The exact values 2.9483 (k = 7, α = 0.05) and 2.4595 (k = 5, α = 0.1) are printed as
    2.949 and 2.459: within 1e-3, but not the nearest three-decimal rounding."""
    assert round(fe.nemenyi_q(7, 0.05), 4) == 2.9483
    assert round(fe.nemenyi_q(5, 0.1), 4) == 2.4595
    assert round(fe.nemenyi_q(7, 0.05), 3) != 2.949 and round(fe.nemenyi_q(5, 0.1), 3) != 2.459


def test_q_helpers_reject_bad_arguments():
    with pytest.raises(InvalidParameterError, match=r"nemenyi_q\(\): k must be an integer >= 2"):
        fe.nemenyi_q(1)
    with pytest.raises(InvalidParameterError, match=r"bonferroni_dunn_q\(\): alpha must be in"):
        fe.bonferroni_dunn_q(3, 1.5)


@given(k=st.integers(2, 12), alpha=st.sampled_from([0.01, 0.05, 0.1]))
def test_bonferroni_dunn_q_is_the_bonferroni_corrected_normal_quantile(k, alpha):
    assert fe.bonferroni_dunn_q(k, alpha) == pytest.approx(
        stats.norm.ppf(1 - alpha / (2 * (k - 1))), abs=1e-12
    )
    if k >= 3:  # a control comparison needs a smaller critical difference than all pairs
        assert fe.bonferroni_dunn_q(k, alpha) < fe.nemenyi_q(k, alpha)


@settings(max_examples=budget(20))  # scikit-posthocs goes through pandas: slow per call
@given(df=metric_tables(ties=True, k_range=(2, 5), n_range=(2, 8)))
def test_nemenyi_matches_scikit_posthocs(df):
    out = fe.nemenyi(df, "value", by="g", higher_is_better=False)
    expected_rows = 0
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, learners = matrix(part)
        n, k = values.shape
        reference = sp.posthoc_nemenyi_friedman(values)
        ranks = stats.rankdata(values, axis=1).mean(axis=0)
        se = np.sqrt(k * (k + 1) / (6 * n))
        cd = fe.nemenyi_q(k, 0.05) * se
        mine = out.filter(pl.col("g") == g)
        for row, (i, j) in zip(
            mine.iter_rows(named=True), itertools.combinations(range(k), 2), strict=True
        ):
            expected_rows += 1
            assert (row["a"], row["b"]) == (learners[i], learners[j])
            assert (row["n_learners"], row["n_blocks"]) == (k, n)
            assert_close(row["average_rank_a"], ranks[i], 1e-12)
            assert_close(row["rank_difference"], ranks[i] - ranks[j], 1e-12)
            assert_close(row["p_value"], reference.iloc[i, j], 1e-9)
            assert_close(row["critical_value"], cd, 1e-9)
            assert "cd" not in row
            assert row["reject"] == (abs(ranks[i] - ranks[j]) > cd)
            better = learners[i] if ranks[i] < ranks[j] else learners[j]
            assert row["better"] == (better if row["reject"] else None)
    assert out.height == expected_rows
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.nemenyi(shuffled(df).lazy(), "value", by="g", higher_is_better=False)
    assert_frames_close(lazy.collect(), out)


@given(df=metric_tables(ties=True, k_range=(2, 5), n_range=(2, 8)))
def test_bonferroni_dunn_against_the_control(df):
    out = fe.bonferroni_dunn(df, "value", control="A", by="g", higher_is_better=True)
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, learners = matrix(part)
        n, k = values.shape
        ranks = stats.rankdata(-values, axis=1).mean(axis=0)
        se = np.sqrt(k * (k + 1) / (6 * n))
        mine = out.filter(pl.col("g") == g)
        assert mine["a"].to_list() == learners[1:] and set(mine["b"]) == {"A"}
        z = np.abs(ranks[1:] - ranks[0]) / se
        assert_close(mine["statistic"], np.abs(ranks[1:] - ranks[0]), 1e-12)
        assert_close(mine["p_value"], np.minimum(1, 2 * (k - 1) * stats.norm.sf(z)), 1e-9)
        q = stats.norm.ppf(1 - 0.05 / (2 * (k - 1)))
        assert_close(mine["critical_value"], [q * se] * (k - 1), 1e-9)
        assert mine["reject"].to_list() == (z > q).tolist()


def test_bonferroni_dunn_needs_the_control():
    df = pl.DataFrame(
        {
            "g": [1] * 4 + [2] * 4,
            "block": ["d1", "d1", "d2", "d2"] * 2,
            "learner": ["A", "B"] * 2 + ["B", "C"] * 2,
            "error_rate": [0.1, 0.2, 0.3, 0.4] * 2,
        }
    )
    with pytest.raises(
        InsufficientDataError,
        match=r"bonferroni_dunn\(\): the control learner "
        r"'A' must have values, got none in group g=2\.",
    ):
        fe.bonferroni_dunn(df, "error_rate", control="A", by="g")


# ---------------------------------------------------------------------------------------------
# Holm
# ---------------------------------------------------------------------------------------------
@st.composite
def p_value_families(draw):
    n = draw(st.integers(1, 20))
    p = draw(
        st.lists(
            st.one_of(st.none(), st.floats(0, 1), st.sampled_from([0.01, 0.02, 0.05])),
            min_size=n,
            max_size=n,
        )
    )
    g = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return pl.DataFrame({"g": g, "p": p, "row": list(range(n))}, schema_overrides={"p": pl.Float64})


def holm_step_down(p: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's procedure as written: walk the sorted p-values, reject while p₍ⱼ₎ < α/(m − j + 1)
    and stop at the first failure."""
    order = np.argsort(p, kind="stable")
    reject = np.zeros(p.size, dtype=bool)
    for j, i in enumerate(order):
        if not p[i] < alpha / (p.size - j):
            break
        reject[i] = True
    return reject


@given(df=p_value_families(), alpha=st.sampled_from([0.05, 0.1]))
def test_holm_matches_the_step_down_procedure(df, alpha):
    out = fe.holm(df, "p", by="g", alpha=alpha)
    assert out["row"].to_list() == df["row"].to_list()  # the input order is kept
    assert out.columns == [*df.columns, "p_adjusted", "alpha", "reject"]
    for (_,), part in out.partition_by("g", as_dict=True).items():
        valid = part.filter(pl.col("p").is_not_null())
        nulls = part.filter(pl.col("p").is_null())
        assert nulls["p_adjusted"].null_count() == nulls.height
        assert nulls["reject"].null_count() == nulls.height
        p = valid["p"].to_numpy()
        assert valid["reject"].to_list() == holm_step_down(p, alpha).tolist()
        assert np.all(valid["p_adjusted"].to_numpy() >= p)


def test_holm_adjusted_p_values_match_statsmodels():
    """statsmodels' multipletests(method='holm') on a fixed family with ties and a p = 1."""
    p = np.array([0.04, 0.001, 0.02, 0.02, 0.3, 1.0, 0.012, 0.0049])
    out = fe.holm(pl.DataFrame({"p_value": p}), alpha=0.05)
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
    assert_close(out["p_adjusted"], adjusted, 1e-12)
    assert out["reject"].to_list() == reject.tolist()


def test_holm_step_down_by_hand():
    """m = 4, α = 0.05: sorted p = 0.005, 0.01, 0.03, 0.04 against α/4, α/3, α/2, α/1; the
    third fails (0.03 ≥ 0.025), so it and everything after it are kept."""
    out = fe.holm(pl.DataFrame({"p_value": [0.01, 0.04, 0.03, 0.005]}))
    assert out["reject"].to_list() == [True, False, False, True]
    assert out["p_adjusted"].round(12).to_list() == [0.03, 0.06, 0.06, 0.02]
    assert out["alpha"].unique().to_list() == [0.05]
    with pytest.raises(
        InvalidValueError,
        match=r"holm\(\): column 'p_value' \(p_value=\) must "
        r"hold p-values in \[0, 1\], got 1.5\.",
    ):
        fe.holm(pl.DataFrame({"p_value": [0.01, 1.5]}))
