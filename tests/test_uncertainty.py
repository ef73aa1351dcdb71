"""Tests of frameeval.uncertainty: bootstrap replicates and intervals, DeLong, the corrected
resampled t test and the combined 5×2cv F test.

Oracles: a numpy re-implementation of the documented draws (SplitMix64) with scikit-learn
measures per group; scipy.stats.bootstrap (given our replicates as its bootstrap distribution)
for the percentile and BCa intervals; a direct O(n²) DeLong implementation and scikit-learn's
roc_auc_score; scipy.stats.ttest_rel for the t statistic; mlxtend's combined_ftest_5x2cv.
"""

from __future__ import annotations

import re
import warnings
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from scipy import stats
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score, roc_curve

import frameeval as fe
from frameeval import exceptions as ex
from tests.helpers.oracle import assert_close, per_group

MASK = (1 << 64) - 1


# ---------------------------------------------------------------------------------------------
# oracle of the documented draws
# ---------------------------------------------------------------------------------------------
def splitmix64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def draw_indices(strata: np.ndarray, n: int, seed: int) -> np.ndarray:
    """(n, m) unit indices drawn for a group whose units (ordered) belong to ``strata``
    (sorted), as documented in frameeval.uncertainty."""
    m = len(strata)
    seed_word = splitmix64(np.array([seed & MASK], dtype=np.uint64))[0]
    _, start, size = np.unique(strata, return_index=True, return_counts=True)
    which = np.searchsorted(np.unique(strata), strata)
    r = np.arange(n, dtype=np.uint64)[:, None]
    j = np.arange(m, dtype=np.uint64)[None, :]
    with np.errstate(over="ignore"):
        z = splitmix64(((r << np.uint64(32)) + j) ^ seed_word)
    offset = ((z >> np.uint64(32)) * size[which].astype(np.uint64)[None, :]) >> np.uint64(32)
    return start[which][None, :] + offset.astype(np.int64)


def oracle_replicates(part: pl.DataFrame, measure, n: int, seed: int, instance=None, strat=None):
    order = [c for c in (strat, instance) if c is not None]
    part = part.sort(order) if order else part
    strata = part[strat].to_numpy() if strat else np.zeros(part.height, dtype=np.int64)
    idx = draw_indices(strata, n, seed)
    return [measure(part[row]) for row in idx]


def binary_frame(draw, max_groups=3, max_rows=12, with_ties=True):
    n_groups = draw(st.integers(1, max_groups))
    rows = []
    for g in range(n_groups):
        m = draw(st.integers(2, max_rows))
        for i in range(m):
            y = draw(st.integers(0, 1))
            p = draw(st.integers(0, 1))
            s = draw(st.integers(0, 4)) / 4 if with_ties else draw(st.floats(0, 1))
            rows.append((g, i, y, p, s))
    return pl.DataFrame(rows, schema=["g", "i", "y", "p", "s"], orient="row")


frames = st.composite(binary_frame)


def sk_accuracy(part: pl.DataFrame) -> float:
    return accuracy_score(part["y"], part["p"])


def sk_f1(part: pl.DataFrame) -> float | None:
    y, p = part["y"].to_numpy(), part["p"].to_numpy()
    if ((y == 1) | (p == 1)).sum() == 0:
        return None  # 0/0
    return f1_score(y, p)


def rank_auc(y: str, s: str) -> pl.Expr:
    """An independent AUC expression (Mann–Whitney with midranks), null with one class."""
    pos = pl.col(y) == 1
    n1 = pos.sum().cast(pl.Float64)
    n0 = pl.len().cast(pl.Float64) - n1
    u = pl.col(s).rank("average").filter(pos).sum() - n1 * (n1 + 1) / 2
    return pl.when((n1 > 0) & (n0 > 0)).then(u / (n1 * n0)).alias("auc")


def sk_auc(part: pl.DataFrame) -> float | None:
    y = part["y"].to_numpy()
    if y.min() == y.max():
        return None
    return roc_auc_score(y, part["s"].to_numpy())


# ---------------------------------------------------------------------------------------------
# bootstrap replicates
# ---------------------------------------------------------------------------------------------
@given(frames(), st.integers(0, 2**40), st.booleans(), st.booleans())
def test_replicates_match_the_documented_draws_and_sklearn_per_group(df, seed, inst, strat):
    """Grouped replicates = the same draws applied per group (partition_by) with scikit-learn
    measures, for rows or instances as units, with or without stratification."""
    n = 7
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed % 1000) if inst else df
    out = fe.bootstrap_replicates(
        shuffled,
        [fe.accuracy("y", "p"), fe.f1("y", "p"), rank_auc("y", "s")],
        by="g",
        repeats=n,
        seed=seed,
        instance="i" if inst else None,
        stratify="y" if strat else None,
    )
    assert out.columns == ["g", "replicate", "accuracy", "f1", "auc"]
    assert out["replicate"].to_list() == list(range(1, n + 1)) * df["g"].n_unique()
    for part in shuffled.partition_by("g", maintain_order=True):
        mine = out.filter(pl.col("g") == part["g"][0])
        kw = dict(instance="i" if inst else None, strat="y" if strat else None)
        for name, oracle in (("accuracy", sk_accuracy), ("f1", sk_f1), ("auc", sk_auc)):
            expected = oracle_replicates(part, oracle, n, seed, **kw)
            assert_close(mine[name].to_list(), expected, 1e-12)


@given(frames(max_groups=2), st.integers(0, 1000))
def test_replicates_do_not_depend_on_row_order_batches_or_laziness(df, seed):
    measure = [fe.accuracy("y", "p"), rank_auc("y", "s")]
    kw = dict(by="g", instance="i", repeats=9, seed=seed, stratify="y")
    base = fe.bootstrap_replicates(df, measure, **kw)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
    assert fe.bootstrap_replicates(shuffled, measure, **kw).equals(base)
    assert fe.bootstrap_replicates(df, measure, batch_size=2, **kw).equals(base)
    lazy = fe.bootstrap_replicates(df.lazy(), measure, **kw)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(base)


