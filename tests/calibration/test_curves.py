"""Calibration curves and ECE/MCE (frameeval/calibration/curves.py) against scikit-learn 1.9
``calibration_curve`` (values and bin edges, both strategies), statsmodels ``proportion_confint``
(wilson, beta) and hand computations over the same bins; per group, 1e-9 (1e-12 for hand
computations). Scores come from a grid of tenths plus free floats, so many rows sit exactly on
a bin edge (where the left/right convention matters).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve as sk_calibration_curve
from statsmodels.stats.proportion import proportion_confint

import frameeval as fe
from tests.calibration.frames import (
    binary_frames,
    multiclass_frames,
    repeat_rows,
    sk_bins,
    weighted_binary_frames,
    weighted_bins,
)
from tests.helpers.oracle import assert_close


# ---------------------------------------------------------------------------------------------
# calibration curve
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("bins", [1, 3, 5, 10])
@given(df=binary_frames())
def test_calibration_curve_equals_scikit_learn(df: pl.DataFrame, strategy: str, bins: int) -> None:
    out = fe.calibration_curve(df, truth="y", score="p", by="g", bins=bins, strategy=strategy)
    assert out.columns == [
        "g", "bin", "bin_lower", "bin_upper", "mean_score", "fraction_positive", "count",
        "ci_low", "ci_high",
    ]  # fmt: skip
    for part in df.partition_by("g", maintain_order=True):
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        mine = out.filter(pl.col("g") == part["g"][0])
        if len(np.unique(y)) <= 2 and len(np.unique(y)) >= 1:
            prob_true, prob_pred = sk_calibration_curve(y, p, n_bins=bins, strategy=strategy)
            assert_close(mine["fraction_positive"].to_list(), prob_true)
            assert_close(mine["mean_score"].to_list(), prob_pred)
        edges, ids, counts, _, _ = sk_bins(y, p, bins, strategy)
        assert mine["bin"].to_list() == ids.tolist()
        assert mine["count"].to_list() == counts.tolist()  # exact
        assert mine["bin_lower"].to_list() == edges[ids].tolist()  # exact
        assert mine["bin_upper"].to_list() == edges[ids + 1].tolist()


@pytest.mark.parametrize("method", [("wilson", "wilson"), ("clopper_pearson", "beta")])
@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.32])
@given(df=binary_frames())
def test_intervals_equal_statsmodels(df: pl.DataFrame, method, alpha: float) -> None:
    ours, theirs = method
    out = fe.calibration_curve(df, truth="y", score="p", by="g", bins=4, ci=ours, alpha=alpha)
    k = np.rint(out["fraction_positive"].to_numpy() * out["count"].to_numpy())
    low, high = proportion_confint(k, out["count"].to_numpy(), alpha=alpha, method=theirs)
    assert_close(out["ci_low"].to_list(), low)
    assert_close(out["ci_high"].to_list(), high)


def test_interval_none_gives_null_columns() -> None:
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0.1, 0.5, 0.9]})
    out = fe.calibration_curve(df, truth="y", score="p", bins=2, ci=None)
    assert out["ci_low"].null_count() == out.height and out["ci_high"].dtype == pl.Float64


@given(df=binary_frames(), seed=st.integers(0, 2**16))
def test_calibration_lazy_equals_eager_and_row_order(df: pl.DataFrame, seed: int) -> None:
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    for strategy in ("uniform", "quantile"):
        kw = {"truth": "y", "score": "p", "by": "g", "bins": 4, "strategy": strategy}
        eager = fe.calibration_curve(df, **kw)
        lazy = fe.calibration_curve(shuffled.lazy(), **kw)
        assert isinstance(lazy, pl.LazyFrame)
        lazy = lazy.collect()
        assert lazy.select("g", "bin", "count").equals(eager.select("g", "bin", "count"))
        for c in ("mean_score", "fraction_positive", "ci_low", "ci_high"):
            assert_close(lazy[c].to_list(), eager[c].to_list(), 1e-12)
        e1 = fe.calibration_error(df, **kw)
        e2 = fe.calibration_error(shuffled.lazy(), **kw).collect()
        assert_close(e1.to_numpy(), e2.to_numpy(), 1e-12)
        d1 = fe.brier_decomposition(df, truth="y", score="p", by="g", bins=4, strategy=strategy)
        d2 = fe.brier_decomposition(shuffled.lazy(), truth="y", score="p", by="g", bins=4,
                                    strategy=strategy).collect()  # fmt: skip
        assert_close(d1.to_numpy(), d2.to_numpy(), 1e-12)


def test_keys_first_and_no_by() -> None:
    df = pl.DataFrame(
        {"b": ["x", "x", "y", "y"], "a": [2, 1, 1, 1], "y": [1, 0, 1, 0], "p": [0.9, 0.1, 0.6, 0.4]}
    )
    out = fe.calibration_curve(df, truth="y", score="p", by=["b", "a"], bins=2)
    assert out.columns[:3] == ["b", "a", "bin"]
    assert out.select("b", "a").rows() == sorted(out.select("b", "a").rows())
    whole = fe.calibration_curve(df, truth="y", score="p", bins=2)
    assert whole.columns[0] == "bin" and whole["count"].sum() == 4


# ---------------------------------------------------------------------------------------------
# ECE / MCE
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=binary_frames())
def test_ece_mce_equal_hand_computation(df: pl.DataFrame, strategy: str) -> None:
    out = fe.calibration_error(df, truth="y", score="p", by="g", bins=5, strategy=strategy)
    assert out.columns == ["g", "ece", "mce"]
    for part in df.partition_by("g", maintain_order=True):
        y, p = part["y"].to_numpy().astype(float), part["p"].to_numpy()
        _, _, counts, mean, frac = sk_bins(y, p, 5, strategy)
        gaps = np.abs(frac - mean)
        row = out.filter(pl.col("g") == part["g"][0])
        assert_close(row["ece"].item(), (counts / counts.sum() * gaps).sum(), 1e-12)
        assert_close(row["mce"].item(), gaps.max(), 1e-12)


def test_one_class_group_has_a_defined_ece() -> None:
    df = pl.DataFrame({"g": [0, 0, 1, 1], "y": [1, 1, 0, 1], "p": [0.7, 0.9, 0.2, 0.8]})
    out = fe.calibration_error(df, truth="y", score="p", by="g", bins=2)
    assert out.filter(pl.col("g") == 0)["ece"].item() == pytest.approx(0.2, abs=1e-12)


def _multiclass_oracle(part: pl.DataFrame, k: int, bins: int, strategy: str, how: str):
    proba = part.select([f"p{i}" for i in range(k)]).to_numpy()
    y = part["y"].to_numpy()
    pairs = []
    if how == "top_label":
        pairs.append(((proba.argmax(axis=1) == y).astype(float), proba.max(axis=1)))
    else:
        pairs += [((y == i).astype(float), proba[:, i]) for i in range(k)]
    eces, mces = [], []
    for outcome, conf in pairs:
        _, _, counts, mean, frac = sk_bins(outcome, conf, bins, strategy)
        gaps = np.abs(frac - mean)
        eces.append((counts / counts.sum() * gaps).sum())
        mces.append(gaps.max())
    return np.mean(eces), np.max(mces)


@pytest.mark.parametrize("how", ["top_label", "classwise"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=multiclass_frames())
def test_multiclass_ece_equals_hand_computation(df: pl.DataFrame, how: str, strategy: str) -> None:
    out = fe.calibration_error(
        df, truth="y", score=["p0", "p1", "p2"], labels=[0, 1, 2], by="g", bins=4,
        strategy=strategy, multiclass=how,
    )  # fmt: skip
    for part in df.partition_by("g", maintain_order=True):
        ece, mce = _multiclass_oracle(part, 3, 4, strategy, how)
        row = out.filter(pl.col("g") == part["g"][0])
        assert_close(row["ece"].item(), ece, 1e-12)
        assert_close(row["mce"].item(), mce, 1e-12)


def test_docs_worked_example() -> None:
    """The numbers of docs/probabilities.md ("Worked example"), on the embedded results."""
    df = fe.datasets.example_results().filter(pl.col("dataset") == "breast_cancer")
    scores = df.group_by("learner").agg(
        fe.log_loss("truth", "score"), fe.brier_score("truth", "score")
    )
    uniform = fe.calibration_error(df, truth="truth", score="score", by="learner")
    quantile = fe.calibration_error(
        df, truth="truth", score="score", by="learner", strategy="quantile"
    ).rename({"ece": "ece_quantile", "mce": "mce_quantile"})
    murphy = fe.brier_decomposition(df, truth="truth", score="score", by="learner", bins=10)
    table = (
        scores.join(uniform, on="learner")
        .join(quantile, on="learner")
        .join(murphy, on="learner")
        .sort("learner")
        .select(
            "learner",
            "log_loss",
            "brier_score",
            "ece",
            "ece_quantile",
            "reliability",
            "resolution",
            "uncertainty",
        )
        .with_columns(pl.exclude("learner").round(4))
    )
    assert table.rows() == [
        ("decision_tree", 2.7239, 0.0756, 0.0756, 0.0756, 0.0066, 0.1648, 0.2338),
        ("knn", 0.2604, 0.0273, 0.0179, 0.0123, 0.0018, 0.2083, 0.2338),
        ("logistic_regression", 0.0714, 0.0187, 0.0132, 0.0072, 0.002, 0.2172, 0.2338),
        ("naive_bayes", 0.5973, 0.0553, 0.0555, 0.0378, 0.0052, 0.1829, 0.2338),
        ("random_forest", 0.1666, 0.0301, 0.024, 0.0273, 0.0025, 0.2058, 0.2338),
    ]
    nb = df.filter(pl.col("learner") == "naive_bayes")
    first = fe.calibration_curve(nb, truth="truth", score="score", bins=5).row(0, named=True)
    assert first["count"] == 362
    assert round(first["mean_score"], 3) == 0.001
    assert round(first["fraction_positive"], 3) == 0.058
    assert (round(first["ci_low"], 3), round(first["ci_high"], 3)) == (0.038, 0.087)


# ---------------------------------------------------------------------------------------------
# weights
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=weighted_binary_frames())
def test_weighted_curve_and_errors_equal_numpy(df: pl.DataFrame, strategy: str) -> None:
    """Weighted means, Σw, row counts and edges per bin (numpy's weighted inverted_cdf
    percentiles for quantile bins), ECE = Σ_b W_b/W·|q_b − p̄_b| and MCE, by hand per group."""
    kw = dict(truth="y", score="p", by="g", bins=4, strategy=strategy, weight="w")
    curve = fe.calibration_curve(df, ci=None, **kw)
    errors = fe.calibration_error(df, **kw)
    assert curve.columns == [
        "g", "bin", "bin_lower", "bin_upper", "mean_score", "fraction_positive", "count",
        "weight", "ci_low", "ci_high",
    ]  # fmt: skip
    assert errors.columns == ["g", "ece", "mce"]
    for part in df.partition_by("g", maintain_order=True):
        y, p, w = (part[c].to_numpy().astype(float) for c in ("y", "p", "w"))
        mine = curve.filter(pl.col("g") == part["g"][0])
        row = errors.filter(pl.col("g") == part["g"][0])
        if w.sum() == 0:  # no weight: no bin, undefined errors
            assert mine.height == 0
            assert row["ece"].item() is None and row["mce"].item() is None
            continue
        edges, ids, rows, mass, _, mean, frac = weighted_bins(y, p, w, 4, strategy)
        assert mine["bin"].to_list() == ids.tolist()
        assert mine["count"].to_list() == rows.tolist()  # exact: rows, not weights
        assert mine["bin_lower"].to_list() == edges[ids].tolist()  # exact
        assert mine["bin_upper"].to_list() == edges[ids + 1].tolist()
        assert_close(mine["weight"].to_list(), mass, 1e-12)
        assert_close(mine["mean_score"].to_list(), mean, 1e-12)
        assert_close(mine["fraction_positive"].to_list(), frac, 1e-12)
        gaps = np.abs(frac - mean)
        assert_close(row["ece"].item(), (mass / mass.sum() * gaps).sum(), 1e-12)
        assert_close(row["mce"].item(), gaps.max(), 1e-12)


@pytest.mark.parametrize("method", [("wilson", "wilson"), ("clopper_pearson", "beta")])
@given(df=weighted_binary_frames())
def test_weighted_intervals_equal_statsmodels_at_kish_n_eff(df: pl.DataFrame, method) -> None:
    """A weighted bin's interval is statsmodels' proportion_confint at Kish's effective sample
    size n_eff = (Σw)²/Σw², with count = fraction_positive · n_eff (by hand per bin)."""
    ours, theirs = method
    out = fe.calibration_curve(df, truth="y", score="p", by="g", bins=4, weight="w", ci=ours)
    for part in df.partition_by("g", maintain_order=True):
        y, p, w = (part[c].to_numpy().astype(float) for c in ("y", "p", "w"))
        if w.sum() == 0:
            continue
        _, _, _, mass, mass2, _, frac = weighted_bins(y, p, w, 4, "uniform")
        n_eff = mass**2 / mass2
        low, high = proportion_confint(frac * n_eff, n_eff, alpha=0.05, method=theirs)
        mine = out.filter(pl.col("g") == part["g"][0])
        assert_close(mine["ci_low"].to_list(), low)
        assert_close(mine["ci_high"].to_list(), high)


def test_equal_weights_give_the_unweighted_interval() -> None:
    """Equal weights: n_eff is the row count, so the interval is the unweighted one."""
    df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 1, 0], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9, 0.7]})
    plain = fe.calibration_curve(df, truth="y", score="p", bins=2)
    weighted = fe.calibration_curve(df.with_columns(w=pl.lit(0.25)), truth="y", score="p",
                                    bins=2, weight="w")  # fmt: skip
    for c in ("mean_score", "fraction_positive", "ci_low", "ci_high"):
        assert_close(weighted[c].to_list(), plain[c].to_list(), 1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=weighted_binary_frames(weights=(0.0, 1.0, 2.0, 3.0)))
def test_integer_weights_equal_repeated_rows(df: pl.DataFrame, strategy: str) -> None:
    """Integer weights = repeated rows: the means, Σw (= rows), ECE and MCE; with
    frequency_weights=True also the intervals. Quantile edges are the weighted (inverted_cdf)
    percentiles, so there the repeated rows carry weight 1."""
    repeated = repeat_rows(df)
    assume(repeated.height > 0 and 1 in repeated["y"].to_list())
    kw = dict(truth="y", score="p", by="g", bins=4, strategy=strategy)
    if strategy == "quantile":
        repeated, other = repeated.with_columns(w=pl.lit(1.0)), {"weight": "w"}
    else:
        other = {}
    for how in ("wilson", "clopper_pearson"):
        weighted = fe.calibration_curve(df, ci=how, weight="w", frequency_weights=True, **kw)
        rows = fe.calibration_curve(repeated, ci=how, **kw, **other)
        assert weighted.select("g", "bin").equals(rows.select("g", "bin"))
        assert_close(weighted["weight"].to_list(), rows["count"].cast(pl.Float64).to_list(), 0)
        for c in ("mean_score", "fraction_positive", "ci_low", "ci_high"):
            assert_close(weighted[c].to_list(), rows[c].to_list(), 1e-12)
    e1 = fe.calibration_error(df, weight="w", **kw)
    e1 = e1.filter(pl.col("g").is_in(repeated["g"].unique().to_list()))
    e2 = fe.calibration_error(repeated, **kw, **other)
    assert e1["g"].to_list() == e2["g"].to_list()
    for c in ("ece", "mce"):
        assert_close(e1[c].to_list(), e2[c].to_list(), 1e-12)


@given(df=weighted_binary_frames(), seed=st.integers(0, 2**16))
def test_weighted_lazy_equals_eager_and_row_order(df: pl.DataFrame, seed: int) -> None:
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    for strategy in ("uniform", "quantile"):
        kw = dict(truth="y", score="p", by="g", bins=4, strategy=strategy, weight="w")
        eager = fe.calibration_curve(df, **kw)
        lazy = fe.calibration_curve(shuffled.lazy(), **kw)
        assert isinstance(lazy, pl.LazyFrame)
        lazy = lazy.collect()
        assert lazy.select("g", "bin", "count").equals(eager.select("g", "bin", "count"))
        for c in ("mean_score", "fraction_positive", "weight", "ci_low", "ci_high"):
            assert_close(lazy[c].to_list(), eager[c].to_list(), 1e-12)
        e1 = fe.calibration_error(df, **kw)
        e2 = fe.calibration_error(shuffled.lazy(), **kw)
        assert isinstance(e2, pl.LazyFrame)
        for c in ("ece", "mce"):
            assert_close(e2.collect()[c].to_list(), e1[c].to_list(), 1e-12)


@pytest.mark.parametrize("how", ["top_label", "classwise"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(df=multiclass_frames())
def test_weighted_multiclass_ece_equals_hand_computation(
    df: pl.DataFrame, how: str, strategy: str
) -> None:
    out = fe.calibration_error(
        df, truth="y", score=["p0", "p1", "p2"], labels=[0, 1, 2], by="g", bins=4,
        strategy=strategy, multiclass=how, weight="w",
    )  # fmt: skip
    for part in df.partition_by("g", maintain_order=True):
        proba, y, w = part.select("p0", "p1", "p2").to_numpy(), part["y"].to_numpy(), part["w"]
        w = w.to_numpy()
        if how == "top_label":
            pairs = [((proba.argmax(axis=1) == y).astype(float), proba.max(axis=1))]
        else:
            pairs = [((y == i).astype(float), proba[:, i]) for i in range(3)]
        eces, mces = [], []
        for outcome, conf in pairs:
            _, _, _, mass, _, mean, frac = weighted_bins(outcome, conf, w, 4, strategy)
            eces.append((mass / mass.sum() * np.abs(frac - mean)).sum())
            mces.append(np.abs(frac - mean).max())
        row = out.filter(pl.col("g") == part["g"][0])
        assert_close(row["ece"].item(), np.mean(eces), 1e-12)
        assert_close(row["mce"].item(), np.max(mces), 1e-12)


def test_weighted_worked_example() -> None:
    """By hand: bins [0, .5] and (.5, 1]; weights 1, 2, 0 | 1, 3, 1.5.
    Bin 0: W = 3, p̄ = (0.1 + 0.4)/3 = 1/6, q = 0; bin 1: W = 5.5, p̄ = (0.6 + 2.4 + 1.35)/5.5,
    q = 4.5/5.5; ECE = (3·1/6 + |4.5 − 4.35|)/8.5 = 0.65/8.5."""
    df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.1, 0.2, 0.3, 0.6, 0.8, 0.9],
                       "w": [1.0, 2.0, 0.0, 1.0, 3.0, 1.5]})  # fmt: skip
    curve = fe.calibration_curve(df, truth="y", score="p", bins=2, weight="w", ci=None)
    assert curve["count"].to_list() == [3, 3] and curve["weight"].to_list() == [3.0, 5.5]
    assert_close(curve["mean_score"].to_list(), [0.5 / 3, 4.35 / 5.5], 1e-12)
    assert_close(curve["fraction_positive"].to_list(), [0.0, 4.5 / 5.5], 1e-12)
    row = fe.calibration_error(df, truth="y", score="p", bins=2, weight="w").row(0)
    assert_close(list(row), [0.65 / 8.5, 1 / 6], 1e-12)
