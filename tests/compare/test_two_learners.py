"""Tests of frameeval.compare.two_learners: paired_t_test, cv5x2_t_test (chapter 2.4.2) and
wilcoxon (Demšar 2006, §3.1.3).

Oracles: scipy.stats.ttest_rel and scipy.stats.wilcoxon per group, mlxtend's
paired_ttest_5x2cv (driven by stub estimators that replay the tables) for the Dietterich
variant, a direct numpy transcription of the book's formula for the textbook variant.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mlxtend.evaluate import paired_ttest_5x2cv
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    DuplicateKeyError,
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
    MissingValueError,
)
from tests.compare._tables import (
    assert_frames_close,
    matrix,
    metric_tables,
    paired_samples,
    shuffled,
)
from tests.helpers.oracle import assert_close, per_group


# ---------------------------------------------------------------------------------------------
# paired t test
# ---------------------------------------------------------------------------------------------
@given(df=paired_samples(), alpha=st.sampled_from([0.05, 0.1]))
def test_paired_t_test_matches_scipy_per_group(df, alpha):
    out = fe.paired_t_test(df, "value", a="A", b="B", by="g", higher_is_better=True, alpha=alpha)

    def oracle(part):
        x = part.filter(pl.col("learner") == "A").sort("fold")["value"].to_numpy()
        y = part.filter(pl.col("learner") == "B").sort("fold")["value"].to_numpy()
        res = stats.ttest_rel(x, y)
        return {
            "n_pairs": x.size,
            "mean": (x - y).mean(),
            "std": (x - y).std(ddof=1),
            "statistic": res.statistic,
            "p_value": res.pvalue,
            "critical_value": stats.t.ppf(1 - alpha / 2, x.size - 1),
        }

    expected = per_group(df, ["g"], oracle)
    assert out["n_pairs"].to_list() == expected["n_pairs"].to_list()
    assert out["df"].to_list() == [n - 1 for n in expected["n_pairs"].to_list()]
    for column in ("mean", "std", "statistic", "p_value", "critical_value"):
        assert_close(out[column], expected[column], 1e-9)
    assert out["reject"].to_list() == (out["statistic"].abs() > out["critical_value"]).to_list()
    better = [
        ("A" if m > 0 else "B") if r else None
        for m, r in zip(out["mean"], out["reject"], strict=True)
    ]
    assert out["better"].to_list() == better
    assert out["a"].unique().to_list() == ["A"] and out["b"].unique().to_list() == ["B"]
    kwargs = {"a": "A", "b": "B", "by": "g", "higher_is_better": True, "alpha": alpha}
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    assert_frames_close(fe.paired_t_test(shuffled(df).lazy(), "value", **kwargs).collect(), out)


def test_paired_t_test_direction_and_antisymmetry():
    """Swapping a and b flips the sign of the statistic; ``better`` follows the metric's
    direction, looked up in the measure registry for a column named like a measure."""
    df = pl.DataFrame(
        {
            "learner": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "fold": [1, 2, 3, 4] * 3,
            "error_rate": [0.10, 0.12, 0.11, 0.13, 0.20, 0.25, 0.21, 0.22, 0.5, 0.5, 0.5, 0.5],
        }
    )
    ab = fe.paired_t_test(df, "error_rate", a="A", b="B").row(0, named=True)
    ba = fe.paired_t_test(df, "error_rate", a="B", b="A").row(0, named=True)
    assert ab["statistic"] == pytest.approx(-ba["statistic"], abs=1e-12)
    assert ab["better"] == ba["better"] == "A"  # lower error rate is better
    acc = df.rename({"error_rate": "accuracy"})
    assert fe.paired_t_test(acc, "accuracy", a="A", b="B")["better"].item() == "B"
    with pytest.raises(
        InvalidParameterError, match="higher_is_better= is required for metric column 'auc'"
    ):
        fe.paired_t_test(df.rename({"error_rate": "auc"}), "auc", a="A", b="B")


def test_paired_t_test_pairing_errors():
    base = pl.DataFrame(
        {
            "learner": ["A", "A", "A", "B", "B"],
            "fold": [1, 2, 3, 1, 2],
            "e": [0.1, 0.2, 0.3] * 1 + [0.2, 0.3],
        }
    )
    kw = {"a": "A", "b": "B", "higher_is_better": False}
    with pytest.raises(
        InsufficientDataError,
        match=r"paired_t_test\(\): learners a='A' and "
        r"b='B' must both have a value for every fold, got 1 missing: fold=3 has "
        r"no value for b='B'\.",
    ):
        fe.paired_t_test(base, "e", **kw)
    dup = pl.concat(
        [
            base,
            pl.DataFrame({"learner": ["B"], "fold": [3], "e": [0.1]}),
            pl.DataFrame({"learner": ["B"], "fold": [3], "e": [0.2]}),
        ]
    )
    with pytest.raises(DuplicateKeyError, match=r"rows must be unique per \['fold', 'learner'\]"):
        fe.paired_t_test(dup, "e", **kw)
    grouped = pl.concat([base.with_columns(g=pl.lit(1)).head(3), base.with_columns(g=pl.lit(2))])
    with pytest.raises(
        InsufficientDataError,
        match=r"must both have rows, got 3 rows of a and 0 "
        r"rows of b in group g=1\.",
    ):
        fe.paired_t_test(grouped, "e", by="g", **kw)
    with pytest.raises(InvalidDtypeError, match=r"a= must match the dtype of column 'learner'"):
        fe.paired_t_test(base, "e", a=1, b="B", higher_is_better=False)
    with pytest.raises(InvalidParameterError, match="a= and b= must be different learners"):
        fe.paired_t_test(base, "e", a="A", b="A", higher_is_better=False)
    nan = base.with_columns(
        pl.when(pl.col("fold") == 2).then(float("nan")).otherwise("e").alias("e")
    )
    with pytest.raises(MissingValueError, match="column 'e' \\(metric=\\) must not contain NaN"):
        fe.paired_t_test(nan, "e", **kw)


def test_other_learners_rows_are_ignored():
    df = pl.DataFrame(
        {
            "learner": ["A", "A", "B", "B", "C"],
            "fold": [1, 2, 1, 2, 9],
            "e": [0.1, 0.3, 0.2, 0.5, float("nan")],
        }
    )
    out = fe.paired_t_test(df, "e", a="A", b="B", higher_is_better=False)
    assert out["n_pairs"].item() == 2
    assert out["mean"].item() == pytest.approx(-0.15, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# 5x2cv paired t test
# ---------------------------------------------------------------------------------------------
def five_by_two(a: np.ndarray, b: np.ndarray, **keys) -> pl.DataFrame:
    """(5 × 2) score matrices of learners A and B → the long frame."""
    rows = [
        (learner, r + 1, f + 1, float(m[r, f]))
        for learner, m in (("A", a), ("B", b))
        for r in range(5)
        for f in range(2)
    ]
    df = pl.DataFrame(rows, schema=["learner", "repeat", "fold", "score"], orient="row")
    return df.with_columns(pl.lit(v).alias(k) for k, v in keys.items())


class ReplayEstimator:
    """An 'estimator' whose scores are replayed from a (5 × 2) matrix in mlxtend's call order:
    repeat 1 fold 1, repeat 1 fold 2, repeat 2 fold 1, …"""

    _estimator_type = "classifier"

    def __init__(self, scores: np.ndarray) -> None:
        self.scores = list(scores.ravel())
        self.calls = 0

    def fit(self, X, y):
        return self


def replay_scorer(estimator, X, y):
    value = estimator.scores[estimator.calls]
    estimator.calls += 1
    return value


score_matrix = st.lists(st.integers(50, 100), min_size=10, max_size=10).map(
    lambda v: np.array(v, dtype=float).reshape(5, 2) / 100
)


@given(a=score_matrix, b=score_matrix)
def test_cv5x2_dietterich_variant_matches_mlxtend(a, b):
    d = a - b
    if np.all(d == d[:, :1]):  # every repeat with equal differences: σ² = 0, mlxtend divides 0/0
        b = b.copy()
        b[0, 0] += 0.01
    out = fe.cv5x2_t_test(
        five_by_two(a, b), "score", a="A", b="B", variant="dietterich", higher_is_better=True
    ).row(0, named=True)
    X = np.zeros((8, 1))
    y = np.array([0, 1] * 4)
    t, p = paired_ttest_5x2cv(
        ReplayEstimator(a), ReplayEstimator(b), X, y, scoring=replay_scorer, random_seed=1
    )
    assert_close(out["statistic"], t, 1e-9)
    assert_close(out["p_value"], p, 1e-9)
    assert out["df"] == 5


@given(a=score_matrix, b=score_matrix, shift=st.integers(-2, 2))
def test_cv5x2_textbook_variant_matches_the_book_formula(a, b, shift):
    """μ = 0.5 (Δ₁¹ + Δ₁²); σᵢ² = (Δᵢ¹ − Δ̄ᵢ)² + (Δᵢ² − Δ̄ᵢ)²; τ_t = μ / √(0.2 Σ σᵢ²)."""
    b = b + shift / 100
    d = a - b
    mu = 0.5 * (d[0, 0] + d[0, 1])
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    std = np.sqrt(0.2 * s2.sum())
    two = pl.concat([five_by_two(a, b, g=1), five_by_two(b, a, g=2)])
    out = fe.cv5x2_t_test(two, "score", a="A", b="B", by="g", higher_is_better=True)
    assert_close(out["mean"], [mu, -mu], 1e-12)
    assert_close(out["std"], [std, std], 1e-12)
    if std > 0:
        assert_close(out["statistic"], [mu / std, -mu / std], 1e-9)
        assert_close(out["p_value"], [2 * stats.t.sf(abs(mu / std), 5)] * 2, 1e-9)


def test_cv5x2_critical_values_from_the_notes():
    """Notes (shared/seeds/001, 4.2): the two-sided critical value t_{α/2, 5} is 2.5706 at
    α = 0.05 and 2.0150 at α = 0.1."""
    rng = np.random.default_rng(0)
    df = five_by_two(rng.uniform(size=(5, 2)), rng.uniform(size=(5, 2)))
    for alpha, notes in ((0.05, 2.5706), (0.1, 2.0150)):
        out = fe.cv5x2_t_test(df, "score", a="A", b="B", higher_is_better=True, alpha=alpha)
        assert out["critical_value"].item() == pytest.approx(notes, abs=1e-4)


def test_cv5x2_first_replicate_is_the_smallest_repeat_and_fold():
    """Rows in any order: μ comes from repeat 1 (fold 1 for Dietterich's variant)."""
    a = np.arange(10, dtype=float).reshape(5, 2) / 10
    b = np.zeros((5, 2))
    df = five_by_two(a, b)
    for variant, mu in (("textbook", 0.05), ("dietterich", 0.0)):
        out = fe.cv5x2_t_test(
            shuffled(df, 3), "score", a="A", b="B", variant=variant, higher_is_better=True
        )
        assert out["mean"].item() == pytest.approx(mu, abs=1e-12)


def test_cv5x2_design_errors():
    df = five_by_two(np.ones((5, 2)), np.zeros((5, 2)))
    with pytest.raises(
        InvalidValueError,
        match=r"cv5x2_t_test\(\): needs 5 repeats \('repeat'\) "
        r"of 2 folds \('fold'\) with both learners, got 4 repeats with 2 to 2 "
        r"folds\.",
    ):
        fe.cv5x2_t_test(
            df.filter(pl.col("repeat") < 5), "score", a="A", b="B", higher_is_better=True
        )
    three = pl.concat([df, df.filter(pl.col("fold") == 1).with_columns(fold=pl.lit(3, pl.Int64))])
    with pytest.raises(InvalidValueError, match="got 5 repeats with 3 to 3 folds"):
        fe.cv5x2_t_test(three, "score", a="A", b="B", higher_is_better=True)
    with pytest.raises(InvalidParameterError, match="variant must be 'textbook' or 'dietterich'"):
        fe.cv5x2_t_test(df, "score", a="A", b="B", variant="alpaydin", higher_is_better=True)


# ---------------------------------------------------------------------------------------------
# Wilcoxon signed-rank test
# ---------------------------------------------------------------------------------------------
def scipy_wilcoxon(x, y, zero_method, method, correction):
    d = x - y
    if method == "auto":
        tied = np.unique(np.abs(d[d != 0] if zero_method == "wilcox" else d)).size < (
            np.count_nonzero(d) if zero_method == "wilcox" else d.size
        )
        method = "exact" if not tied and np.all(d != 0) else "approx"
    if zero_method == "wilcox" and np.all(d == 0):
        return None
    with np.errstate(all="ignore"), warnings.catch_warnings(action="ignore"):
        res = stats.wilcoxon(
            x,
            y,
            zero_method=zero_method,
            correction=correction,
            method="exact" if method == "exact" else "asymptotic",
        )
    return res.statistic, res.pvalue


@given(
    df=metric_tables(ties=True, k_range=(2, 4), n_range=(2, 9)),
    zero_method=st.sampled_from(["zsplit", "wilcox", "pratt"]),
    method=st.sampled_from(["auto", "exact", "approx"]),
    correction=st.booleans(),
)
def test_wilcoxon_matches_scipy_for_every_pair(df, zero_method, method, correction):
    out = fe.wilcoxon(
        df,
        "value",
        by="g",
        higher_is_better=True,
        zero_method=zero_method,
        method=method,
        correction=correction,
    )
    rows = {(r["g"], r["a"], r["b"]): r for r in out.iter_rows(named=True)}
    expected_pairs = 0
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, learners = matrix(part)
        for i, j in itertools.combinations(range(len(learners)), 2):
            expected_pairs += 1
            row = rows[(g, learners[i], learners[j])]
            x, y = values[:, i], values[:, j]
            assert row["n_blocks"] == x.size and row["n_zero"] == int(np.sum(x == y))
            reference = scipy_wilcoxon(x, y, zero_method, method, correction)
            if reference is None or np.isnan(reference[1]):  # all differences 0: undefined
                assert row["p_value"] is None and row["reject"] is None
                continue
            assert_close(row["statistic"], reference[0], 1e-12)
            assert_close(row["p_value"], reference[1], 1e-9)
            assert row["reject"] == (reference[1] < 0.05)
    assert out.height == expected_pairs


@given(df=metric_tables(ties=False, k_range=(2, 4), n_range=(2, 12)))
def test_wilcoxon_exact_critical_value_brackets_the_decision(df):
    """Exact (tie-free) tests: T at or below the critical value rejects, T above it does not,
    and the critical value is the largest such T (checked against scipy's exact p-values)."""
    out = fe.wilcoxon(df, "value", by="g", higher_is_better=True, method="exact")
    for row in out.iter_rows(named=True):
        n = row["n_blocks"]
        assert row["exact"] is True
        crit = row["critical_value"]
        if crit is not None:
            assert row["reject"] == (row["statistic"] <= crit)
            assert 2 * exact_cdf(n, crit) < 0.05 <= 2 * exact_cdf(n, crit + 1)
        else:
            assert row["reject"] is False and 2 * exact_cdf(n, 0) >= 0.05


def exact_cdf(n: int, t: float) -> float:
    """P(T⁺ ≤ t) by enumerating all 2ⁿ sign patterns (n ≤ 12)."""
    ranks = np.arange(1, n + 1)
    signs = np.array(list(itertools.product([0, 1], repeat=n)))
    return float(np.mean(signs @ ranks <= t))


def test_wilcoxon_control_mode_and_holm():
    """b only: every learner against the control; adjust='holm' adds p_adjusted from the same
    family (statsmodels' multipletests is the oracle) and re-decides reject and better."""
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(5)
    blocks = [f"d{i}" for i in range(12)]
    rows = [
        (blk, learner, float(rng.normal(loc=shift)))
        for blk in blocks
        for learner, shift in (("A", 0.0), ("B", 1.0), ("C", 0.2), ("D", 1.5))
    ]
    df = pl.DataFrame(rows, schema=["block", "learner", "value"], orient="row")
    out = fe.wilcoxon(df, "value", b="A", higher_is_better=True, adjust="holm")
    assert out["a"].to_list() == ["B", "C", "D"] and out["b"].to_list() == ["A"] * 3
    reject, adjusted, _, _ = multipletests(out["p_value"].to_numpy(), alpha=0.05, method="holm")
    assert_close(out["p_adjusted"], adjusted, 1e-12)
    assert out["reject"].to_list() == reject.tolist()
    assert out["better"].to_list() == [
        a if r else None for a, r in zip(out["a"], reject, strict=True)
    ]
    assert out.columns.index("p_adjusted") == out.columns.index("p_value") + 1


def test_wilcoxon_errors():
    df = pl.DataFrame(
        {"block": ["d1", "d2", "d1", "d2"], "learner": ["A", "A", "B", "B"], "v": [1.0, 2, 3, 4]}
    )
    with pytest.raises(InvalidParameterError, match=r"wilcoxon\(\): a= needs b= \(a pair\)"):
        fe.wilcoxon(df, "v", a="A", higher_is_better=True)
    with pytest.raises(
        InsufficientDataError, match=r"learners a='A' and b='Z' must both have values, got none\."
    ):
        fe.wilcoxon(df, "v", a="A", b="Z", higher_is_better=True)
    with pytest.raises(InsufficientDataError, match=r"the control b='Z' must have values"):
        fe.wilcoxon(df, "v", b="Z", higher_is_better=True)
    with pytest.raises(InsufficientDataError, match=r"needs at least 2 blocks \('block'\), got 1"):
        fe.wilcoxon(df.filter(pl.col("block") == "d1"), "v", higher_is_better=True)
    gap = df.filter(~((pl.col("block") == "d2") & (pl.col("learner") == "B")))
    with pytest.raises(
        InsufficientDataError,
        match=r"every learner must have a value on every "
        r"block \(a complete block × learner table; a null value is a missing cell\), "
        r"got 1 missing: learner=B on block=d2\.",
    ):
        fe.wilcoxon(gap, "v", higher_is_better=True)
    with pytest.raises(InvalidParameterError, match="zero_method must be 'zsplit', 'wilcox' or"):
        fe.wilcoxon(df, "v", higher_is_better=True, zero_method="drop")


def test_paired_t_test_pair_is_a_deprecated_name_of_block():
    """Issue 14 part 4: ``pair=`` and ``block=`` named one role; ``block=`` is the name now and
    ``pair=`` keeps working for one release with a DeprecationWarning naming it."""
    df = pl.DataFrame(
        {
            "learner": ["A"] * 3 + ["B"] * 3,
            "split": [1, 2, 3] * 2,
            "error_rate": [0.10, 0.12, 0.11, 0.20, 0.25, 0.21],
        }
    )
    new = fe.paired_t_test(df, "error_rate", a="A", b="B", block="split")
    with pytest.warns(DeprecationWarning, match=r"paired_t_test\(\): pair= is deprecated.*block="):
        old = fe.paired_t_test(df, "error_rate", a="A", b="B", pair="split")
    assert old.equals(new)
