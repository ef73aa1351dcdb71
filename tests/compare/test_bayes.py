"""Tests of frameeval.compare.bayes: bayes_correlated_t (Corani & Benavoli 2015) and
bayes_signed_rank (Benavoli et al. 2014).

Oracles: baycomp's ``CorrelatedTTest`` (exact probabilities, to 1e-9) and ``SignedRankTest``
(Monte-Carlo: |Δp| ≤ 0.02 at 50,000 samples each), per group and pair; scipy's t distribution
for an explicit rho; a direct per-sample numpy transcription of the signed-rank posterior drawn
from the same seeded generator (exact); the Dirichlet moments for the posterior means.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from baycomp import CorrelatedTTest, SignedRankTest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, InvalidParameterError, InvalidValueError
from tests.compare._tables import assert_frames_close, metric_tables, shuffled
from tests.helpers.examples import budget

LEARNERS = ["A", "B", "C", "D"]
PROBS = ["p_a_better", "p_rope", "p_b_better"]


@st.composite
def cv_tables(draw, *, repeats: tuple[int, int] = (1, 1)) -> pl.DataFrame:
    """Long ``g, repeat, fold, learner, value`` frames: per group 2–4 learners, 2–5 folds,
    ``repeats`` repetitions; integer values (so constant differences are exactly constant)."""
    frames = []
    for g in range(draw(st.integers(1, 3))):
        k = draw(st.integers(2, 4))
        folds = draw(st.integers(2, 5))
        runs = draw(st.integers(*repeats))
        rows = []
        for learner in LEARNERS[:k]:
            values = draw(st.lists(st.integers(0, 6), min_size=folds * runs, max_size=folds * runs))
            rows += [
                (g, r, f, learner, float(values[r * folds + f]))
                for r in range(runs)
                for f in range(folds)
            ]
        frames.append(
            pl.DataFrame(rows, schema=["g", "repeat", "fold", "learner", "value"], orient="row")
        )
    return pl.concat(frames)


def _vector(part: pl.DataFrame, learner: str, order: list[str]) -> np.ndarray:
    return part.filter(pl.col("learner") == learner).sort(order)["value"].to_numpy()


def _baycomp_t(x: np.ndarray, y: np.ndarray, rope: float, runs: int) -> tuple[float, ...]:
    probs = CorrelatedTTest.probs(x, y, rope=rope, runs=runs)
    if rope == 0:
        return (float(probs[0]), 0.0, float(probs[1]))
    return tuple(float(p) for p in probs)


# ---------------------------------------------------------------------------------------------
# correlated t
# ---------------------------------------------------------------------------------------------
@given(
    df=cv_tables(repeats=(1, 3)),
    rope=st.sampled_from([0.0, 0.5, 1.0, 2.5]),
    hib=st.booleans(),
    use_repeat=st.booleans(),
)
def test_correlated_t_matches_baycomp_per_group_and_pair(df, rope, hib, use_repeat):
    if not use_repeat:
        df = df.filter(pl.col("repeat") == 0).drop("repeat")
    repeat = "repeat" if use_repeat else None
    out = fe.bayes_correlated_t(df, "value", rope=rope, repeat=repeat, by="g", higher_is_better=hib)
    order = ["repeat", "fold"] if use_repeat else ["fold"]
    expected = []
    for part in df.partition_by("g", maintain_order=True):
        runs = part["repeat"].n_unique() if use_repeat else 1
        for a, b in itertools.combinations(sorted(part["learner"].unique()), 2):
            x, y = _vector(part, a, order), _vector(part, b, order)
            left, inside, right = _baycomp_t(x, y, rope, runs)
            a_better, b_better = (left, right) if hib else (right, left)
            expected.append((part["g"][0], a, b, (x - y).mean(), a_better, inside, b_better))
    expected_df = pl.DataFrame(
        expected, schema=["g", "a", "b", "mean_difference", *PROBS], orient="row"
    ).sort("g", "a", "b")
    assert out.columns == ["g", "a", "b", "mean_difference", *PROBS, "cohen_d", "cliff_delta"]
    assert out.select("g", "a", "b").rows() == expected_df.select("g", "a", "b").rows()
    for column in ["mean_difference", *PROBS]:
        np.testing.assert_allclose(out[column], expected_df[column], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(out.select(pl.sum_horizontal(PROBS)).to_series(), 1.0, atol=1e-12)
    kwargs = {"rope": rope, "repeat": repeat, "by": "g", "higher_is_better": hib}
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.bayes_correlated_t(shuffled(df).lazy(), "value", **kwargs)
    assert_frames_close(lazy.collect(), out, 1e-12)


def test_correlated_t_explicit_rho_and_one_pair():
    """With rho=ρ the posterior is t_{n−1}(d̄, (1/n + ρ/(1−ρ)) s²) (Corani & Benavoli 2015);
    a= and b= select one ordered pair and swap the roles."""
    rng = np.random.default_rng(3)
    df = pl.DataFrame(
        {
            "learner": ["A"] * 10 + ["B"] * 10 + ["C"] * 10,
            "fold": list(range(10)) * 3,
            "error_rate": rng.uniform(0.1, 0.3, 30),
        }
    )
    out = fe.bayes_correlated_t(df, "error_rate", rope=0.01, rho=0.25, a="B", b="A")
    d = df.filter(learner="B")["error_rate"].to_numpy() - df.filter(learner="A")["error_rate"]
    d = np.asarray(d)
    scale = np.sqrt((1 / 10 + 0.25 / 0.75) * d.var(ddof=1))
    # lower error rate is better: "B better" is d = B − A < −rope
    p_b_better_than_a = stats.t.cdf(-0.01, 9, loc=d.mean(), scale=scale)
    row = out.row(0, named=True)
    assert (row["a"], row["b"]) == ("B", "A")
    assert row["p_a_better"] == pytest.approx(p_b_better_than_a, abs=1e-12)
    assert row["p_b_better"] == pytest.approx(stats.t.sf(0.01, 9, d.mean(), scale), abs=1e-12)
    swapped = fe.bayes_correlated_t(df, "error_rate", rope=0.01, rho=0.25, a="A", b="B")
    assert swapped["p_a_better"].item() == pytest.approx(row["p_b_better"], abs=1e-12)
    assert swapped["mean_difference"].item() == pytest.approx(-row["mean_difference"], abs=1e-12)
    everything = fe.bayes_correlated_t(df, "error_rate", rope=0.01, rho=0.25)
    assert everything.select("a", "b").rows() == [("A", "B"), ("A", "C"), ("B", "C")]
    assert everything.row(0, named=True)["p_a_better"] == pytest.approx(row["p_b_better"])


@pytest.mark.parametrize(
    ("diff", "rope", "expected"),
    [
        (0.0, 0.0, (0.5, 0.0, 0.5)),  # a point mass at 0 with no ROPE: split (baycomp)
        (0.0, 0.25, (0.0, 1.0, 0.0)),
        (0.25, 0.25, (0.0, 1.0, 0.0)),  # on the boundary: equivalent
        (0.5, 0.25, (1.0, 0.0, 0.0)),
        (-0.5, 0.0, (0.0, 0.0, 1.0)),
    ],
)
def test_correlated_t_zero_variance_is_a_point_mass(diff, rope, expected):
    a_values = [0.5, 0.25, 0.75, 0.125]
    df = pl.DataFrame(
        {
            "learner": ["A"] * 4 + ["B"] * 4,
            "fold": list(range(4)) * 2,
            "accuracy": a_values + [v - diff for v in a_values],
        }
    )
    out = fe.bayes_correlated_t(df, "accuracy", rope=rope)
    x = np.array(a_values)
    y = np.array([v - diff for v in a_values])  # dyadic values: exactly constant differences
    assert np.all(x - y == diff)
    assert out.select(PROBS).row(0) == pytest.approx(expected, abs=1e-12)
    assert _baycomp_t(x, y, rope, 1) == pytest.approx(expected, abs=1e-12)


def test_correlated_t_default_rho_needs_balanced_repeats():
    rows = [(r, f, lr, 0.1 * f + (lr == "A")) for r in range(2) for f in range(3) for lr in "AB"]
    df = pl.DataFrame(rows, schema=["repeat", "fold", "learner", "value"], orient="row")
    unbalanced = df.filter(~((pl.col("repeat") == 1) & (pl.col("fold") == 2)))
    kw = {"rope": 0.0, "repeat": "repeat", "higher_is_better": True}
    with pytest.raises(
        InvalidValueError,
        match=r"bayes_correlated_t\(\): rho=None \(1/k\) needs the same number of folds in "
        r"every repeat, got 2 to 3 folds per 'repeat'\.",
    ):
        fe.bayes_correlated_t(unbalanced, "value", **kw)
    assert fe.bayes_correlated_t(unbalanced, "value", rho=0.3, **kw).height == 1
    one_fold = df.filter(pl.col("fold") == 0)
    with pytest.raises(InsufficientDataError, match="needs at least 2 folds per repeat, got 1"):
        fe.bayes_correlated_t(one_fold, "value", **kw)
    gap = df.filter(~((pl.col("repeat") == 1) & (pl.col("fold") == 2) & (pl.col("learner") == "B")))
    with pytest.raises(
        InsufficientDataError,
        match=r"every learner must have a value on every block \(a complete repeat/fold × "
        r"learner table; a null value is a missing cell\), got 1 missing: "
        r"learner=B on repeat/fold=1/2\.",
    ):
        fe.bayes_correlated_t(gap, "value", **kw)


# ---------------------------------------------------------------------------------------------
# signed rank
# ---------------------------------------------------------------------------------------------
def _direct_posterior(z: np.ndarray, rope: float, prior: float, n: int, seed: int):
    """A per-sample transcription of Benavoli et al.'s posterior (as baycomp writes it), with
    the weights drawn like frameeval's sampler: Gamma(α) normalised, one generator per call."""
    rng = np.random.default_rng(seed)
    alpha = np.r_[prior, np.ones(z.size)]
    gamma = rng.standard_gamma(alpha, size=(n, z.size + 1))
    full = np.r_[0.0, z]
    sums = full[:, None] + full[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    wins = np.zeros(3)
    for g in gamma:
        w = g / g.sum()
        theta_a = w @ above @ w
        theta_b = w @ below @ w
        theta = np.array([theta_a, 0.0 if rope == 0 else 1 - theta_a - theta_b, theta_b])
        top = theta == theta.max()
        wins += top / top.sum()
    return wins / n


@given(
    df=metric_tables(ties=True, k_range=(2, 3), n_range=(2, 9)),
    rope=st.sampled_from([0.0, 0.1, 0.3]),
    seed=st.integers(0, 2**32),
)
def test_signed_rank_equals_direct_transcription(df, rope, seed):
    out = fe.bayes_signed_rank(
        df, "value", rope=rope, by="g", n_samples=300, seed=seed, higher_is_better=True
    )
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"]).sort("block")
        z = _vector(part, row["a"], ["block"]) - _vector(part, row["b"], ["block"])
        expected = _direct_posterior(z, rope, 0.5, 300, seed)
        np.testing.assert_allclose([row[c] for c in PROBS], expected, atol=1e-12)
        # exact posterior means: E[w_i w_j] of Dirichlet(0.5, 1, ..., 1)
        alpha = np.r_[0.5, np.ones(z.size)]
        a0 = alpha.sum()
        moments = (np.outer(alpha, alpha) + np.diag(alpha)) / (a0 * (a0 + 1))
        full = np.r_[0.0, z]
        sums = full[:, None] + full[None, :]
        above = ((sums > 2 * rope) + 0.5 * (sums == 2 * rope)) * moments
        below = ((-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)) * moments
        assert row["mean_a_better"] == pytest.approx(above.sum(), abs=1e-12)
        assert row["mean_b_better"] == pytest.approx(below.sum(), abs=1e-12)
    assert out["n_blocks"].dtype == pl.Int64


@settings(max_examples=budget(6))
@given(
    df=metric_tables(ties=False, k_range=(2, 3), n_range=(3, 10), groups=(1, 2)),
    rope=st.sampled_from([0.0, 0.05, 0.15]),
    hib=st.booleans(),
)
def test_signed_rank_matches_baycomp_within_monte_carlo_error(df, rope, hib):
    out = fe.bayes_signed_rank(df, "value", rope=rope, by="g", higher_is_better=hib, seed=11)
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        x = _vector(part, row["a"], ["block"])
        y = _vector(part, row["b"], ["block"])
        posterior = SignedRankTest(x, y, rope=rope, random_state=5, nsamples=50_000)
        left, inside, right = posterior.probs(with_rope=True)
        a_better, b_better = (left, right) if hib else (right, left)
        assert abs(row["p_a_better"] - a_better) <= 0.02
        assert abs(row["p_rope"] - inside) <= 0.02
        assert abs(row["p_b_better"] - b_better) <= 0.02
        means = posterior.sample.mean(axis=0)
        mean_a, mean_b = (means[0], means[2]) if hib else (means[2], means[0])
        assert abs(row["mean_a_better"] - mean_a) <= 0.01
        assert abs(row["mean_b_better"] - mean_b) <= 0.01
        assert row["mean_difference"] == pytest.approx((x - y).mean(), abs=1e-12)


def test_signed_rank_rope_zero_and_all_zero_differences():
    df = pl.DataFrame(
        {"block": list("abcde") * 2, "learner": ["A"] * 5 + ["B"] * 5, "v": [0.5] * 10}
    )
    kw = {"n_samples": 2000, "higher_is_better": True}
    tied = fe.bayes_signed_rank(df, "v", rope=0.0, **kw).row(0, named=True)
    assert (tied["p_a_better"], tied["p_rope"], tied["p_b_better"]) == (0.5, 0.0, 0.5)
    assert tied["mean_rope"] == 0.0
    assert tied["mean_a_better"] == pytest.approx(0.5, abs=1e-12)
    same = fe.bayes_signed_rank(df, "v", rope=0.01, **kw).row(0, named=True)
    assert (same["p_a_better"], same["p_rope"], same["p_b_better"]) == (0.0, 1.0, 0.0)
    assert same["mean_rope"] == pytest.approx(1.0, abs=1e-12)
    better = df.with_columns(
        pl.when(pl.col("learner") == "A").then(pl.col("v") + 0.1).otherwise("v").alias("v")
    )
    clear = fe.bayes_signed_rank(better, "v", rope=0.0, **kw).row(0, named=True)
    assert clear["p_rope"] == 0.0 and clear["p_a_better"] == 1.0


def test_signed_rank_seed_lazy_grouped_and_pairs():
    rng = np.random.default_rng(0)
    rows = [
        (g, f"d{i}", lr, float(rng.normal(0.7 + 0.02 * "ABC".index(lr), 0.05)))
        for g in (1, 2)
        for i in range(8 + g)
        for lr in "ABC"
    ]
    df = pl.DataFrame(rows, schema=["g", "block", "learner", "v"], orient="row")
    kw = {"rope": 0.01, "by": "g", "n_samples": 3000, "higher_is_better": True}
    out = fe.bayes_signed_rank(df, "v", seed=4, **kw)
    assert out.columns == [
        "g",
        "a",
        "b",
        "mean_difference",
        *PROBS,
        "mean_a_better",
        "mean_rope",
        "mean_b_better",
        "n_blocks",
        "cohen_d",
        "cliff_delta",
    ]
    # the samples are bit-identical on a rerun; the effect sizes' float sums may differ in the
    # last bit (the engine's summation order), so they are compared to 1e-12
    again = fe.bayes_signed_rank(df, "v", seed=4, **kw)
    assert_frames_close(
        again.drop("cohen_d", "cliff_delta"), out.drop("cohen_d", "cliff_delta"), 0.0
    )
    assert_frames_close(again, out)
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    assert_frames_close(fe.bayes_signed_rank(shuffled(df).lazy(), "v", seed=4, **kw).collect(), out)
    assert not fe.bayes_signed_rank(df, "v", seed=5, **kw)["p_rope"].equals(out["p_rope"])
    per_group = pl.concat(
        [
            fe.bayes_signed_rank(part, "v", seed=4, **kw)
            for part in df.partition_by("g", maintain_order=True)
        ]
    )
    assert_frames_close(per_group, out)
    one = fe.bayes_signed_rank(df, "v", seed=4, a="A", b="C", **kw)
    assert_frames_close(one, out.filter((pl.col("a") == "A") & (pl.col("b") == "C")))
    mirror = fe.bayes_signed_rank(df, "v", seed=4, a="C", b="A", **kw)
    assert mirror["p_a_better"].to_list() == one["p_b_better"].to_list()
    np.testing.assert_allclose(out.select(pl.sum_horizontal(PROBS)).to_series(), 1.0)


def test_signed_rank_samples_are_the_test_samples():
    df = pl.DataFrame(
        {
            "block": [f"d{i}" for i in range(7)] * 2,
            "learner": ["A"] * 7 + ["B"] * 7,
            "accuracy": [
                0.8,
                0.7,
                0.9,
                0.6,
                0.85,
                0.75,
                0.65,
                0.79,
                0.72,
                0.88,
                0.6,
                0.8,
                0.7,
                0.7,
            ],
        }
    )
    kw = {"rope": 0.01, "n_samples": 800, "seed": 2}
    samples = fe.compare.bayes_signed_rank_samples(df, "accuracy", **kw)
    result = fe.bayes_signed_rank(df, "accuracy", **kw).row(0, named=True)
    assert samples.columns == ["a", "b", "sample", "a_better", "rope", "b_better"]
    assert samples["sample"].to_list() == list(range(800))
    theta = samples.select("a_better", "rope", "b_better").to_numpy()
    np.testing.assert_allclose(theta.sum(axis=1), 1.0, atol=1e-12)
    winners = np.bincount(theta.argmax(axis=1), minlength=3) / 800
    np.testing.assert_allclose(winners, [result[c] for c in PROBS], atol=1e-12)
    lazy = fe.compare.bayes_signed_rank_samples(df.lazy(), "accuracy", **kw)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frames_close(lazy.collect(), samples)


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------
def test_bayes_errors():
    df = pl.DataFrame(
        {"block": list("abc") * 2, "fold": [1, 2, 3] * 2, "learner": ["A"] * 3 + ["B"] * 3}
    ).with_columns(accuracy=pl.Series([0.8, 0.7, 0.9, 0.75, 0.7, 0.85]))
    sr = fe.bayes_signed_rank
    ct = fe.bayes_correlated_t
    with pytest.raises(
        InvalidParameterError, match=r"bayes_signed_rank\(\): rope must be a finite"
    ):
        sr(df, "accuracy", rope=-0.1)
    with pytest.raises(InvalidParameterError, match=r"rope must be .*, got nan\."):
        ct(df, "accuracy", rope=float("nan"))
    with pytest.raises(InvalidParameterError, match="a= and b= must be given together"):
        sr(df, "accuracy", rope=0.0, a="A")
    with pytest.raises(InvalidParameterError, match="a= and b= must be different learners"):
        ct(df, "accuracy", rope=0.0, a="A", b="A")
    with pytest.raises(InvalidParameterError, match="n_samples must be a positive integer"):
        sr(df, "accuracy", rope=0.0, n_samples=0)
    with pytest.raises(InvalidParameterError, match=r"seed must be an integer in \[0, 2\*\*64\)"):
        sr(df, "accuracy", rope=0.0, seed=-1)
    with pytest.raises(InvalidParameterError, match="prior must be a finite number >= 0"):
        sr(df, "accuracy", rope=0.0, prior=-1.0)
    with pytest.raises(InvalidParameterError, match=r"rho must be None or a number in \[0, 1\)"):
        ct(df, "accuracy", rope=0.0, rho=1.0)
    with pytest.raises(InvalidParameterError, match="higher_is_better= is required"):
        sr(df.rename({"accuracy": "auc"}), "auc", rope=0.0)
    with pytest.raises(InvalidParameterError, match=r"by= must not use output column names"):
        sr(df.with_columns(p_rope=pl.lit(1)), "accuracy", rope=0.0, by="p_rope")
    one = df.filter(pl.col("learner") == "A")
    with pytest.raises(
        InsufficientDataError, match=r"bayes_signed_rank\(\): needs at least 2 learners, got 1\."
    ):
        sr(one, "accuracy", rope=0.0)
    with pytest.raises(InsufficientDataError, match="needs at least 2 values of 'fold'"):
        ct(df.filter(pl.col("fold") == 1), "accuracy", rope=0.0)
    with pytest.raises(
        InsufficientDataError,
        match=r"learners a='A' and b='C' must both have values, got none of b='C'\.",
    ):
        sr(df, "accuracy", rope=0.0, a="A", b="C")
    with pytest.raises(InsufficientDataError, match=r"got 1 missing: learner=B on block=c\."):
        sr(
            df.filter(~((pl.col("learner") == "B") & (pl.col("block") == "c"))),
            "accuracy",
            rope=0.0,
        )
    lazy = sr(df.lazy().filter(pl.col("learner") == "A"), "accuracy", rope=0.0)
    with pytest.raises(InsufficientDataError, match="needs at least 2 learners"):
        fe.collect(lazy)


def test_empty_groups_give_empty_frames():
    lf = pl.LazyFrame({"g": [1], "block": ["a"], "learner": ["A"], "v": [0.5]}).filter(
        pl.col("g") > 5
    )
    kw = {"rope": 0.0, "by": "g", "higher_is_better": True}
    assert fe.bayes_signed_rank(lf, "v", **kw).collect().height == 0
    assert fe.compare.bayes_signed_rank_samples(lf, "v", **kw).collect().height == 0
    assert fe.bayes_correlated_t(lf, "v", fold="block", **kw).collect().height == 0
