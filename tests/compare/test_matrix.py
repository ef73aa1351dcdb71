"""Tests of frameeval.compare.matrix.comparison_matrix (Ismail-Fawaz et al. 2023).

Oracles: numpy counts of wins / ties / losses and mean differences, scipy.stats.wilcoxon per
pair (exact or normal approximation, as frameeval's rule picks), statsmodels' multipletests for
Holm and Bonferroni.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled

OUT = [
    "g",
    "a",
    "b",
    "mean_difference",
    "wins",
    "ties",
    "losses",
    "p_value",
    "p_adjusted",
    "cohen_d",
    "cliff_delta",
]


def _scipy_p(x: np.ndarray, y: np.ndarray, zero_method: str) -> float:
    d = x - y
    ranked = d[d != 0] if zero_method == "wilcox" else d
    if zero_method == "wilcox" and ranked.size == 0 or np.all(d == 0):
        return float("nan")
    no_ties = np.unique(np.abs(ranked)).size == ranked.size
    exact = ranked.size <= 50 and np.all(d != 0) and no_ties
    method = "exact" if exact else "approx"
    with np.errstate(all="ignore"):
        return float(stats.wilcoxon(x, y, zero_method=zero_method, method=method).pvalue)


@pytest.mark.slow
@given(
    df=metric_tables(ties=True, k_range=(2, 4), n_range=(2, 9)),
    hib=st.booleans(),
    zero_method=st.sampled_from(["pratt", "wilcox", "zsplit"]),
    correction=st.sampled_from(["holm", "bonferroni", None]),
)
def test_comparison_matrix_matches_numpy_scipy_statsmodels(df, hib, zero_method, correction):
    out = fe.comparison_matrix(
        df, "value", by="g", higher_is_better=hib, zero_method=zero_method, correction=correction
    )
    assert out.columns == OUT
    rows = []
    for part in df.partition_by("g", maintain_order=True):
        values, learners = matrix(part)
        pairs = list(itertools.combinations(range(len(learners)), 2))
        p = np.array([_scipy_p(values[:, i], values[:, j], zero_method) for i, j in pairs])
        adjusted = p.copy()
        ok = ~np.isnan(p)
        if correction is not None and ok.any():
            method = "holm" if correction == "holm" else "bonferroni"
            adjusted[ok] = multipletests(p[ok], method=method)[1]
        for (i, j), p_ij, adj in zip(pairs, p, adjusted, strict=True):
            for s, t in ((i, j), (j, i)):
                d = values[:, s] - values[:, t]
                wins = int((d > 0).sum() if hib else (d < 0).sum())
                losses = int((d < 0).sum() if hib else (d > 0).sum())
                rows.append(
                    (part["g"][0], learners[s], learners[t], d.mean(), wins, int((d == 0).sum()))
                    + (losses, p_ij, adj)
                )
    expected = pl.DataFrame(rows, schema=OUT[:9], orient="row").sort("g", "a", "b")
    assert (
        out.select("g", "a", "b", "wins", "ties", "losses").rows()
        == expected.select("g", "a", "b", "wins", "ties", "losses").rows()
    )
    for column in ("mean_difference", "p_value", "p_adjusted"):
        e = expected[column].fill_nan(None)
        assert out[column].is_null().to_list() == e.is_null().to_list(), column
        np.testing.assert_allclose(
            out[column].drop_nulls(), e.drop_nulls(), rtol=1e-9, atol=1e-12, err_msg=column
        )
    assert (out["wins"] + out["ties"] + out["losses"]).to_list() == [
        df.filter(pl.col("g") == g)["block"].n_unique() for g in out["g"]
    ]
    kwargs = {
        "by": "g",
        "higher_is_better": hib,
        "zero_method": zero_method,
        "correction": correction,
    }
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.comparison_matrix(shuffled(df).lazy(), "value", **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frames_close(lazy.collect(), out)


def test_comparison_matrix_direction_from_registry_and_errors():
    df = pl.DataFrame(
        {
            "block": list("abcd") * 3,
            "learner": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "error_rate": [0.1, 0.2, 0.3, 0.4, 0.2, 0.2, 0.4, 0.5, 0.3, 0.1, 0.3, 0.6],
        }
    )
    out = fe.comparison_matrix(df, "error_rate")
    ab = out.filter((pl.col("a") == "A") & (pl.col("b") == "B")).row(0, named=True)
    assert (ab["wins"], ab["ties"], ab["losses"]) == (3, 1, 0)  # lower error rate wins
    with pytest.raises(InvalidParameterError, match=r"correction must be 'holm', 'bonferroni'"):
        fe.comparison_matrix(df, "error_rate", correction="hochberg")
    with pytest.raises(InvalidParameterError, match=r"zero_method must be 'pratt'"):
        fe.comparison_matrix(df, "error_rate", zero_method="none")
    with pytest.raises(
        InsufficientDataError, match=r"comparison_matrix\(\): needs at least 2 learners, got 1"
    ):
        fe.comparison_matrix(df.filter(pl.col("learner") == "A"), "error_rate")
    with pytest.raises(
        InsufficientDataError,
        match=r"comparison_matrix\(\): every learner must have a value on every block .* got 1 "
        r"missing: learner=C on block=d\.",
    ):
        fe.comparison_matrix(df.head(11), "error_rate")