def test_groups_with_the_same_instances_get_the_same_draws():
    """Paired bootstrap: with instance=, every group holding the same instances is resampled
    identically in each replicate (so per-replicate differences between models are paired)."""
    ids = list(range(15))
    df = pl.DataFrame(
        {"model": ["a"] * 15 + ["b"] * 15, "i": ids + ids[::-1], "x": ids + ids[::-1]}
    )
    out = fe.bootstrap_replicates(
        df, pl.col("x").sum(), by="model", instance="i", repeats=50, seed=3
    )
    a = out.filter(pl.col("model") == "a")["x"]
    b = out.filter(pl.col("model") == "b")["x"]
    assert a.to_list() == b.to_list()
    assert a.n_unique() > 10  # and the replicates do differ from each other


def test_draws_are_multinomial():
    """Each replicate draws m units with replacement uniformly: the count of one unit is
    Binomial(m, 1/m) (mean 1, variance 1 − 1/m), and every replicate has m rows. 4,000
    replicates: the sample mean is within 4 standard errors (deterministic for the seed)."""
    m, n = 10, 4000
    df = pl.DataFrame({"i": range(m)})
    out = fe.bootstrap_replicates(
        df, [(pl.col("i") == 0).sum().alias("c0"), pl.len().alias("rows")], instance="i", repeats=n
    )
    assert out["rows"].unique().to_list() == [m]
    counts = out["c0"].to_numpy().astype(float)
    var = 1 - 1 / m
    assert abs(counts.mean() - 1) < 4 * np.sqrt(var / n)
    assert abs(counts.var(ddof=1) - var) < 0.1
    # every unit is drawn about equally often across all replicates and slots
    units = fe.bootstrap_replicates(
        df, [(pl.col("i") == k).sum().alias(f"u{k}") for k in range(m)], instance="i", repeats=n
    )
    totals = units.select(pl.all().exclude("replicate").sum()).row(0)
    chi2 = sum((t - n) ** 2 / n for t in totals)
    assert stats.chi2.sf(chi2, m - 1) > 1e-3


def test_stratified_replicates_keep_the_class_sizes():
    df = pl.DataFrame({"y": [1] * 3 + [0] * 17, "s": np.linspace(0, 1, 20)})
    out = fe.bootstrap_replicates(
        df, [pl.col("y").sum().alias("pos"), rank_auc("y", "s")], repeats=200, stratify="y", seed=5
    )
    assert out["pos"].unique().to_list() == [3]
    assert out["auc"].null_count() == 0
    plain = fe.bootstrap_replicates(df, rank_auc("y", "s"), repeats=200, seed=5)
    assert plain["auc"].null_count() > 0  # some resamples miss the positives: AUC undefined


def test_seed_changes_the_draws_and_is_reproducible():
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1, 0], "p": [1, 0, 0, 1, 1, 0, 1, 1]})
    a = fe.bootstrap_replicates(df, fe.accuracy("y", "p"), repeats=30, seed=1)
    assert a.equals(fe.bootstrap_replicates(df, fe.accuracy("y", "p"), repeats=30, seed=1))
    assert not a.equals(fe.bootstrap_replicates(df, fe.accuracy("y", "p"), repeats=30, seed=2))
    # the first replicates do not depend on how many are drawn
    b = fe.bootstrap_replicates(df, fe.accuracy("y", "p"), repeats=10, seed=1)
    assert b.equals(a.head(10))


def test_a_weighted_measure_and_a_plain_expression_are_resampled_too():
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 1, 1, 0], "w": [1, 2, 3, 1, 2, 3]})
    out = fe.bootstrap_replicates(
        df,
        [fe.accuracy("y", "p", weight="w"), (pl.col("y") - pl.col("p")).abs().mean().alias("e")],
        repeats=20,
        seed=4,
    )
    expected_w, expected_e = [], []
    for row in draw_indices(np.zeros(6), 20, 4):
        part = df[row]
        expected_w.append(accuracy_score(part["y"], part["p"], sample_weight=part["w"]))
        expected_e.append(1 - accuracy_score(part["y"], part["p"]))
    assert_close(out["accuracy"].to_list(), expected_w, 1e-12)
    assert_close(out["e"].to_list(), expected_e, 1e-12)


# ---------------------------------------------------------------------------------------------
# bootstrap intervals
# ---------------------------------------------------------------------------------------------
def scipy_interval(part: pl.DataFrame, replicates: np.ndarray, method: str, level: float):
    """scipy.stats.bootstrap's interval computed from *our* replicates (passed as a previous
    bootstrap distribution with n_resamples=0); statistic: accuracy over paired (y, p)."""

    def statistic(y, p, axis=-1):
        return (y == p).mean(axis=axis)

    previous = SimpleNamespace(bootstrap_distribution=replicates)
    res = stats.bootstrap(
        (part["y"].to_numpy(), part["p"].to_numpy()),
        statistic,
        paired=True,
        vectorized=True,
        n_resamples=0,
        bootstrap_result=previous,
        confidence_level=level,
        method=method,
    )
    return res.confidence_interval.low, res.confidence_interval.high, res.standard_error


@pytest.mark.parametrize("method", ["percentile", "bca"])
@given(df=frames(max_rows=25), seed=st.integers(0, 10_000), level=st.sampled_from([0.8, 0.95]))
def test_intervals_match_scipy_bootstrap_on_the_same_replicates(df, seed, level, method):
    n = 60
    kw = dict(by="g", instance="i", repeats=n, seed=seed)
    ci = fe.bootstrap_ci(df, fe.accuracy("y", "p"), level=level, method=method, **kw)
    reps = fe.bootstrap_replicates(df, fe.accuracy("y", "p"), **kw)
    assert ci.columns == [
        "g",
        "metric",
        "estimate",
        "bias",
        "std_error",
        "lower",
        "upper",
        "level",
        "method",
        "n_replicates",
    ]
    for part in df.partition_by("g", maintain_order=True):
        g = part["g"][0]
        row = ci.filter(pl.col("g") == g).row(0, named=True)
        values = reps.filter(pl.col("g") == g)["accuracy"].to_numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scipy's DegenerateDataWarning: its NaN is our null
            low, high, se = scipy_interval(part.sort("i"), values, method, level)
        assert row["metric"] == "accuracy" and row["n_replicates"] == n
        assert_close(row["estimate"], sk_accuracy(part), 1e-12)
        assert_close(row["std_error"], se, 1e-9)
        assert_close(row["bias"], values.mean() - sk_accuracy(part), 1e-12)
        assert_close([row["lower"], row["upper"]], [low, high], 1e-9)


