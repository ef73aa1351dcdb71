"""Skillings–Mack, Friedman aligned ranks and Quade against direct implementations of their
published formulas (written here, independently of frameeval's Polars code) and scipy.

Sources of the formulas: Skillings & Mack (1981), Technometrics 23(2) (as in Chatfield &
Mander 2009, Stata Journal 9(2), §2); García, Fernández, Luengo & Herrera (2010), Information
Sciences 180, §3.2 (aligned ranks: T with rank totals of learners and blocks) and §3.3 (Quade:
S_ij = Q_i (r_ij − (k + 1)/2), T = (n − 1)B / (A − B)), and §4 for the post-hoc z statistics.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.exceptions import InsufficientDataError, MissingValueError
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled
from tests.helpers.examples import budget


def assert_close(actual, expected, tol):
    np.testing.assert_allclose(
        np.asarray(actual, float), np.asarray(expected, float), rtol=tol, atol=tol
    )


# ---------------------------------------------------------------------------------------------
# direct implementations (numpy; rank 1 = best for a higher-is-better metric)
# ---------------------------------------------------------------------------------------------
def sm_oracle(values: np.ndarray) -> tuple[float, int, np.ndarray, np.ndarray]:
    """Skillings–Mack on an N × k matrix with NaN for missing cells: SM, df, A, Σ."""
    n, k = values.shape
    a = np.zeros(k)
    lam = np.zeros((k, k))
    for i in range(n):
        seen = ~np.isnan(values[i])
        ki = seen.sum()
        if ki == 0:
            continue
        r = stats.rankdata(-values[i, seen])
        a[seen] += np.sqrt(12.0 / (ki + 1)) * (r - (ki + 1) / 2.0)
        idx = np.flatnonzero(seen)
        for j in idx:
            for m in idx:
                if j != m:
                    lam[j, m] += 1
    sigma = -lam.copy()
    np.fill_diagonal(sigma, lam.sum(axis=1))
    sm = float(a @ np.linalg.pinv(sigma) @ a)
    return sm, int(np.linalg.matrix_rank(sigma)), a, sigma


def aligned_oracle(values: np.ndarray) -> tuple[float, np.ndarray]:
    """García et al. (2010) §3.2: T and the average aligned ranks."""
    n, k = values.shape
    # rounded: equal aligned values (on the test's 1/4 grid) must tie despite float noise
    aligned = np.round(values - values.mean(axis=1, keepdims=True), 12)
    ranks = stats.rankdata(-aligned.ravel()).reshape(n, k)
    r_learner = ranks.sum(axis=0)
    r_block = ranks.sum(axis=1)
    num = (k - 1) * (np.sum(r_learner**2) - (k * n**2 / 4.0) * (k * n + 1) ** 2)
    den = k * n * (k * n + 1) * (2 * k * n + 1) / 6.0 - np.sum(r_block**2) / k
    return num / den, r_learner / n


def quade_oracle(values: np.ndarray) -> tuple[float, np.ndarray]:
    """García et al. (2010) §3.3: T and T_j = W_j / (n(n + 1)/2)."""
    n, k = values.shape
    r = np.vstack([stats.rankdata(-row) for row in values])
    q = stats.rankdata(values.max(axis=1) - values.min(axis=1))
    s = q[:, None] * (r - (k + 1) / 2.0)
    a = np.sum(s**2)
    b = np.sum(s.sum(axis=0) ** 2) / n
    w = (q[:, None] * r).sum(axis=0)
    t = np.inf if a == b else (n - 1) * b / (a - b)
    return t, w / (n * (n + 1) / 2.0)


def permutation_var(scores: np.ndarray) -> float:
    """Var(s_π(a) − s_π(b)) for a uniformly random permutation π of one block's k scores: the
    mean of (s_p − s_q)² over ordered pairs of distinct positions."""
    k = scores.size
    return sum((scores[p] - scores[q]) ** 2 for p in range(k) for q in range(k) if p != q) / (
        k * (k - 1)
    )


def aligned_var(values: np.ndarray) -> float:
    """Var(R̂_a − R̂_b) of the aligned-rank totals over within-block permutations."""
    n, k = values.shape
    aligned = np.round(values - values.mean(axis=1, keepdims=True), 12)
    ranks = stats.rankdata(-aligned.ravel()).reshape(n, k)
    return sum(permutation_var(row) for row in ranks)


def quade_var(values: np.ndarray) -> float:
    """Var(W_a − W_b), W_j = Σ_i Q_i r_ij, over within-block permutations."""
    r = np.vstack([stats.rankdata(-row) for row in values])
    q = stats.rankdata(values.max(axis=1) - values.min(axis=1))
    return sum(permutation_var(qi * row) for qi, row in zip(q, r, strict=True))


def grid_tables(**kw):
    """Values on a 1/4 grid: aligned values and block ranges are exact in floating point."""
    return metric_tables(ties=True, **kw)


# ---------------------------------------------------------------------------------------------
# Skillings–Mack
# ---------------------------------------------------------------------------------------------
@given(df=metric_tables(ties=False, k_range=(2, 5), n_range=(2, 7)))
def test_skillings_mack_equals_friedman_on_complete_tables(df):
    """No missing cell and no ties: SM = Friedman's χ² (scipy.stats.friedmanchisquare)."""
    out = fe.skillings_mack(df, "value", by="g", higher_is_better=True)
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, _ = matrix(part)
        row = out.filter(pl.col("g") == g).row(0, named=True)
        res = stats.friedmanchisquare(*values.T) if values.shape[1] > 2 else None
        if res is not None:
            assert_close(row["statistic"], res.statistic, 1e-9)
            assert_close(row["p_value"], res.pvalue, 1e-9)
        n, k = values.shape
        assert (row["n_learners"], row["n_blocks"], row["n_missing"], row["df"]) == (k, n, 0, k - 1)


