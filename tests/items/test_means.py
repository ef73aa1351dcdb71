"""fe.items.means against statsmodels' cluster-robust OLS on an intercept, numpy's s/√n,
statsmodels' Wilson interval and by hand; properties (row order, grouped = per group, lazy =
eager); bad input as typed errors."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from polars.testing import assert_frame_equal
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    DuplicateKeyError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.helpers.examples import budget
from tests.items._data import shuffled, studies


def _clustered_oracle(x: np.ndarray, groups: np.ndarray) -> float:
    """statsmodels' cluster-robust SE of the intercept. Its defaults (use_correction=True,
    df_correction=True) scale by G/(G − 1)·(N − 1)/(N − K) with K = 1 regressor: exactly
    C/(C − 1), the factor of Miller's SE_C."""
    import statsmodels.api as sm

    fit = sm.OLS(x, np.ones_like(x)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    return float(fit.bse[0])


@settings(max_examples=budget(15))
@given(studies())
def test_clustered_se_equals_statsmodels_cluster_robust_ols(data: pl.DataFrame) -> None:
    out = fe.items.means(data, "score", by="benchmark", cluster="cluster")
    for (benchmark, model), part in data.group_by("benchmark", "model"):
        part = part.sort("item")
        row = out.filter((pl.col("benchmark") == benchmark) & (pl.col("model") == model))
        x, g = part["score"].to_numpy(), part["cluster"].to_numpy()
        assert row["method"].item() == "clustered"
        assert row["se"].item() == pytest.approx(_clustered_oracle(x, g), rel=1e-9, abs=1e-12)
        c = len(np.unique(g))
        q = stats.t.ppf(0.975, c - 1)
        assert row["ci_low"].item() == pytest.approx(x.mean() - q * row["se"].item(), abs=1e-9)
        assert row["n_clusters"].item() == c


@settings(max_examples=budget(15))
@given(studies())
def test_clt_se_is_s_over_root_n(data: pl.DataFrame) -> None:
    out = fe.items.means(data, "score", by="benchmark", method="clt")
    for (benchmark, model), part in data.group_by("benchmark", "model"):
        x = part["score"].to_numpy()
        row = out.filter((pl.col("benchmark") == benchmark) & (pl.col("model") == model))
        se = x.std(ddof=1) / np.sqrt(len(x))
        assert row["se"].item() == pytest.approx(se, rel=1e-9, abs=1e-12)
        assert row["ci_high"].item() == pytest.approx(x.mean() + 1.959963984540054 * se, abs=1e-9)


@settings(max_examples=budget(10))
@given(studies())
def test_clustered_with_one_item_per_cluster_is_the_clt_se(data: pl.DataFrame) -> None:
    own = data.with_columns(pl.col("item").alias("cluster"))
    a = fe.items.means(own, "score", by="benchmark", cluster="cluster")
    b = fe.items.means(own, "score", by="benchmark", method="clt")
    np.testing.assert_allclose(a["se"].to_numpy(), b["se"].to_numpy(), rtol=1e-9)


def test_wilson_interval_equals_statsmodels() -> None:
    from statsmodels.stats.proportion import proportion_confint

    data = pl.DataFrame({"model": "m", "item": range(30), "score": [1] * 21 + [0] * 9})
    out = fe.items.means(data, "score")
    assert out["method"].item() == "wilson"  # auto: 0/1 score on < 100 items
    low, high = proportion_confint(21, 30, alpha=0.05, method="wilson")
    assert out["ci_low"].item() == pytest.approx(low, abs=1e-12)
    assert out["ci_high"].item() == pytest.approx(high, abs=1e-12)


def test_auto_takes_the_clt_on_many_items_and_continuous_scores() -> None:
    rng = np.random.default_rng(0)
    many = pl.DataFrame({"model": "m", "item": range(200), "score": rng.integers(0, 2, 200)})
    few = pl.DataFrame({"model": "m", "item": range(10), "score": rng.random(10)})
    assert fe.items.means(many, "score")["method"].item() == "clt"
    assert fe.items.means(few, "score")["method"].item() == "clt"


@settings(max_examples=budget(10))
@given(studies(samples=True))
def test_variance_split_by_hand(data: pl.DataFrame) -> None:
    out = fe.items.means(data, "score", by="benchmark", sample="epoch", at_samples=8)
    for (benchmark, model), part in data.group_by("benchmark", "model"):
        table = part.group_by("item").agg(
            pl.col("score").mean().alias("x"),
            pl.col("score").var(ddof=1).alias("v"),
            pl.len().alias("k"),
        )
        x, k = table["x"].to_numpy(), table["k"].to_numpy().astype(float)
        row = out.filter((pl.col("benchmark") == benchmark) & (pl.col("model") == model))
        assert row["mean"].item() == pytest.approx(x.mean(), abs=1e-12)
        assert row["k_samples"].item() == pytest.approx(k.mean())
        if k.max() == 1:
            assert row["var_within"].item() is None
            continue
        within = table["v"].drop_nulls().mean()
        between = max(0.0, x.var(ddof=1) - within * np.mean(1 / k))
        assert row["var_within"].item() == pytest.approx(within, rel=1e-9, abs=1e-12)
        assert row["var_between"].item() == pytest.approx(between, rel=1e-9, abs=1e-12)
        now = between + within * np.mean(1 / k)
        if now > 0:
            expected = x.std(ddof=1) / np.sqrt(len(x)) * np.sqrt((between + within / 8) / now)
            assert row["se_at_samples"].item() == pytest.approx(expected, rel=1e-9)


def test_bootstrap_is_seeded_and_near_the_clt_se() -> None:
    rng = np.random.default_rng(3)
    data = pl.DataFrame({"model": "m", "item": range(400), "score": rng.random(400)})
    a = fe.items.means(data, "score", method="bootstrap", n_resamples=400, seed=7)
    b = fe.items.means(data, "score", method="bootstrap", n_resamples=400, seed=7)
    assert_frame_equal(a, b, rel_tol=1e-12, abs_tol=1e-12)  # the same draws (sums in any order)
    clt = fe.items.means(data, "score", method="clt")["se"].item()
    assert a["se"].item() == pytest.approx(clt, rel=0.15)
    assert a["ci_low"].item() < a["mean"].item() < a["ci_high"].item()


@settings(max_examples=budget(10))
@given(studies())
def test_properties_row_order_grouped_lazy(data: pl.DataFrame) -> None:
    whole = fe.items.means(data, "score", by="benchmark", cluster="cluster")
    again = fe.items.means(shuffled(data), "score", by="benchmark", cluster="cluster")
    assert_frame_equal(again, whole, rel_tol=1e-12, abs_tol=1e-12)
    lazy = fe.items.means(data.lazy(), "score", by="benchmark", cluster="cluster")
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), whole, rel_tol=1e-12, abs_tol=1e-12)
    for (benchmark,), part in data.group_by("benchmark"):
        alone = fe.items.means(part.drop("benchmark"), "score", cluster="cluster")
        mine = whole.filter(pl.col("benchmark") == benchmark).drop("benchmark")
        np.testing.assert_allclose(alone["se"].to_numpy(), mine["se"].to_numpy(), rtol=1e-12)