def test_percentile_interval_is_numpys_linear_quantile_of_the_replicates():
    df = pl.DataFrame({"g": [1] * 30 + [2] * 30, "y": ([1, 0, 1] * 20), "s": np.linspace(0, 1, 60)})
    measure = rank_auc("y", "s")
    ci = fe.bootstrap_ci(df, measure, by="g", repeats=101, level=0.9, seed=8)
    reps = fe.bootstrap_replicates(df, measure, by="g", repeats=101, seed=8)
    for g in (1, 2):
        values = reps.filter(pl.col("g") == g)["auc"].drop_nulls().to_numpy()
        row = ci.filter(pl.col("g") == g).row(0, named=True)
        assert_close([row["lower"], row["upper"]], np.percentile(values, [5, 95]), 1e-12)
        assert row["n_replicates"] == len(values)


def test_several_measures_come_back_long_in_their_order():
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1, 0], "p": [1, 0, 0, 1, 1, 0, 1, 1]})
    ci = fe.bootstrap_ci(df, [fe.recall("y", "p"), fe.accuracy("y", "p")], repeats=50)
    assert ci["metric"].to_list() == ["recall", "accuracy"]
    assert ci["method"].to_list() == ["percentile"] * 2
    assert (ci["lower"] <= ci["estimate"]).all() and (ci["estimate"] <= ci["upper"]).all()