@given(df=grid_tables(k_range=(2, 5), n_range=(2, 7)))
def test_skillings_mack_equals_frameeval_friedman_chi2_with_ties(df):
    with warnings.catch_warnings(action="ignore"):
        chi2 = fe.friedman(df, "value", by="g", higher_is_better=False)["chi2"]
    sm = fe.skillings_mack(df, "value", by="g", higher_is_better=False)["statistic"]
    assert_close(sm, chi2, 1e-9)


@st.composite
def tables_with_gaps(draw):
    df = draw(grid_tables(k_range=(3, 5), n_range=(3, 7)))
    keep = draw(st.lists(st.booleans(), min_size=df.height, max_size=df.height))
    # learners A and B keep every value, so the blocks connect all learners that remain
    first_two = df.select(pl.col("learner").is_in(["A", "B"])).to_series()
    return df.filter(pl.Series(keep) | first_two)


@pytest.mark.slow
@given(df=tables_with_gaps())
def test_skillings_mack_with_missing_cells_against_the_formula(df):
    out = fe.skillings_mack(df, "value", by="g", higher_is_better=True)
    assert out["g"].to_list() == sorted(df["g"].unique().to_list())
    for (g,), part in df.partition_by("g", as_dict=True).items():
        wide = part.pivot(on="learner", index="block", values="value").sort("block")
        learners = sorted(c for c in wide.columns if c != "block")
        values = wide.select(learners).to_numpy().astype(float)
        sm, df_, _, _ = sm_oracle(values)
        row = out.filter(pl.col("g") == g).row(0, named=True)
        assert row["n_missing"] == int(np.isnan(values).sum())
        assert row["df"] == df_
        assert_close(row["statistic"], sm, 1e-9)
        assert_close(row["p_value"], stats.chi2.sf(sm, df_), 1e-9)
        assert row["reject"] == (sm > stats.chi2.isf(0.05, df_))
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.skillings_mack(shuffled(df).lazy(), "value", by="g", higher_is_better=True)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frames_close(lazy.collect(), out, 1e-9)


def test_skillings_mack_worked_example_with_a_gap():
    """Three learners, four blocks, learner C missing on block 4 (the docstring's example)."""
    df = pl.DataFrame(
        {
            "block": [b for b in "1234" for _ in "ABC"],
            "learner": list("ABC") * 4,
            "error_rate": [0.1, 0.2, 0.3, 0.1, 0.3, 0.2, 0.2, 0.1, 0.3, 0.1, 0.2, 0.3],
        }
    ).filter(~((pl.col("block") == "4") & (pl.col("learner") == "C")))
    values = np.array([[0.1, 0.2, 0.3], [0.1, 0.3, 0.2], [0.2, 0.1, 0.3], [0.1, 0.2, np.nan]])
    sm, _, _, _ = sm_oracle(-values)  # error rate: lower is better
    assert_close(fe.skillings_mack(df, "error_rate")["statistic"][0], sm, 1e-12)


