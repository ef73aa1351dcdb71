"""fe.items.compare against numpy's paired SE by hand, statsmodels' cluster-robust OLS on the
differences, statsmodels' exact McNemar and multipletests (Holm, BH), and Shaffer by hand;
properties; a model missing items as a typed error."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from polars.testing import assert_frame_equal
from scipy import stats

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError
from tests.helpers.examples import budget
from tests.items._data import shuffled, studies


def _wide(part: pl.DataFrame) -> pl.DataFrame:
    return part.pivot(on="model", index=["item", "cluster"], values="score").sort("item")


@settings(max_examples=budget(15))
@given(studies())
def test_paired_se_by_hand(data: pl.DataFrame) -> None:
    out = fe.items.compare(data, "score", by="benchmark", adjust=None)
    for (benchmark,), part in data.group_by("benchmark"):
        wide = _wide(part)
        for a, b in itertools.combinations(sorted(part["model"].unique()), 2):
            xa, xb = wide[a].to_numpy(), wide[b].to_numpy()
            n = len(xa)
            cov = np.cov(xa, xb, ddof=1)
            se = np.sqrt((cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) / n)
            row = out.filter(
                (pl.col("benchmark") == benchmark) & (pl.col("a") == a) & (pl.col("b") == b)
            )
            assert row["difference"].item() == pytest.approx(xa.mean() - xb.mean(), abs=1e-12)
            assert row["se"].item() == pytest.approx(se, rel=1e-9, abs=1e-12)
            assert row["se_unpaired"].item() == pytest.approx(
                np.sqrt((cov[0, 0] + cov[1, 1]) / n), rel=1e-9
            )
            assert row["correlation"].item() == pytest.approx(np.corrcoef(xa, xb)[0, 1], rel=1e-9)
            t = stats.ttest_rel(xa, xb)
            assert row["test"].item() == "paired t"
            assert row["statistic"].item() == pytest.approx(t.statistic, rel=1e-9)
            assert row["p_value"].item() == pytest.approx(t.pvalue, rel=1e-9)
            low, high = t.confidence_interval(0.95)
            assert row["ci_low"].item() == pytest.approx(low, rel=1e-9, abs=1e-12)
            assert row["ci_high"].item() == pytest.approx(high, rel=1e-9, abs=1e-12)


@settings(max_examples=budget(15))
@given(studies())
def test_clustered_se_equals_statsmodels_on_the_differences(data: pl.DataFrame) -> None:
    import statsmodels.api as sm

    out = fe.items.compare(data, "score", by="benchmark", cluster="cluster", adjust=None)
    for (benchmark,), part in data.group_by("benchmark"):
        wide = _wide(part)
        g = wide["cluster"].to_numpy()
        for a, b in itertools.combinations(sorted(part["model"].unique()), 2):
            d = wide[a].to_numpy() - wide[b].to_numpy()
            fit = sm.OLS(d, np.ones_like(d)).fit(cov_type="cluster", cov_kwds={"groups": g})
            row = out.filter(
                (pl.col("benchmark") == benchmark) & (pl.col("a") == a) & (pl.col("b") == b)
            )
            c = len(np.unique(g))
            assert row["test"].item() == "clustered t"
            assert row["df"].item() == c - 1
            assert row["se"].item() == pytest.approx(fit.bse[0], rel=1e-9, abs=1e-12)
            if fit.bse[0] > 1e-12:
                p = 2 * stats.t.sf(abs(d.mean() / fit.bse[0]), c - 1)
                assert row["p_value"].item() == pytest.approx(p, rel=1e-9)


@settings(max_examples=budget(15))
@given(studies(binary=True))
def test_mcnemar_exact_equals_statsmodels(data: pl.DataFrame) -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    out = fe.items.compare(data, "score", by="benchmark", adjust=None)
    for (benchmark,), part in data.group_by("benchmark"):
        wide = _wide(part)
        for a, b in itertools.combinations(sorted(part["model"].unique()), 2):
            xa, xb = wide[a].to_numpy(), wide[b].to_numpy()
            table = [
                [np.sum((xa == 1) & (xb == 1)), np.sum((xa == 1) & (xb == 0))],
                [np.sum((xa == 0) & (xb == 1)), np.sum((xa == 0) & (xb == 0))],
            ]
            oracle = mcnemar(table, exact=True)
            row = out.filter(
                (pl.col("benchmark") == benchmark) & (pl.col("a") == a) & (pl.col("b") == b)
            )
            assert row["test"].item() == "mcnemar"
            assert row["df"].item() is None
            assert row["statistic"].item() == oracle.statistic
            assert row["p_value"].item() == pytest.approx(oracle.pvalue, rel=1e-9)


@pytest.mark.parametrize(("adjust", "method"), [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjustment_over_pairs_and_benchmarks_equals_multipletests(adjust, method) -> None:
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(5)
    frames = [
        pl.DataFrame(
            {
                "benchmark": f"b{j}",
                "model": f"m{m}",
                "item": range(25),
                "score": rng.random(25) + 0.08 * m * j,
            }
        )
        for j in range(3)
        for m in range(4)
    ]
    data = pl.concat(frames)
    out = fe.items.compare(data, "score", by="benchmark", adjust=adjust)
    _, expected, _, _ = multipletests(out["p_value"].to_numpy(), alpha=0.05, method=method)
    np.testing.assert_allclose(out["p_adjusted"].to_numpy(), expected, rtol=1e-9)
    assert out["reject"].to_list() == list(expected < 0.05)


def test_shaffer_over_two_benchmarks_by_hand() -> None:
    """Three models on each of two benchmarks: S(3) = {0, 1, 3}, so the family of six
    hypotheses can have {0, 1, 2, 3, 4, 6} true; t_i = max{s : s ≤ 6 − i + 1}."""
    rng = np.random.default_rng(2)
    frames = [
        pl.DataFrame(
            {
                "benchmark": f"b{j}",
                "model": f"m{m}",
                "item": range(30),
                "score": rng.random(30) + 0.1 * m,
            }
        )
        for j in range(2)
        for m in range(3)
    ]
    out = fe.items.compare(pl.concat(frames), "score", by="benchmark", adjust="shaffer")
    p = np.sort(out["p_value"].to_numpy())
    possible = np.array([0, 1, 2, 3, 4, 6])
    t = [possible[possible <= 6 - i].max() for i in range(6)]
    expected = np.maximum.accumulate(np.minimum(1, np.array(t) * p))
    got = out.sort("p_value")["p_adjusted"].to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@settings(max_examples=budget(10))
@given(studies())
def test_properties_row_order_grouped_lazy(data: pl.DataFrame) -> None:
    whole = fe.items.compare(data, "score", by="benchmark", cluster="cluster", adjust=None)
    again = fe.items.compare(
        shuffled(data), "score", by="benchmark", cluster="cluster", adjust=None
    )
    assert_frame_equal(again, whole, rel_tol=1e-9, abs_tol=1e-12)
    lazy = fe.items.compare(data.lazy(), "score", by="benchmark", cluster="cluster", adjust=None)
    assert_frame_equal(lazy.collect(), whole, rel_tol=1e-9, abs_tol=1e-12)
    for (benchmark,), part in data.group_by("benchmark"):
        alone = fe.items.compare(part.drop("benchmark"), "score", cluster="cluster", adjust=None)
        mine = whole.filter(pl.col("benchmark") == benchmark).drop("benchmark")
        assert_frame_equal(alone, mine, rel_tol=1e-9, abs_tol=1e-12)


def test_a_model_missing_items_is_named() -> None:
    data = pl.DataFrame(
        {
            "benchmark": "gsm",
            "model": ["a"] * 4 + ["b"] * 2,
            "item": [1, 2, 3, 4, 1, 2],
            "score": [1, 0, 1, 1, 0, 1],
        }
    )
    with pytest.raises(
        InsufficientDataError,
        match=r"compare\(\): every model must have a score on every item of its group .*got "
        r"model model=b missing 2 of 4 items in group benchmark=gsm\.",
    ):
        fe.items.compare(data, "score", by="benchmark")
    with pytest.raises(InsufficientDataError, match="missing 2 of 4"):
        fe.items.leaderboard(data, "score", by="benchmark", n_resamples=10)
    with pytest.raises(InvalidParameterError, match="adjust must be one of"):
        fe.items.compare(data, "score", adjust="bonferroni")  # type: ignore[arg-type]


def test_unpaired_and_paired_se_on_correlated_models() -> None:
    """Two models that agree on most items: the paired SE is far below the unpaired one."""
    rng = np.random.default_rng(0)
    base = rng.random(200)
    data = pl.concat(
        [
            pl.DataFrame({"model": "a", "item": range(200), "score": base}),
            pl.DataFrame(
                {"model": "b", "item": range(200), "score": base * 0.9 + 0.05 * rng.random(200)}
            ),
        ]
    )
    row = fe.items.compare(data, "score")
    assert row["se"].item() < row["se_unpaired"].item() / 3
    assert row["correlation"].item() > 0.95