def test_bca_jackknife_for_a_continuous_measure_matches_scipy():
    """Distinct profiles = units here (continuous values): the grouped jackknife is the plain
    one. Statistic: mean absolute error, compared with scipy.stats.bootstrap's BCa."""
    rng = np.random.default_rng(0)
    df = pl.DataFrame({"y": rng.normal(size=40), "f": rng.normal(size=40)})
    measure = (pl.col("y") - pl.col("f")).abs().mean().alias("mae")
    ci = fe.bootstrap_ci(df, measure, repeats=300, method="bca", seed=2)
    reps = fe.bootstrap_replicates(df, measure, repeats=300, seed=2)["mae"].to_numpy()
    previous = SimpleNamespace(bootstrap_distribution=reps)
    res = stats.bootstrap(
        (df["y"].to_numpy(), df["f"].to_numpy()),
        lambda y, f, axis=-1: np.abs(y - f).mean(axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=0,
        bootstrap_result=previous,
        method="BCa",
    )
    assert_close([ci["lower"][0], ci["upper"][0]], list(res.confidence_interval), 1e-9)


def test_undefined_estimate_and_degenerate_bca_give_null():
    df = pl.DataFrame(
        {"g": [1, 1, 1, 2, 2, 2], "y": [1, 1, 1, 1, 0, 0], "s": [0.1, 0.5, 0.9, 0.8, 0.3, 0.2]}
    )
    ci = fe.bootstrap_ci(df, rank_auc("y", "s"), by="g", repeats=40)
    one_class = ci.filter(pl.col("g") == 1).row(0, named=True)
    assert one_class["estimate"] is None and one_class["lower"] is None
    assert one_class["n_replicates"] == 0
    # perfect separation: every defined replicate is 1 = θ̂ → BCa's z0 is defined (ties ½) but
    # the jackknife values are all 1: acceleration 0/0 → null interval
    bca = fe.bootstrap_ci(df, rank_auc("y", "s"), by="g", repeats=40, method="bca")
    perfect = bca.filter(pl.col("g") == 2).row(0, named=True)
    assert perfect["estimate"] == 1.0 and perfect["lower"] is None
    pct = ci.filter(pl.col("g") == 2).row(0, named=True)
    assert pct["lower"] == 1.0 == pct["upper"]


def test_bootstrap_input_errors():
    df = pl.DataFrame({"g": [1, 1, 2], "i": [1, 1, 2], "y": [1, 0, 1], "p": [1, 1, 1]})
    acc = fe.accuracy("y", "p")
    with pytest.raises(
        ex.InvalidParameterError, match=r"bootstrap_ci\(\): measure must be a Polars expression"
    ):
        fe.bootstrap_ci(df, "accuracy")
    with pytest.raises(
        ex.InvalidParameterError, match=r"measure names must be unique, got \['accuracy'\]"
    ):
        fe.bootstrap_ci(df, [acc, acc])
    with pytest.raises(
        ex.InvalidDtypeError, match=r"measure 'y' must aggregate to one number per group, got List"
    ):
        fe.bootstrap_ci(df, pl.col("y"), by="g")
    with pytest.raises(ex.ColumnNotFoundError, match=r"column 'z' \(measure=\) not found"):
        fe.bootstrap_ci(df, pl.col("z").mean())
    with pytest.raises(ex.InvalidParameterError, match=r"level must be in \(0, 1\), got 95"):
        fe.bootstrap_ci(df, acc, level=95)
    with pytest.raises(
        ex.InvalidParameterError, match=r"method must be 'percentile' or 'bca', got 'basic'"
    ):
        fe.bootstrap_ci(df, acc, method="basic")
    with pytest.raises(ex.InvalidParameterError, match=r"repeats must be an integer >= 1, got 0"):
        fe.bootstrap_ci(df, acc, repeats=0)
    with pytest.raises(
        ex.InvalidParameterError, match=r"seed must be an integer in \[0, 2\*\*64\), got 1.5"
    ):
        fe.bootstrap_replicates(df, acc, seed=1.5)
    with pytest.raises(
        ex.InvalidParameterError, match=r"by= must not contain the instance= column"
    ):
        fe.bootstrap_ci(df, acc, by="i", instance="i")
    with pytest.raises(
        ex.DuplicateKeyError,
        match=r"rows must be unique per \['g', 'i'\] .*got 2 rows for g=1, i=1",
    ):
        fe.bootstrap_ci(df, acc, by="g", instance="i")
    with pytest.raises(
        ex.MissingValueError, match=r"column 'i' \(instance=\) must not contain nulls"
    ):
        fe.bootstrap_replicates(df.with_columns(i=pl.lit(None, pl.Int64)), acc, instance="i")
    lazy = fe.bootstrap_ci(df.lazy(), acc, by="g", instance="i")
    with pytest.raises(ex.DuplicateKeyError):
        fe.collect(lazy)


# ---------------------------------------------------------------------------------------------
# ROC band
# ---------------------------------------------------------------------------------------------
def sk_tpr_at(y: np.ndarray, s: np.ndarray, grid: list[float]) -> list[float | None]:
    """TPR of scikit-learn's ROC curve (drop_intermediate=False: one point per distinct score)
    at each FPR: the largest TPR of the points at that FPR, else linear interpolation."""
    if y.min() == y.max():
        return [None] * len(grid)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    out = []
    for f in grid:
        at = np.isclose(fpr, f, rtol=0, atol=1e-12)
        out.append(tpr[at].max() if at.any() else float(np.interp(f, fpr, tpr)))
    return out


@given(frames(max_rows=20))
def test_roc_band_tpr_matches_sklearn_roc_curve(df):
    assume(df["y"].sum() > 0)
    grid = [i / 8 for i in range(9)]
    band = fe.roc_band(df, "y", "s", by="g", points=9, repeats=3)
    assert band.columns == [
        "g",
        "fpr",
        "tpr",
        "std_error",
        "lower",
        "upper",
        "level",
        "method",
        "n_replicates",
    ]
    for part in df.partition_by("g", maintain_order=True):
        mine = band.filter(pl.col("g") == part["g"][0])
        assert mine["fpr"].to_list() == grid
        expected = sk_tpr_at(part["y"].to_numpy(), part["s"].to_numpy(), grid)
        assert_close(mine["tpr"].to_list(), expected, 1e-12)


def test_roc_band_is_the_percentile_interval_of_stratified_replicates():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    df = pl.DataFrame({"i": range(40), "y": y, "s": np.round(rng.normal(y, 1.0), 1)})
    grid = [0.0, 0.25, 0.5, 0.75, 1.0]
    band = fe.roc_band(df, "y", "s", instance="i", points=5, repeats=80, level=0.9, seed=11)
    part = df.sort("y", "i")
    idx = draw_indices(part["y"].to_numpy(), 80, 11)
    reps = np.array(
        [sk_tpr_at(part["y"].to_numpy()[r], part["s"].to_numpy()[r], grid) for r in idx]
    )
    assert_close(band["lower"].to_list(), np.percentile(reps, 5, axis=0), 1e-12)
    assert_close(band["upper"].to_list(), np.percentile(reps, 95, axis=0), 1e-12)
    assert band["n_replicates"].to_list() == [80] * 5
    assert band["tpr"][-1] == 1.0 and band["lower"][-1] == 1.0
    # issue 14/15 vocabulary: stratified= is the deprecated alias of stratify=
    with pytest.warns(
        DeprecationWarning,
        match=r"roc_band\(\): stratified= is deprecated, "
        r"use stratify=",
    ):
        old = fe.roc_band(
            df, "y", "s", instance="i", points=5, repeats=80, level=0.9, seed=11, stratified=False
        )
    new = fe.roc_band(
        df, "y", "s", instance="i", points=5, repeats=80, level=0.9, seed=11, stratify=False
    )
    assert_frame_equal(old, new, rel_tol=1e-12)  # replicates are summed in varying order
    with pytest.raises(ex.InvalidParameterError, match=r"stratify must be True or False"):
        fe.roc_band(df, "y", "s", stratify="y")


def test_roc_band_errors():
    df = pl.DataFrame({"y": ["a", "b"], "s": [0.1, 0.2]})
    with pytest.raises(ex.InvalidParameterError, match=r"roc_band\(\): pos_label= is required"):
        fe.roc_band(df, "y", "s")
    with pytest.raises(ex.InvalidParameterError, match=r"points must be an integer >= 2, got 1"):
        fe.roc_band(df, "y", "s", pos_label="a", points=1)
    with pytest.raises(ex.UnknownLabelError, match=r"pos_label 'c' must occur in column 'y'"):
        fe.roc_band(df, "y", "s", pos_label="c")


# ---------------------------------------------------------------------------------------------
# DeLong
# ---------------------------------------------------------------------------------------------
def direct_delong(y: np.ndarray, *scores: np.ndarray):
    """O(n²) DeLong: AUCs, and the covariance matrix of the AUCs (DeLong et al. 1988)."""
    pos, neg = y == 1, y == 0
    m, n = pos.sum(), neg.sum()
    v10, v01, aucs = [], [], []
    for s in scores:
        x, z = s[pos][:, None], s[neg][None, :]
        psi = (x > z) + 0.5 * (x == z)
        aucs.append(psi.mean())
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    s10 = np.cov(np.vstack(v10), ddof=1) if m > 1 else np.full((len(scores),) * 2, np.nan)
    s01 = np.cov(np.vstack(v01), ddof=1) if n > 1 else np.full((len(scores),) * 2, np.nan)
    return np.array(aucs), np.atleast_2d(s10) / m + np.atleast_2d(s01) / n


@given(frames(max_rows=20), st.sampled_from([0.9, 0.95]))
def test_delong_ci_matches_the_direct_implementation_and_sklearn(df, level):
    if df["y"].sum() == 0:
        with pytest.raises(ex.UnknownLabelError, match=r"pos_label 1 must occur in column 'y'"):
            fe.delong_ci(df, "y", "s", by="g", level=level)
        return
    out = fe.delong_ci(df, "y", "s", by="g", level=level)
    z = stats.norm.ppf(0.5 + level / 2)

    def oracle(part):
        y, s = part["y"].to_numpy(), part["s"].to_numpy()
        row = {"n_pos": int(y.sum()), "n_neg": int((1 - y).sum())}
        if y.min() == y.max():
            return {**row, "estimate": None, "variance": None, "lower": None}
        auc, cov = direct_delong(y, s)
        assert_close(auc[0], roc_auc_score(y, s), 1e-12)
        var = cov[0, 0]
        low = None if np.isnan(var) else max(0.0, auc[0] - z * np.sqrt(var))
        return {**row, "estimate": auc[0], "variance": None if np.isnan(var) else var, "lower": low}

    expected = per_group(df, ["g"], oracle)
    assert out["g"].to_list() == expected["g"].to_list()
    assert out["n_pos"].to_list() == expected["n_pos"].to_list()
    assert out["n_neg"].to_list() == expected["n_neg"].to_list()
    for column in ("estimate", "variance", "lower"):
        assert_close(out[column].to_list(), expected[column].to_list(), 1e-12)


def test_delong_ci_golden_hanley_mcneil_1982():
    """Hanley & McNeil (1982), Radiology 143(1), Table 1: 109 CT images rated 1–5 (58 normal:
    33, 6, 6, 11, 2; 51 abnormal: 3, 2, 2, 11, 33); the paper reports AUC = 0.893."""
    neg, pos = [33, 6, 6, 11, 2], [3, 2, 2, 11, 33]
    rating = [r for r, c in enumerate(neg, 1) for _ in range(c)]
    rating += [r for r, c in enumerate(pos, 1) for _ in range(c)]
    df = pl.DataFrame({"y": [0] * 58 + [1] * 51, "rating": rating})
    out = fe.delong_ci(df, "y", "rating")
    assert round(out["estimate"][0], 3) == 0.893
    _, cov = direct_delong(df["y"].to_numpy(), df["rating"].to_numpy().astype(float))
    assert_close(out["variance"][0], cov[0, 0], 1e-12)


@given(frames(max_rows=15))
def test_delong_ci_invariances(df):
    if df["y"].min() == df["y"].max():
        assume(False)  # one class in the whole frame: pos_label (or its flip) is absent
    base = fe.delong_ci(df, "y", "s", by="g")
    monotone = fe.delong_ci(df.with_columns(s=pl.col("s").exp() * 3 - 1), "y", "s", by="g")
    assert_close(monotone["estimate"].to_list(), base["estimate"].to_list(), 1e-12)
    assert_close(monotone["variance"].to_list(), base["variance"].to_list(), 1e-12)
    flipped = fe.delong_ci(df.with_columns(y=1 - pl.col("y")), "y", "s", by="g")
    expected = [None if v is None else 1 - v for v in base["estimate"].to_list()]
    assert_close(flipped["estimate"].to_list(), expected, 1e-12)
    assert_close(flipped["variance"].to_list(), base["variance"].to_list(), 1e-12)
    shuffled = fe.delong_ci(df.sample(fraction=1.0, shuffle=True, seed=1), "y", "s", by="g")
    assert_close(shuffled["variance"].to_list(), base["variance"].to_list(), 1e-12)
    lazy = fe.delong_ci(df.lazy(), "y", "s", by="g")
    assert isinstance(lazy, pl.LazyFrame) and lazy.collect().equals(base)


def paired_frame(draw):
    n_groups = draw(st.integers(1, 3))
    rows = []
    for g in range(n_groups):
        for i in range(draw(st.integers(2, 15))):
            y = draw(st.integers(0, 1))
            for learner in ("A", "B"):
                rows.append((g, learner, i, y, draw(st.integers(0, 5)) / 5))
    return pl.DataFrame(rows, schema=["g", "learner", "instance", "y", "s"], orient="row")


@given(st.composite(paired_frame)(), st.sampled_from([0.01, 0.05]))
def test_delong_test_matches_the_direct_implementation(df, alpha):
    if df["y"].sum() == 0:
        assume(False)  # pos_label absent: an error, tested in test_delong_errors
    out = fe.delong_test(
        df.sample(fraction=1.0, shuffle=True, seed=0), "y", "s", a="A", b="B", by="g", alpha=alpha
    )
    crit = stats.norm.ppf(1 - alpha / 2)
    for part in df.partition_by("g", maintain_order=True):
        row = out.filter(pl.col("g") == part["g"][0]).row(0, named=True)
        a = part.filter(pl.col("learner") == "A").sort("instance")
        b = part.filter(pl.col("learner") == "B").sort("instance")
        y = a["y"].to_numpy()
        assert row["n_pos"] == y.sum() and row["n_neg"] == len(y) - y.sum()
        assert row["a"] == "A" and row["b"] == "B" and row["alpha"] == alpha
        if y.min() == y.max():
            assert row["roc_auc_a"] is None and row["statistic"] is None
            continue
        auc, cov = direct_delong(y, a["s"].to_numpy(), b["s"].to_numpy())
        assert_close([row["roc_auc_a"], row["roc_auc_b"]], auc, 1e-12)
        var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
        if np.isnan(var):
            assert row["std_error"] is None
            continue
        assert_close(row["std_error"], np.sqrt(max(var, 0.0)), 1e-9)
        assert_close(row["critical_value"], crit, 1e-12)
        if var <= 1e-15:
            assert row["statistic"] is None and row["reject"] is None
            continue
        z = (auc[0] - auc[1]) / np.sqrt(var)
        assert_close(row["statistic"], z, 1e-9)
        assert_close(row["p_value"], 2 * stats.norm.sf(abs(z)), 1e-9)
        assert row["reject"] == (abs(z) > crit)
        expected_better = ("A" if z > 0 else "B") if abs(z) > crit else None
        assert row["better"] == expected_better


def test_delong_test_identical_scores_and_degenerate_variance():
    df = pl.DataFrame(
        {
            "learner": ["A"] * 4 + ["B"] * 4,
            "instance": [1, 2, 3, 4] * 2,
            "y": [1, 1, 0, 0] * 2,
            "s": [0.9, 0.4, 0.6, 0.1] * 2,
        }
    )
    out = fe.delong_test(df, "y", "s", a="A", b="B").row(0, named=True)
    assert out["difference"] == 0.0 and out["std_error"] == 0.0
    assert out["statistic"] is None and out["p_value"] is None and out["better"] is None


def test_delong_errors():
    df = pl.DataFrame(
        {
            "learner": ["A", "A", "B", "B"],
            "instance": [1, 2, 1, 2],
            "y": [1, 0, 1, 0],
            "s": [0.9, 0.1, 0.8, 0.3],
        }
    )
    with pytest.raises(
        ex.InvalidValueError,
        match=r"column 'y' \(truth=\) must be the same in the rows of one instance, got different values for instance=2",
    ):
        fe.delong_test(df.with_columns(y=pl.Series([1, 0, 1, 1])), "y", "s", a="A", b="B")
    with pytest.raises(
        ex.InsufficientDataError,
        match=r"must both have a value for every instance, got 1 missing: instance=2 has no value for b='B'",
    ):
        fe.delong_test(df.head(3), "y", "s", a="A", b="B")
    with pytest.raises(ex.DuplicateKeyError, match=r"unique per \['learner', 'instance'\]"):
        fe.delong_test(pl.concat([df, df.head(1)]), "y", "s", a="A", b="B")
    with pytest.raises(ex.InvalidDtypeError, match=r"a= must match the dtype of column 'learner'"):
        fe.delong_test(df, "y", "s", a=1, b="B")
    with pytest.raises(ex.MissingValueError, match=r"column 's' \(score=\) must not contain NaN"):
        fe.delong_ci(df.with_columns(s=pl.lit(float("nan"))), "y", "s")
    with pytest.raises(ex.UnknownLabelError, match=r"pos_label 2 must occur in column 'y'"):
        fe.delong_ci(df, "y", "s", pos_label=2)
    with pytest.raises(ex.InvalidParameterError, match=r"level must be in \(0, 1\)"):
        fe.delong_ci(df, "y", "s", level=1.0)


# ---------------------------------------------------------------------------------------------
# corrected resampled t test
# ---------------------------------------------------------------------------------------------
def metric_frame(draw, repeats=3, folds=4):
    n_groups = draw(st.integers(1, 3))
    rows = []
    for g in range(n_groups):
        for r in range(repeats):
            for f in range(folds):
                for learner in ("A", "B"):
                    value = draw(st.integers(0, 40)) / 40
                    rows.append((g, learner, r, f, value))
    return pl.DataFrame(rows, schema=["g", "learner", "repeat", "fold", "accuracy"], orient="row")


@given(st.composite(metric_frame)(), st.sampled_from([(9, 1), (2, 1), (0.7, 0.3)]))
def test_corrected_t_matches_scipy_ttest_rel_rescaled(df, sizes):
    """t_corrected = t_paired · √((1/J) / (1/J + n_test/n_train)) (Nadeau & Bengio 2003), with
    scipy.stats.ttest_rel as the oracle for t_paired."""
    n_train, n_test = sizes
    out = fe.corrected_resampled_t_test(
        df,
        "accuracy",
        a="A",
        b="B",
        n_train=n_train,
        n_test=n_test,
        block=["repeat", "fold"],
        by="g",
    )

    def oracle(part):
        a = part.filter(pl.col("learner") == "A").sort("repeat", "fold")["accuracy"].to_numpy()
        b = part.filter(pl.col("learner") == "B").sort("repeat", "fold")["accuracy"].to_numpy()
        d = a - b
        if np.all(d == d[0]):
            t = None if d[0] == 0 else np.inf * np.sign(d[0])
        else:
            j = len(d)
            t = stats.ttest_rel(a, b).statistic * np.sqrt((1 / j) / (1 / j + n_test / n_train))
        p = None if t is None else 2 * stats.t.sf(abs(t), len(d) - 1)
        return {"statistic": t, "p_value": p, "mean": d.mean(), "n_pairs": len(d)}

    expected = per_group(df, ["g"], oracle)
    assert out["n_pairs"].to_list() == expected["n_pairs"].to_list()
    assert (out["df"] == out["n_pairs"] - 1).all()
    assert_close(out["mean"].to_list(), expected["mean"].to_list(), 1e-12)
    assert_close(out["statistic"].to_list(), expected["statistic"].to_list(), 1e-9)
    assert_close(out["p_value"].to_list(), expected["p_value"].to_list(), 1e-9)
    crit = stats.t.ppf(0.975, out["df"].to_numpy())
    assert_close(out["critical_value"].to_list(), crit, 1e-12)


def test_corrected_t_reduces_to_the_paired_t_test_and_is_smaller():
    df = pl.DataFrame(
        {
            "learner": ["A"] * 5 + ["B"] * 5,
            "fold": list(range(5)) * 2,
            "error_rate": [0.10, 0.12, 0.11, 0.09, 0.13, 0.14, 0.15, 0.12, 0.13, 0.16],
        }
    )
    plain = stats.ttest_rel(df["error_rate"][:5], df["error_rate"][5:])
    out = fe.corrected_resampled_t_test(df, "error_rate", a="A", b="B", n_train=4, n_test=1)
    row = out.row(0, named=True)
    assert_close(row["statistic"], plain.statistic * np.sqrt(0.2 / (0.2 + 0.25)), 1e-12)
    assert abs(row["statistic"]) < abs(plain.statistic)
    assert row["better"] == ("A" if row["reject"] else None)  # lower error is better


def test_corrected_t_errors():
    df = pl.DataFrame(
        {"learner": ["A", "B", "A", "B"], "fold": [1, 1, 2, 2], "m": [0.1, 0.2, 0.3, 0.2]}
    )
    kw = dict(a="A", b="B", n_train=4, n_test=1, higher_is_better=True)
    with pytest.raises(ex.InvalidParameterError, match=r"n_test must be a positive number, got 0"):
        fe.corrected_resampled_t_test(df, "m", **{**kw, "n_test": 0})
    with pytest.raises(
        ex.InvalidParameterError, match=r"higher_is_better= is required for metric column 'm'"
    ):
        fe.corrected_resampled_t_test(df, "m", **{**kw, "higher_is_better": None})
    with pytest.raises(
        ex.InsufficientDataError,
        match=r"needs at least 2 splits \(fold\) with both learners, got 1",
    ):
        fe.corrected_resampled_t_test(df.head(2), "m", **kw)
    with pytest.raises(ex.InsufficientDataError, match=r"fold=2 has no value for b='B'"):
        fe.corrected_resampled_t_test(df.head(3), "m", **kw)
    with pytest.raises(
        ex.InsufficientDataError, match=r"must both have rows, got 2 rows of a and 0 rows of b"
    ):
        fe.corrected_resampled_t_test(df.filter(pl.col("learner") == "A"), "m", **kw)


# ---------------------------------------------------------------------------------------------
# combined 5×2cv F test
# ---------------------------------------------------------------------------------------------
def test_cv5x2_f_critical_value_golden():
    """Alpaydin (1999) / the issue: the critical F(10, 5) at α = 0.05 is 4.7351."""
    rows = [("A", i, j, 0.8 + 0.01 * i + 0.003 * j) for i in range(5) for j in (1, 2)]
    rows += [("B", i, j, 0.79 + 0.011 * i - 0.002 * j) for i in range(5) for j in (1, 2)]
    df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    out = fe.cv5x2_f_test(df, "accuracy", a="A", b="B").row(0, named=True)
    assert round(out["critical_value"], 4) == 4.7351
    assert (out["df1"], out["df2"], out["n_repeats"]) == (10, 5, 5)


def mlxtend_f(a_scores: np.ndarray, b_scores: np.ndarray) -> tuple[float, float]:
    """mlxtend's combined_ftest_5x2cv fed with given fold scores: its scorer is called for
    learner 1 then learner 2 on fold 1 then fold 2 of each repeat; we return the scores."""
    from mlxtend.evaluate import combined_ftest_5x2cv
    from sklearn.dummy import DummyClassifier

    sequence = iter(np.column_stack([a_scores, b_scores]).reshape(-1))
    X = np.zeros((20, 1))
    y = np.array([0, 1] * 10)
    return combined_ftest_5x2cv(
        DummyClassifier(),
        DummyClassifier(),
        X,
        y,
        scoring=lambda est, X_, y_: next(sequence),
        random_seed=0,
    )


@given(st.composite(metric_frame)(repeats=5, folds=2))
def test_cv5x2_f_matches_mlxtend(df):
    out = fe.cv5x2_f_test(df.reverse(), "accuracy", a="A", b="B", by="g", fold="fold")
    for part in df.partition_by("g", maintain_order=True):
        row = out.filter(pl.col("g") == part["g"][0]).row(0, named=True)
        a = part.filter(pl.col("learner") == "A").sort("repeat", "fold")["accuracy"].to_numpy()
        b = part.filter(pl.col("learner") == "B").sort("repeat", "fold")["accuracy"].to_numpy()
        d = (a - b).reshape(5, 2)
        assert_close(row["mean"], d.mean(), 1e-12)
        if np.all(d[:, 0] == d[:, 1]):  # denominator 0
            expected = None if np.all(d == 0) else np.inf
            assert_close(row["statistic"], expected, 0)
            continue
        with np.errstate(all="ignore"):
            f, p = mlxtend_f(a, b)
        assert_close([row["statistic"], row["p_value"]], [f, p], 1e-9)
        assert row["reject"] == (f > stats.f.ppf(0.95, 10, 5))


def test_cv5x2_f_errors():
    rows = [("A", i, j, 0.8) for i in range(5) for j in (1, 2)] + [
        ("B", i, j, 0.7) for i in range(5) for j in (1, 2)
    ]
    df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    extra = pl.DataFrame([("A", 0, 3, 0.5), ("B", 0, 3, 0.5)], schema=df.schema, orient="row")
    with pytest.raises(
        ex.InsufficientDataError,
        match=r"every 'repeat' must have exactly 2 'fold' values with both learners, got 3 for repeat=0",
    ):
        fe.cv5x2_f_test(pl.concat([df, extra]), "accuracy", a="A", b="B")
    with pytest.raises(ex.DuplicateKeyError, match=re.escape("['repeat', 'fold', 'learner']")):
        fe.cv5x2_f_test(pl.concat([df, df.head(1)]), "accuracy", a="A", b="B")
    with pytest.raises(ex.InvalidParameterError, match=r"alpha must be in \(0, 1\), got 0"):
        fe.cv5x2_f_test(df, "accuracy", a="A", b="B", alpha=0)
    out = fe.cv5x2_f_test(df, "accuracy", a="A", b="B").row(0, named=True)
    assert out["statistic"] == float("inf") and out["reject"] and out["better"] == "A"


def test_numpy_learner_names_are_learner_names_in_every_two_learner_test():
    """``a=`` / ``b=`` go through one learner check (``compare.door.check_learner_value``):
    a NumPy integer names a learner of an integer column in the resampled tests and DeLong's
    as it does in the paired t-test (they were refused there before), and a float for an
    integer column, or a string, is the same typed error everywhere."""
    rows = [
        (k, i, j, 0.8 - 0.1 * (k == 2) + 0.01 * i) for k in (1, 2) for i in range(5) for j in (1, 2)
    ]
    df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "accuracy"], orient="row")
    y = [1, 0, 1, 1, 0, 0, 1, 0]
    scores = pl.DataFrame(
        {
            "learner": [1] * 8 + [2] * 8,
            "i": list(range(8)) * 2,
            "y": y * 2,
            "s": [0.9, 0.2, 0.4, 0.8, 0.1, 0.6, 0.3, 0.5]
            + [0.7, 0.3, 0.6, 0.9, 0.2, 0.1, 0.8, 0.4],
        }
    )
    tests = {
        "cv5x2_f_test": lambda a, b: fe.cv5x2_f_test(df, "accuracy", a=a, b=b),
        "corrected_resampled_t_test": lambda a, b: fe.corrected_resampled_t_test(
            df, "accuracy", a=a, b=b, n_train=90, n_test=10, block=["repeat", "fold"]
        ),
        "paired_t_test": lambda a, b: fe.paired_t_test(
            df.with_columns(cell=pl.col("repeat") * 2 + pl.col("fold")),
            "accuracy",
            a=a,
            b=b,
            block="cell",
        ),
        "delong_test": lambda a, b: fe.delong_test(
            scores, truth="y", score="s", learner="learner", a=a, b=b, instance="i"
        ),
    }
    for name, run in tests.items():
        assert run(np.int64(1), np.int64(2)).equals(run(1, 2)), name
        with pytest.raises(ex.InvalidDtypeError, match=rf"{name}\(\): a= must match the dtype"):
            run("1", 2)