# ---------------------------------------------------------------------------------------------
# aligned ranks and Quade
# ---------------------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=budget(18))
@given(df=grid_tables(k_range=(2, 5), n_range=(2, 7), groups=(3, 6)))
def test_friedman_aligned_ranks_against_the_formula(df):
    """T of the aligned ranks and its χ² p-value equal García et al.'s formulas per group.

    Each table is a group (``by="g"``): 18 examples of 3–6 groups check as many random tables
    (≈ 80) as 40 examples of 1–3 did, in half the calls (a call costs the same for one group or
    six, and each group is checked against its own oracle)."""
    out = fe.friedman_aligned_ranks(df, "value", by="g", higher_is_better=True)
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, _ = matrix(part)
        n, k = values.shape
        row = out.filter(pl.col("g") == g).row(0, named=True)
        assert (row["n_learners"], row["n_blocks"], row["df"]) == (k, n, k - 1)
        t, _ = aligned_oracle(values)
        assert_close(row["statistic"], t, 1e-9)
        assert_close(row["p_value"], stats.chi2.sf(t, k - 1), 1e-9)
        assert_close(row["critical_value"], stats.chi2.isf(0.05, k - 1), 1e-12)
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.friedman_aligned_ranks(shuffled(df).lazy(), "value", by="g", higher_is_better=True)
    assert_frames_close(lazy.collect(), out, 1e-9)


@pytest.mark.slow
@settings(max_examples=budget(18))
@given(df=grid_tables(k_range=(2, 5), n_range=(2, 7), groups=(3, 6)))
def test_quade_against_the_formula(df):
    """Quade's T and its F p-value equal García et al.'s formulas per group.

    Each table is a group (``by="g"``): 18 examples of 3–6 groups check as many random tables
    (≈ 80) as 40 examples of 1–3 did, in half the calls (a call costs the same for one group or
    six, and each group is checked against its own oracle)."""
    out = fe.quade(df, "value", by="g", higher_is_better=False)
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, _ = matrix(part)
        n, k = values.shape
        row = out.filter(pl.col("g") == g).row(0, named=True)
        assert (row["df1"], row["df2"]) == (k - 1, (k - 1) * (n - 1))
        t, _ = quade_oracle(values)
        s_all_zero = np.all(values.max(axis=1) == values.min(axis=1))
        if s_all_zero:
            assert row["statistic"] is None
            continue
        if np.isinf(t):
            assert row["statistic"] == np.inf and row["p_value"] == 0.0
            continue
        assert_close(row["statistic"], t, 1e-9)
        assert_close(row["p_value"], stats.f.sf(t, k - 1, (k - 1) * (n - 1)), 1e-9)
    # row order and the lazy face in one call: a shuffled lazy plan gives the eager frame
    lazy = fe.quade(shuffled(df).lazy(), "value", by="g", higher_is_better=False)
    assert_frames_close(lazy.collect(), out, 1e-9)


def test_quade_with_equal_ranges_is_friedmans_f():
    """Every block has the same range: all Q_i = (N + 1)/2 and Quade's T is Iman–Davenport's
    F (the doctest's table)."""
    df = pl.DataFrame(
        {
            "block": [b for b in "1234" for _ in "ABC"],
            "learner": list("ABC") * 4,
            "error_rate": [0.1, 0.2, 0.3, 0.1, 0.3, 0.2, 0.2, 0.1, 0.3, 0.1, 0.2, 0.3],
        }
    )
    with warnings.catch_warnings(action="ignore"):
        f = fe.friedman(df, "error_rate")["statistic"][0]
    assert_close(fe.quade(df, "error_rate")["statistic"][0], f, 1e-12)