def _small() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model": ["a"] * 3 + ["b"] * 3,
            "item": [1, 2, 3] * 2,
            "cluster": [1, 1, 2] * 2,
            "score": [1.0, 0.0, 1.0, 1.0, 1.0, 0.0],
        }
    )


def test_bad_input_typed_errors() -> None:
    data = _small()
    with pytest.raises(
        InvalidValueError,
        match=r"means\(\): column 'score' \(score=\) must be a probability in \[0, 1\], got 1.5",
    ):
        fe.items.means(data.with_columns(pl.col("score") * 1.5), "score", method="wilson")
    with pytest.raises(
        MissingValueError, match=r"column 'cluster' \(cluster=\) must not contain nulls"
    ):
        fe.items.means(
            data.with_columns(pl.lit(None, pl.Int64).alias("cluster")), "score", cluster="cluster"
        )
    with pytest.raises(DuplicateKeyError, match=r"rows must be unique per \['model', 'item'\]"):
        fe.items.means(pl.concat([data, data.head(1)]), "score")
    two = pl.DataFrame(
        {"model": "a", "item": [1, 1], "sample": [0, 1], "cluster": [1, 2], "score": [1.0, 0.0]}
    )
    with pytest.raises(InvalidValueError, match="must be constant within an item"):
        fe.items.means(two, "score", cluster="cluster", sample="sample")
    with pytest.raises(InvalidParameterError, match="method='clustered' needs cluster="):
        fe.items.means(data, "score", method="clustered")
    with pytest.raises(InvalidParameterError, match="method must be one of"):
        fe.items.means(data, "score", method="jackknife")  # type: ignore[arg-type]
    with pytest.raises(MissingValueError, match="must not contain NaN"):
        fe.items.means(data.with_columns(pl.lit(float("nan")).alias("score")), "score")