# ---------------------------------------------------------------------------------------------
# frame kinds and label types
# ---------------------------------------------------------------------------------------------
def test_pandas_in_dataframe_out_and_lazy_in_lazy_out():
    df = pl.DataFrame(
        {"g": [1, 1, 1, 2, 2, 2], "y": [1, 0, 1, 1, 0, 0], "s": [0.9, 0.2, 0.4, 0.8, 0.1, 0.6]}
    )
    ci = fe.bootstrap_ci(df.to_pandas(), rank_auc("y", "s"), by="g", repeats=20, seed=3)
    assert isinstance(ci, pl.DataFrame)
    again = fe.bootstrap_ci(df, rank_auc("y", "s"), by="g", repeats=20, seed=3)
    assert_frame_equal(ci, again, rel_tol=1e-12)
    for lazy in (
        fe.bootstrap_ci(df.lazy(), rank_auc("y", "s"), by="g", repeats=20, method="bca"),
        fe.roc_band(df.lazy(), "y", "s", by="g", repeats=5),
        fe.delong_ci(df.lazy(), "y", "s", by="g"),
    ):
        assert isinstance(lazy, pl.LazyFrame)
        lazy.collect()


def test_delong_string_labels_equal_numeric_ones():
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1], "s": [0.9, 0.2, 0.4, 0.8, 0.1, 0.6, 0.3]})
    text = df.with_columns(
        pl.when(pl.col("y") == 1).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("y")
    )
    assert fe.delong_ci(text, "y", "s", pos_label="yes").equals(fe.delong_ci(df, "y", "s"))
    cat = text.with_columns(pl.col("y").cast(pl.Categorical))
    assert fe.delong_ci(cat, "y", "s", pos_label="yes").equals(fe.delong_ci(df, "y", "s"))