# ---------------------------------------------------------------------------------------------
# their post-hoc z statistics
# ---------------------------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=budget(18))
@given(df=grid_tables(k_range=(2, 5), n_range=(2, 7), groups=(3, 6)))
def test_post_hoc_z_of_each_test_against_the_formulas(df):
    """The z of every pair under each omnibus test equals its formula per group.

    Each table is a group (``by="g"``): 18 examples of 3–6 groups check as many random tables
    (≈ 80) as 40 examples of 1–3 did, in half the calls (a call costs the same for one group or
    six, and each group is checked against its own oracle)."""
    outs = {
        test: fe.rank_post_hoc(df, "value", test=test, adjust=None, by="g", higher_is_better=True)
        for test in ("friedman", "friedman_aligned_ranks", "quade", "skillings_mack")
    }
    for (g,), part in df.partition_by("g", as_dict=True).items():
        values, learners = matrix(part)
        n, k = values.shape
        friedman_ranks = stats.rankdata(-values, axis=1).mean(axis=0)
        _, aligned = aligned_oracle(values)
        _, quade_t = quade_oracle(values)
        _, _, a, sigma = sm_oracle(values)
        expected = {
            "friedman": (friedman_ranks, np.sqrt(k * (k + 1) / (6 * n))),
            "friedman_aligned_ranks": (aligned, np.sqrt(aligned_var(values)) / n),
            "quade": (quade_t, np.sqrt(quade_var(values)) / (n * (n + 1) / 2)),
        }
        for test, out in outs.items():
            mine = out.filter(pl.col("g") == g)
            assert mine.height == k * (k - 1) // 2
            for row in mine.iter_rows(named=True):
                i, j = learners.index(row["a"]), learners.index(row["b"])
                if test == "skillings_mack":
                    z = abs(a[i] - a[j]) / np.sqrt(sigma[i, i] + sigma[j, j] - 2 * sigma[i, j])
                    assert_close(row["average_rank_a"], friedman_ranks[i], 1e-12)
                else:
                    score, se = expected[test]
                    if se == 0:
                        assert row["statistic"] is None and row["p_value"] is None
                        continue
                    z = abs(score[i] - score[j]) / se
                    assert_close(row["average_rank_a"], score[i], 1e-12)
                    assert_close(row["average_rank_b"], score[j], 1e-12)
                assert_close(row["statistic"], z, 1e-9)
                assert_close(row["p_value"], 2 * stats.norm.sf(z), 1e-9)
                assert row["p_adjusted"] == row["p_value"]


def test_friedman_post_hoc_p_values_equal_scikit_posthocs_siegel_friedman():
    """scikit-posthocs' ``posthoc_siegel_friedman`` is the same z test on Friedman's average
    ranks (Siegel & Castellan 1988), unadjusted."""
    import scikit_posthocs as sp

    rng = np.random.default_rng(3)
    values = rng.random((12, 5))
    df = pl.DataFrame(
        [(f"d{i}", f"L{j}", values[i, j]) for i in range(12) for j in range(5)],
        schema=["block", "learner", "value"],
        orient="row",
    )
    out = fe.rank_post_hoc(df, "value", adjust=None, higher_is_better=True)
    reference = sp.posthoc_siegel_friedman(values)
    for row in out.iter_rows(named=True):
        i, j = int(row["a"][1:]), int(row["b"][1:])
        assert_close(row["p_value"], reference.iloc[i, j], 1e-9)


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------
def test_complete_tests_name_missing_cells_and_point_to_skillings_mack():
    df = pl.DataFrame(
        {
            "g": [1] * 6,
            "block": ["d1", "d1", "d1", "d2", "d2", "d3"],
            "learner": ["A", "B", "C", "A", "B", "A"],
            "value": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        }
    )
    for func in (fe.friedman, fe.nemenyi, fe.quade, fe.friedman_aligned_ranks, fe.shaffer):
        with pytest.raises(
            InsufficientDataError,
            match=r"\(\): every learner must have a value on every block \(a complete block × "
            r"learner table; a null value is a missing cell\), got 3 missing: learner=B on "
            r"block=d3, learner=C on block=d2, learner=C on block=d3 in group g=1\. "
            r"Hint: skillings_mack\(\) tests all learners at once with missing cells allowed\.",
        ):
            func(df, "value", by="g", higher_is_better=True)
    out = fe.skillings_mack(df, "value", by="g", higher_is_better=True)
    assert out["n_missing"].to_list() == [3]


def test_omnibus_errors():
    df = pl.DataFrame({"block": ["d1", "d1"], "learner": ["A", "B"], "value": [0.1, 0.2]})
    for func in (fe.skillings_mack, fe.quade, fe.friedman_aligned_ranks):
        name = func.__name__
        with pytest.raises(
            InsufficientDataError,
            match=rf"{name}\(\): needs at least 2 blocks \('block'\), got 1\.",
        ):
            func(df, "value", higher_is_better=True)
        with pytest.raises(fe.exceptions.InvalidParameterError, match=r"alpha must be in"):
            func(df, "value", higher_is_better=True, alpha=2)


@pytest.mark.slow
def test_post_hoc_z_is_standard_normal_under_the_hypothesis():
    """Monte Carlo over within-block permutations of one table (k = 4, N = 14, like Demšar's):
    the z of each pair has standard deviation 1 (± 3 %), the property the standard error must
    have. García et al.'s printed standard errors (√(k(N + 1)/6) for aligned ranks; Quade's
    with the factor (k − 1)/2) would give 2.2 and 0.82 here."""
    rng = np.random.default_rng(8)
    n, k = 14, 4
    base = rng.normal(size=(n, k)) + 3 * rng.normal(size=(n, 1))
    draws = 3000
    tables = np.stack([np.vstack([rng.permutation(row) for row in base]) for _ in range(draws)])
    frame = pl.DataFrame(
        {
            "rep": np.repeat(np.arange(draws), n * k),
            "block": np.tile(np.repeat(np.arange(n), k), draws),
            "learner": np.tile([f"L{j}" for j in range(k)], draws * n),
            "value": tables.ravel(),
        }
    )
    for test in ("friedman_aligned_ranks", "quade"):
        out = fe.rank_post_hoc(
            frame, "value", test=test, adjust=None, by="rep", higher_is_better=True
        )
        pair = out.filter((pl.col("a") == "L0") & (pl.col("b") == "L1"))
        diff = pair["average_rank_a"] - pair["average_rank_b"]
        signed = np.sign(diff.to_numpy()) * pair["statistic"].to_numpy()
        assert abs(np.std(signed) - 1.0) < 0.03, test


def test_a_null_metric_value_is_a_missing_cell():
    """A failed run as a null value (a wide results table unpivoted) is a missing cell: the
    same Skillings–Mack result as without the row, the complete tests name it, and a group
    with no value at all is refused rather than dropped."""
    df = pl.DataFrame(
        {
            "g": [1] * 9 + [2] * 9,
            "block": ["d1", "d1", "d1", "d2", "d2", "d2", "d3", "d3", "d3"] * 2,
            "learner": ["A", "B", "C"] * 6,
            "value": [0.1, 0.2, 0.3, 0.4, 0.5, 0.45, 0.6, 0.9, 0.8] * 2,
        }
    )
    failed = (pl.col("g") == 1) & (pl.col("block") == "d2") & (pl.col("learner") == "B")
    as_null = df.with_columns(pl.when(failed).then(None).otherwise("value").alias("value"))
    kw = dict(by="g", higher_is_better=True)
    expected = fe.skillings_mack(df.filter(~failed), "value", **kw)
    assert expected["n_missing"].to_list() == [1, 0]
    assert_frames_close(fe.skillings_mack(as_null, "value", **kw), expected)
    assert_frames_close(fe.skillings_mack(as_null.lazy(), "value", **kw).collect(), expected)
    for func in (fe.friedman, fe.wilcoxon, fe.comparison_matrix):
        with pytest.raises(
            InsufficientDataError, match=r"got 1 missing: learner=B on block=d2 in group g=1\."
        ):
            func(as_null, "value", **kw)
    all_null = as_null.with_columns(
        pl.when(pl.col("g") == 2).then(None).otherwise("value").alias("value")
    )
    with pytest.raises(
        InsufficientDataError,
        match=r"^skillings_mack\(\): needs metric values, got none \(every 'value' value is "
        r"null\) in group g=2\.$",
    ):
        fe.skillings_mack(all_null, "value", **kw)
    nan = df.with_columns(pl.when(failed).then(float("nan")).otherwise("value").alias("value"))
    hint = (
        r"must not contain NaN, got NaN \(1 rows\) in group g=1\.\nHint: a failed run is a "
        r"missing cell: make it null \(fill_nan\(None\)\) or drop its row\.$"
    )
    for func in (fe.skillings_mack, fe.friedman, fe.comparison_matrix):
        for data in (nan, nan.lazy()):
            with pytest.raises(MissingValueError, match=hint):
                fe.collect(func(data, "value", **kw))