@given(st.composite(metric_frame)())
def test_resampled_tests_do_not_depend_on_row_order_and_laziness(df):
    kw = dict(a="A", b="B", n_train=3, n_test=1, block=["repeat", "fold"], by="g")
    base = fe.corrected_resampled_t_test(df, "accuracy", **kw)
    # summation order may change the last bits of the mean and std
    close = dict(check_exact=False, rel_tol=1e-9, abs_tol=1e-12)
    assert_frame_equal(fe.corrected_resampled_t_test(df.reverse(), "accuracy", **kw), base, **close)
    lazy = fe.corrected_resampled_t_test(df.lazy(), "accuracy", **kw)
    assert_frame_equal(lazy.collect(), base, **close)


def test_renamed_arguments_keep_working_for_one_release():
    """Issue 14 vocabulary: repeats= (a count of resamples, as in frameeval.split) and block=
    (as in paired_t_test); the old names warn, naming the new one, and give the same result."""
    df = pl.DataFrame(
        {
            "i": list(range(8)),
            "y": [1, 0, 1, 1, 0, 0, 1, 0],
            "p": [1, 0, 0, 1, 1, 0, 1, 0],
            "s": [0.9, 0.2, 0.4, 0.8, 0.7, 0.1, 0.6, 0.3],
        }
    )
    acc = fe.accuracy("y", "p")
    with pytest.warns(
        DeprecationWarning,
        match=r"bootstrap_ci\(\): n= is deprecated .* use "
        r"repeats= \(the same count\), got n=30",
    ):
        old = fe.bootstrap_ci(df, acc, n=30, seed=3)
    # the same resamples; sums over them may run in another order (last-bit differences)
    assert_frame_equal(old, fe.bootstrap_ci(df, acc, repeats=30, seed=3), rel_tol=1e-12)
    with pytest.warns(DeprecationWarning, match=r"bootstrap_replicates\(\): n= is deprecated"):
        old = fe.bootstrap_replicates(df, acc, n=5, seed=3)
    assert old.equals(fe.bootstrap_replicates(df, acc, repeats=5, seed=3))
    with pytest.warns(DeprecationWarning, match=r"roc_band\(\): n= is deprecated .* repeats="):
        old = fe.roc_band(df, "y", "s", points=3, n=20, stratify=False)
    new_band = fe.roc_band(df, "y", "s", points=3, repeats=20, stratify=False)
    assert_frame_equal(old, new_band, rel_tol=1e-12)
    scores = pl.DataFrame(
        {
            "learner": ["A", "B"] * 4,
            "repeat": [0] * 4 + [1] * 4,
            "fold": [0, 0, 1, 1] * 2,
            "accuracy": [0.8, 0.7, 0.9, 0.75, 0.85, 0.7, 0.8, 0.8],
        }
    )
    kw = dict(a="A", b="B", n_train=1, n_test=1)
    with pytest.warns(
        DeprecationWarning,
        match=r"corrected_resampled_t_test\(\): pair= is "
        r"deprecated .* use block= \(the same column\)",
    ):
        old = fe.corrected_resampled_t_test(scores, "accuracy", **kw, pair=["repeat", "fold"])
    new = fe.corrected_resampled_t_test(scores, "accuracy", **kw, block=["repeat", "fold"])
    assert old.equals(new)
    assert fe.compare.corrected_resampled_t_test is fe.uncertainty.corrected_resampled_t_test
