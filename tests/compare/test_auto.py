"""compare_learners: the automatic choice against autorank 1.3, the statistics against
statsmodels / scipy, Demšar's (2006) worked example, grouped = per group, and bad input."""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    ColumnNotFoundError,
    DuplicateKeyError,
    InsufficientDataError,
    InvalidDtypeError,
    InvalidParameterError,
    InvalidValueError,
)
from tests.compare.test_demsar_example import table
from tests.helpers.examples import budget

KW = {"block": "data_set", "higher_is_better": True}
AUTORANK = {"ttest": "t", "wilcoxon": "wilcoxon", "anova": "anova", "friedman": "friedman"}


def wide(df: pl.DataFrame, block: str = "data_set", metric: str = "auc"):
    return df.pivot(on="learner", index=block, values=metric).sort(block).drop(block).to_pandas()


def autorank_result(df: pl.DataFrame, block: str = "data_set", metric: str = "auc", alpha=0.05):
    from autorank import autorank

    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return autorank(wide(df, block, metric), alpha=alpha)


def long_table(values: np.ndarray, learners=None) -> pl.DataFrame:
    n, k = values.shape
    learners = learners or [f"L{j}" for j in range(k)]
    rows = [(f"d{i:02d}", learners[j], float(values[i, j])) for i in range(n) for j in range(k)]
    return pl.DataFrame(rows, schema=["data_set", "learner", "auc"], orient="row")


# ---------------------------------------------------------------------------------------------
# Demšar (2006), Table 6
# ---------------------------------------------------------------------------------------------
def test_demsar_automatic_choice_agrees_with_autorank():
    """autorank 1.3 on Demšar's table: every column passes Shapiro–Wilk at 0.05/4 (p = 0.020 …
    0.034) and Bartlett's p = 0.993, so both choose repeated-measures ANOVA + Tukey HSD."""
    df = table(paper_order=True)
    result = fe.compare_learners(df, "auc", **KW)
    ar = autorank_result(df)
    assert result.procedure == AUTORANK[ar.omnibus] == "anova"
    assert result.omnibus["p_value"][0] == pytest.approx(ar.pvalue, abs=1e-12)
    shapiro = result.checks.filter(pl.col("check") == "shapiro_wilk")
    got = dict(zip(shapiro["learner"], shapiro["p_value"], strict=True))
    expected = dict(zip(ar.rankdf.index, ar.pvals_shapiro, strict=True))
    for name, p in expected.items():
        assert got[name] == pytest.approx(p, abs=1e-12)
    bartlett = result.checks.filter(pl.col("check") == "bartlett").row(0, named=True)
    assert bartlett["p_value"] == pytest.approx(ar.pval_homogeneity, abs=1e-9)
    assert "Tukey HSD" in result.verdict and "C4.5+m+cf has the best mean" in result.verdict


def test_demsar_forced_friedman_reproduces_the_paper():
    """Demšar (2006) §3.2.2: χ²_F = 9.28, F_F = 3.69 (F(3, 39) critical 2.85), CD = 1.25 at
    α = 0.05 (no pair differs), 1.12 at α = 0.10 (C4.5 worse than C4.5+m and C4.5+m+cf)."""
    df = table(paper_order=True)
    result = fe.compare_learners(df, "auc", procedure="friedman", **KW)
    om = result.omnibus.row(0, named=True)
    assert om["test"] == "friedman_iman_davenport"
    assert round(om["chi2"], 2) == 9.28 and round(om["statistic"], 2) == 3.69
    assert (om["df1"], om["df2"]) == (3.0, 39.0) and om["reject"] is True
    assert round(result.post_hoc["critical_value"][0], 2) == 1.25
    assert not result.post_hoc["reject"].any()
    assert result.ranks.row(0, named=True)["learner"] == "C4.5+m+cf"
    v = result.verdict
    assert v.startswith("C4.5+m+cf ranks best (average rank 1.964)")
    assert "F_F = 3.69" in v and "χ²_F = 9.28" in v and "CD = 1.25" in v
    assert "no pair differs significantly by the Nemenyi test" in v

    ten = fe.compare_learners(df, "auc", procedure="friedman", alpha=0.10, **KW)
    assert round(ten.post_hoc["critical_value"][0], 2) == 1.12
    differ = ten.post_hoc.filter("reject").select("a", "b", "better").rows()
    assert sorted(differ) == [("C4.5", "C4.5+m", "C4.5+m"), ("C4.5", "C4.5+m+cf", "C4.5+m+cf")]
    assert "C4.5+m+cf > C4.5" in ten.verdict and "C4.5+m > C4.5" in ten.verdict
    cliques = ten.cliques.group_by("clique").agg(pl.col("learner").sort()).sort("clique")
    assert cliques["learner"].to_list() == [["C4.5+cf", "C4.5+m", "C4.5+m+cf"], ["C4.5", "C4.5+cf"]]


def rm_error(values: np.ndarray) -> tuple[float, float]:
    """MS_error and its df of the two-way additive model, by hand: residuals
    x_ij − m_j − b_i + G on (k − 1)(N − 1) degrees of freedom."""
    n, k = values.shape
    resid = values - values.mean(axis=0) - values.mean(axis=1, keepdims=True) + values.mean()
    df = (k - 1) * (n - 1)
    return float((resid**2).sum() / df), float(df)


def test_anova_and_tukey_against_statsmodels():
    """Repeated-measures ANOVA = statsmodels AnovaRM; Tukey HSD on AnovaRM's error term:
    MS_error = MS_learner / F (statsmodels) = the residual mean square by hand, q against the
    studentized range Q(k, (k − 1)(N − 1)) (scipy)."""
    from statsmodels.stats.anova import AnovaRM

    rng = np.random.default_rng(3)
    values = rng.normal(size=(12, 4)) + np.array([0.0, 0.3, 0.9, 1.0]) + rng.normal(size=(12, 1))
    df = long_table(values)
    result = fe.compare_learners(df, "auc", procedure="anova", **KW)
    pdf = df.to_pandas()
    table_ = AnovaRM(pdf, "auc", "data_set", within=["learner"]).fit().anova_table
    om = result.omnibus.row(0, named=True)
    assert om["statistic"] == pytest.approx(table_["F Value"].iloc[0], rel=1e-9)
    assert om["p_value"] == pytest.approx(table_["Pr > F"].iloc[0], rel=1e-9)
    assert (om["df1"], om["df2"]) == (3.0, 33.0)
    n, k = values.shape
    ms_learner = n * ((values.mean(axis=0) - values.mean()) ** 2).sum() / (k - 1)
    mse, df_error = rm_error(values)
    assert mse == pytest.approx(ms_learner / table_["F Value"].iloc[0], rel=1e-9)
    assert df_error == table_["Den DF"].iloc[0]
    means = values.mean(axis=0)
    hsd = stats.studentized_range.ppf(0.95, k, df_error) * np.sqrt(mse / n)
    for row in result.post_hoc.iter_rows(named=True):
        i, j = int(row["a"][1:]), int(row["b"][1:])
        q = abs(means[i] - means[j]) / np.sqrt(mse / n)
        assert row["difference"] == pytest.approx(means[i] - means[j], abs=1e-12)
        assert row["statistic"] == pytest.approx(q, rel=1e-9)
        assert row["p_value"] == pytest.approx(stats.studentized_range.sf(q, k, df_error), abs=1e-9)
        assert row["critical_value"] == pytest.approx(hsd, rel=1e-9)
        assert row["reject"] == (row["p_value"] <= 0.05)


README_SCORES = {
    "dataset": ["d1", "d2", "d3", "d4"] * 3,
    "model": ["a"] * 4 + ["b"] * 4 + ["c"] * 4,
    "accuracy": [0.81, 0.77, 0.90, 0.68, 0.79, 0.75, 0.91, 0.66, 0.70, 0.69, 0.80, 0.60],
}


def test_readme_example_post_hoc_agrees_with_the_anova():
    """README's example, ANOVA forced: F(2, 6) = 57.57 rejects, and the repeated-measures
    Tukey HSD (0.029, not the one-way 0.183) finds a > c and b > c, as paired t tests do
    (a–c p = 0.001, b–c p = 0.007); the verdict names both pairs."""
    scores = pl.DataFrame(README_SCORES)
    result = fe.compare_learners(scores, "accuracy", procedure="anova")
    values = np.array(README_SCORES["accuracy"]).reshape(3, 4).T
    mse, df_error = rm_error(values)
    hsd = stats.studentized_range.ppf(0.95, 3, df_error) * np.sqrt(mse / 4)
    ph = result.post_hoc.sort("a", "b")
    assert ph["critical_value"].to_list() == pytest.approx([hsd] * 3, rel=1e-9)
    assert ph.select("a", "b", "reject", "better").rows() == [
        ("a", "b", False, None),
        ("a", "c", True, "a"),
        ("b", "c", True, "b"),
    ]
    assert "(F(2, 6) = 57.57, p < 0.001)" in result.verdict
    assert f"HSD = {hsd:.3f}" in result.verdict
    assert (
        "these pairs differ significantly: a > c" in result.verdict and "; b > c." in result.verdict
    )
    assert "no pair differs" not in result.verdict


def test_readme_example_four_blocks_take_the_rank_path():
    """Normality is not decided on 4 blocks: the rank tests decide, and the verdict says why;
    Friedman rejects (F_F = 13, p = 0.0066) and Nemenyi separates a from c only, consistently."""
    result = fe.compare_learners(pl.DataFrame(README_SCORES), "accuracy")
    assert result.procedure == "friedman"
    assert result.checks.height == 0
    assert "normality cannot be checked" in result.verdict
    assert "fewer than 5" in result.verdict
    assert re.search(r"p = 0\.0(?![0-9])", result.verdict) is None
    assert "F_F = 13.00, p = 0.00659" in result.verdict
    assert result.omnibus["reject"].to_list() == [True]
    differ = result.post_hoc.filter(pl.col("reject")).select("a", "b").rows()
    assert differ == [("a", "c")]
    assert "these pairs differ significantly: a > c (" in result.verdict
    assert "No other pair differs significantly." in result.verdict


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0, "p < 0.001"),
        (0.000999, "p < 0.001"),
        (0.001, "p = 0.00100"),
        (0.012345, "p = 0.0123"),
        (0.5, "p = 0.500"),
        (1.0, "p = 1.00"),
        (None, "p undefined"),
        (float("nan"), "p undefined"),
    ],
)
def test_p_values_print_with_three_significant_digits(p, text):
    from frameeval.compare.words import format_p

    assert format_p(p) == text


def test_two_normal_learners_paired_t_equals_scipy():
    rng = np.random.default_rng(11)
    a = rng.normal(0.80, 0.03, size=15)
    b = a - 0.02 + rng.normal(0, 0.01, size=15)
    df = long_table(np.column_stack([a, b]), ["A", "B"])
    result = fe.compare_learners(df, "auc", **KW)
    assert result.procedure == "t"
    om = result.omnibus.row(0, named=True)
    ref = stats.ttest_rel(a, b)
    assert om["statistic"] == pytest.approx(ref.statistic, rel=1e-9)
    assert om["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert result.post_hoc.row(0, named=True)["better"] == "A"
    assert "significantly better than B" in result.verdict and "paired t test" in result.verdict


def test_two_learners_not_normal_use_wilcoxon():
    a = np.array([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.2, 0.1, 0.1, 0.1])
    b = a - np.linspace(0.01, 0.05, 12)
    df = long_table(np.column_stack([a, b]), ["A", "B"])
    result = fe.compare_learners(df, "auc", **KW)
    assert result.procedure == "wilcoxon" == AUTORANK[autorank_result(df).omnibus]
    ref = stats.wilcoxon(a, b)
    assert result.omnibus["p_value"][0] == pytest.approx(ref.pvalue, rel=1e-9)


def test_effect_sizes_against_autorank_formulas():
    """Cohen's d when all learners look normal, Akinshin's γ otherwise (autorank's choice and
    formulas), each learner against the best."""
    from autorank._util import _akinshin_gamma, _cohen_d

    rng = np.random.default_rng(8)
    skewed = long_table(rng.exponential(size=(10, 3)) ** 3 + [0.0, 0.5, 1.0])
    for df, method in ((table(paper_order=True), "cohen_d"), (skewed, "akinshin_gamma")):
        fn = _cohen_d if method == "cohen_d" else _akinshin_gamma
        data = wide(df)
        es = fe.compare_learners(df, "auc", **KW).effect_sizes
        assert es["method"].unique().to_list() == [method]
        ref = es["reference"][0]
        for row in es.iter_rows(named=True):
            expected = fn(data[ref], data[row["learner"]])
            assert row["effect_size"] == pytest.approx(expected, abs=1e-9)
    words = fe.compare_learners(table(paper_order=True), "auc", **KW).effect_sizes
    assert words["magnitude"].unique().to_list() == ["negligible"]
    assert words["effect_size"].to_list()[0] == 0.0


# ---------------------------------------------------------------------------------------------
# randomized tables: the automatic choice agrees with autorank's
# ---------------------------------------------------------------------------------------------
@st.composite
def study(draw):
    k = draw(st.integers(2, 5))
    n = draw(st.integers(5, 14))
    seed = draw(st.integers(0, 2**31 - 1))
    kind = draw(st.sampled_from(["normal", "skewed", "heteroscedastic", "grid"]))
    rng = np.random.default_rng(seed)
    shift = rng.normal(0, 0.5, size=k)
    if kind == "normal":
        values = rng.normal(size=(n, k)) + shift
    elif kind == "skewed":
        values = rng.exponential(size=(n, k)) ** 2 + shift
    elif kind == "heteroscedastic":
        values = rng.normal(size=(n, k)) * np.linspace(0.2, 3.0, k) + shift
    else:
        values = rng.integers(0, 5, size=(n, k)) / 4 + 0.001 * np.arange(k)
    return long_table(values)


@settings(max_examples=budget(10))
@given(study())
def test_choice_agrees_with_autorank(df):
    result = fe.compare_learners(df, "auc", **KW)
    ar = autorank_result(df)
    assert result.procedure == AUTORANK[ar.omnibus]


# ---------------------------------------------------------------------------------------------
# frames: grouped = per group, row order, lazy input
# ---------------------------------------------------------------------------------------------
def _grouped_input() -> pl.DataFrame:
    rng = np.random.default_rng(5)
    parts = [
        table(paper_order=True).with_columns(pl.lit("demsar").alias("study")),
        long_table(rng.normal(size=(8, 2)) + [0, 1]).with_columns(pl.lit("normal2").alias("study")),
        long_table(rng.exponential(size=(9, 3)) ** 3).with_columns(
            pl.lit("skewed3").alias("study")
        ),
    ]
    return pl.concat(parts)


def test_grouped_equals_per_group_and_row_order():
    df = _grouped_input()
    grouped = fe.compare_learners(df, "auc", by="study", **KW)
    assert grouped.design["study"].to_list() == ["demsar", "normal2", "skewed3"]
    assert grouped.procedure == "anova, t, friedman"
    for name, part in df.partition_by("study", as_dict=True).items():
        single = fe.compare_learners(part.drop("study"), "auc", **KW)
        for frame, other in zip(
            grouped.to_frame().values(), single.to_frame().values(), strict=True
        ):
            mine = frame.filter(pl.col("study") == name[0]).drop("study")
            assert mine.columns == other.columns
            assert mine.equals(other) or _close(mine, other)
        assert f"study={name[0]}: " + single.verdict in grouped.verdict
    shuffled = fe.compare_learners(
        df.sample(fraction=1.0, shuffle=True, seed=2), "auc", by="study", **KW
    )
    assert shuffled.verdict == grouped.verdict
    lazy = fe.compare_learners(df.lazy(), "auc", by="study", **KW)
    assert lazy.verdict == grouped.verdict


def _close(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    for col in a.columns:
        x, y = a[col], b[col]
        if x.dtype.is_float():
            np.testing.assert_allclose(x.to_numpy(), y.to_numpy(), rtol=1e-12, equal_nan=True)
        else:
            assert x.to_list() == y.to_list()
    return True


def test_to_frame_and_chart():
    result = fe.compare_learners(table(paper_order=True), "auc", procedure="friedman", **KW)
    frames = result.to_frame()
    assert list(frames) == [
        "design",
        "checks",
        "omnibus",
        "post_hoc",
        "ranks",
        "effect_sizes",
        "cliques",
        "verdicts",
    ]
    spec = result.chart().to_dict()
    assert "Friedman + Nemenyi" in str(spec["title"])
    assert str(result) == result.verdict
    # another procedure: the title says the bars only orient and names the test in words
    anova = fe.compare_learners(table(paper_order=True), "auc", procedure="anova", **KW)
    title = str(anova.chart().to_dict()["title"])
    assert "only orient" in title and "repeated-measures ANOVA" in title
    assert "decided by:" not in title


def test_block_and_learner_inferred_from_column_names():
    df = table(paper_order=True).rename({"data_set": "dataset", "learner": "model"})
    result = fe.compare_learners(df, "auc", higher_is_better=True)
    assert (result.block, result.learner) == ("dataset", "model")
    with pytest.raises(
        ColumnNotFoundError,
        match=r"compare_learners\(\): block= must be given when no column has a common block name",
    ):
        fe.compare_learners(df.rename({"dataset": "x"}), "auc", higher_is_better=True)
    two = df.with_columns(pl.col("model").alias("classifier"))
    with pytest.raises(
        InvalidParameterError,
        match=r"compare_learners\(\): learner= must be given when several columns have a common "
        r"learner name, got candidates \['model', 'classifier'\]",
    ):
        fe.compare_learners(two, "auc", higher_is_better=True)
    # the metric and by= keys are never candidates
    by_block = df.with_columns(pl.lit("x").alias("task"))
    result = fe.compare_learners(by_block, "auc", higher_is_better=True, by="task")
    assert (result.block, result.by) == ("dataset", ("task",))


# ---------------------------------------------------------------------------------------------
# bad input: a verdict that says what cannot be concluded, or a typed error
# ---------------------------------------------------------------------------------------------
def test_one_learner_one_block_and_ties_give_a_verdict():
    one = table(paper_order=True).filter(pl.col("learner") == "C4.5")
    result = fe.compare_learners(one, "auc", **KW)
    assert result.procedure == "none" and result.omnibus.height == 0
    assert result.verdict == (
        "Nothing can be concluded: only one learner (C4.5): there is nothing to compare."
    )
    block = table(paper_order=True).filter(pl.col("data_set") == "iris")
    result = fe.compare_learners(block, "auc", **KW)
    assert (
        result.verdict == "Nothing can be concluded: only 1 block: a comparison needs at least 2."
    )
    tied = table(paper_order=True).with_columns(pl.lit(0.5).alias("auc"))
    result = fe.compare_learners(tied, "auc", **KW)
    assert result.procedure == "none"
    assert "have the same auc on every one of the 14 blocks" in result.verdict
    # forced on tied data: the test runs and does not reject
    forced = fe.compare_learners(tied, "auc", procedure="friedman", **KW)
    assert forced.omnibus["reject"].to_list() == [False]


def test_few_blocks_use_rank_tests_and_say_so():
    df = table(paper_order=True).filter(pl.col("data_set").is_in(["iris", "wine"]))
    result = fe.compare_learners(df, "auc", **KW)
    assert result.procedure == "friedman"
    assert "normality cannot be checked" in result.verdict
    assert "little power" in result.verdict


def test_errors():
    df = table(paper_order=True)
    with pytest.raises(DuplicateKeyError, match=r"compare_learners\(\): rows must be unique"):
        fe.compare_learners(pl.concat([df, df.head(1)]), "auc", **KW)
    inf = df.with_columns(
        pl.when(pl.col("data_set") == "iris").then(float("inf")).otherwise("auc").alias("auc")
    )
    with pytest.raises(InvalidValueError, match=r"metric=\) must be finite, got inf"):
        fe.compare_learners(inf, "auc", **KW)
    with pytest.raises(
        InsufficientDataError, match=r"procedure='t' compares exactly 2 learners, got 4"
    ):
        fe.compare_learners(df, "auc", procedure="t", **KW)
    with pytest.raises(InvalidParameterError, match=r"procedure must be 'auto' or one of"):
        fe.compare_learners(df, "auc", procedure="magic", **KW)  # type: ignore[arg-type]
    with pytest.raises(
        InvalidParameterError,
        match=r"compare_learners\(\): rope must be a finite number >= 0 .*, got -1",
    ):
        fe.compare_learners(df, "auc", rope=-1, **KW)
    with pytest.raises(InvalidParameterError, match=r"alpha must be in \(0, 1\)"):
        fe.compare_learners(df, "auc", alpha=2, **KW)
    nan = df.with_columns(
        pl.when((pl.col("data_set") == "iris") & (pl.col("learner") == "C4.5"))
        .then(float("nan"))
        .otherwise("auc")
        .alias("auc")
    )
    with pytest.raises(
        InsufficientDataError,
        match=r"needs every learner to have a value on every block, got 1 missing",
    ):
        fe.compare_learners(nan, "auc", procedure="friedman", **KW)


def test_missing_cells_use_skillings_mack():
    df = table(paper_order=True)
    gap = df.filter(~((pl.col("data_set") == "iris") & (pl.col("learner") == "C4.5")))
    result = fe.compare_learners(gap, "auc", **KW)
    assert result.procedure == "skillings_mack"
    om = result.omnibus.row(0, named=True)
    assert om["test"] == "skillings_mack" and om["n_learners"] == 4 and om["n_blocks"] == 14
    direct = fe.compare.skillings_mack(
        gap,
        metric="auc",
        block="data_set",
        learner="learner",
        higher_is_better=True,
        alpha=0.05,
        by=None,
    )
    assert om["p_value"] == pytest.approx(direct["p_value"][0], abs=1e-12)
    assert "Skillings–Mack" in result.verdict
    assert result.verdict.endswith("because 1 missing (block, learner) cell.")
    two = gap.filter(~((pl.col("data_set") == "wine") & (pl.col("learner") == "C4.5+m")))
    assert fe.compare_learners(two, "auc", **KW).verdict.endswith(
        "because 2 missing (block, learner) cells."
    )


def test_rope_uses_bayes_signed_rank():
    df = table(paper_order=True)
    result = fe.compare_learners(df, "auc", rope=0.01, **KW)
    assert result.procedure == "bayes_signed_rank"
    assert result.post_hoc.height == 6 and result.omnibus.height == 0
    direct = fe.compare.bayes_signed_rank(
        df,
        metric="auc",
        block="data_set",
        learner="learner",
        rope=0.01,
        n_samples=50_000,
        seed=0,
        higher_is_better=True,
        by=None,
    )
    got = result.post_hoc.sort("a", "b")["p_rope"].to_numpy()
    np.testing.assert_allclose(got, direct.sort("a", "b")["p_rope"].to_numpy(), atol=1e-12)
    assert "Bayesian signed-rank test (rope = 0.01)" in result.verdict


def test_missing_cells_post_hoc_is_skillings_mack_holm():
    """The missing-cells post-hoc is rank_post_hoc(test="skillings_mack", adjust="holm");
    a NaN value is a missing cell like an absent row; grouped = per group."""
    df = table(paper_order=True)
    gap = df.filter(~((pl.col("data_set") == "iris") & (pl.col("learner") == "C4.5")))
    nan = df.with_columns(
        pl.when((pl.col("data_set") == "iris") & (pl.col("learner") == "C4.5"))
        .then(float("nan"))
        .otherwise("auc")
        .alias("auc")
    )
    result = fe.compare_learners(gap, "auc", **KW)
    same = fe.compare_learners(nan, "auc", **KW)
    assert result.post_hoc.equals(same.post_hoc) and result.verdict == same.verdict
    assert result.design["post_hoc_test"].to_list() == ["skillings_mack_holm"]
    direct = fe.rank_post_hoc(
        gap, "auc", test="skillings_mack", adjust="holm", block="data_set", higher_is_better=True
    ).sort("a", "b")
    ph = result.post_hoc.sort("a", "b")
    assert ph["a"].to_list() == direct["a"].to_list() and ph["b"].to_list() == direct["b"].to_list()
    np.testing.assert_allclose(ph["p_value"], direct["p_adjusted"], atol=1e-12)
    assert ph["reject"].to_list() == direct["reject"].to_list()
    np.testing.assert_allclose(
        ph["difference"], direct["average_rank_a"] - direct["average_rank_b"], atol=1e-12
    )
    # C4.5 differs from the two +m learners (Holm p = 0.033, 0.031): said in the verdict
    assert set(ph.filter("reject")["better"]) == {"C4.5+m", "C4.5+m+cf"}
    assert "C4.5+m+cf > C4.5" in result.verdict and "C4.5+m > C4.5" in result.verdict
    assert "SM = 11.65, df = 3, p = 0.00868" in result.verdict  # three significant digits
    assert "Holm" in result.verdict
    # grouped == per group
    both = pl.concat(
        [gap.with_columns(pl.lit("g1").alias("g")), df.with_columns(pl.lit("g2").alias("g"))]
    )
    grouped = fe.compare_learners(both, "auc", by="g", **KW)
    assert grouped.design["procedure"].to_list() == ["skillings_mack", "anova"]
    one = grouped.post_hoc.filter(pl.col("g") == "g1").drop("g")
    assert one.equals(result.post_hoc)


def test_rope_grouped_and_with_missing_cells():
    df = table(paper_order=True)
    both = pl.concat([df.with_columns(pl.lit(g).alias("g")) for g in ("g1", "g2")])
    grouped = fe.compare_learners(both, "auc", rope=0.01, by="g", **KW)
    single = fe.compare_learners(df, "auc", rope=0.01, **KW)
    assert grouped.post_hoc.height == 12
    for g in ("g1", "g2"):
        part = grouped.post_hoc.filter(pl.col("g") == g).drop("g")
        assert part.equals(single.post_hoc)
    # a missing cell: each pair uses the blocks where both learners have a value
    gap = df.filter(~((pl.col("data_set") == "iris") & (pl.col("learner") == "C4.5")))
    result = fe.compare_learners(gap, "auc", rope=0.01, **KW)
    assert result.procedure == "bayes_signed_rank"
    parts = []
    for a, b in result.post_hoc.select("a", "b").rows():
        pair = gap.filter(pl.col("learner").is_in([a, b]))
        common = pair.group_by("data_set").len().filter(pl.col("len") == 2).select("data_set")
        pair = pair.join(common, on="data_set")
        parts.append(
            fe.compare.bayes_signed_rank(
                pair, "auc", rope=0.01, block="data_set", higher_is_better=True
            )
        )
    direct = pl.concat(parts).sort("a", "b")
    assert direct.filter(pl.col("a") == "C4.5")["n_blocks"].to_list() == [13, 13, 13]
    ph = result.post_hoc.sort("a", "b")
    for col in ("p_a_better", "p_rope", "p_b_better"):
        np.testing.assert_allclose(ph[col], direct[col], atol=1e-12)
    np.testing.assert_allclose(ph["difference"], direct["mean_difference"], atol=1e-12)


def _maximal_runs(order: list[str], rejected: set[frozenset[str]]) -> list[list[str]]:
    """Brute force: every run order[i..j] with no rejected pair inside, kept when no other such
    run contains it, in order of start."""
    k = len(order)
    valid = [
        (i, j)
        for i in range(k)
        for j in range(i, k)
        if not any(
            frozenset((order[p], order[q])) in rejected
            for p in range(i, j + 1)
            for q in range(p + 1, j + 1)
        )
    ]
    kept = [
        (i, j)
        for (i, j) in valid
        if not any((i2 <= i and j <= j2 and (i2, j2) != (i, j)) for (i2, j2) in valid)
    ]
    return [order[i : j + 1] for i, j in sorted(kept)]


@settings(max_examples=budget(25), deadline=None)
@given(
    k=st.integers(2, 6),
    n=st.integers(3, 12),
    seed=st.integers(0, 10_000),
    shift=st.floats(0.0, 0.3),
)
def test_cliques_are_the_maximal_runs(k, n, seed, shift):
    """Comparison.cliques (fe.cliques + single learners) = a brute-force maximal-run search
    on the post-hoc's rejections, in position order, for every procedure."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(0, 1, size=(n, k)) + shift * np.arange(k)
    df = long_table(values)
    for proc in ("auto", "friedman"):
        result = fe.compare_learners(df, "auc", procedure=proc, **KW)  # type: ignore[arg-type]
        if result.procedure == "none":
            continue
        order = result.ranks.sort("position")["learner"].to_list()
        rejected = {
            frozenset((r["a"], r["b"]))
            for r in result.post_hoc.filter(pl.col("reject").fill_null(False)).iter_rows(named=True)
        }
        got = [
            g["learner"].to_list()
            for _, g in result.cliques.sort("clique").group_by("clique", maintain_order=True)
        ]
        assert got == _maximal_runs(order, rejected)
        assert result.cliques["clique"].to_list() == sorted(result.cliques["clique"].to_list())


def test_unchecked_groups_use_the_rank_effect_size():
    """With 2 blocks nothing is checked: the rank test decides and the effect size is
    Akinshin's γ (not Cohen's d, which assumes normality)."""
    df = long_table(np.array([[0.9, 0.8], [0.7, 0.75]]), ["A", "B"])
    result = fe.compare_learners(df, "auc", **KW)
    assert result.procedure == "wilcoxon" and result.checks.height == 0
    assert set(result.effect_sizes["method"]) == {"akinshin_gamma"}
    assert "Cohen" not in result.verdict


_CV = pl.DataFrame(
    {"model": ["A"] * 4 + ["B"] * 4, "fold": [1, 2, 3, 4] * 2, "accuracy": [0.8, 0.7] * 4}
)
_SETS = pl.DataFrame(
    {"learner": ["A", "B"] * 3, "dataset": ["d1"] * 2 + ["d2"] * 2 + ["d3"] * 2,
     "accuracy": [0.8, 0.7, 0.6, 0.65, 0.9, 0.85], "verdict": [1] * 6}
)  # fmt: skip


@pytest.mark.parametrize(
    ("data", "kwargs", "error", "message"),
    [
        (_CV, {"metric": "acc"}, ColumnNotFoundError,
         r"column 'acc' \(metric=\) not found, got columns \['model', 'fold', 'accuracy'\]\.$"),
        (_CV, {"learner": "nope"}, ColumnNotFoundError, r"column 'nope' \(learner=\) not found"),
        (_CV.with_columns(pl.col("accuracy").cast(pl.String)), {}, InvalidDtypeError,
         r"column 'accuracy' \(metric=\) must be numeric \(integer or float\), got String\.$"),
        (_CV, {"learner": "model", "fold": "model"}, InvalidParameterError,
         r"learner= and fold= must name different columns, got 'model' for both\.$"),
        (_CV, {"by": "model", "learner": "model"}, InvalidParameterError,
         r"by= must not contain the learner= column, got by=\['model'\]\.$"),
        (_SETS, {"block": "dataset", "learner": "dataset"}, InvalidParameterError,
         r"block= and learner= must name different columns, got 'dataset' for both\.$"),
        (_SETS, {"block": "dataset", "by": "verdict"}, InvalidParameterError,
         r"by= must not use output column names, got \['verdict'\]\.$"),
        (_SETS.with_columns(pl.col("accuracy").cast(pl.String)), {"block": "dataset"},
         InvalidDtypeError, r"column 'accuracy' \(metric=\) must be numeric"),
    ],
)  # fmt: skip
def test_compare_learners_door_names_the_column_and_the_role(data, kwargs, error, message):
    """The declared inputs of either design (one data set's splits, several data sets), each
    compiled after the roles are inferred: the first failing rule's message."""
    kwargs = {"metric": "accuracy", "higher_is_better": True, **kwargs}
    with pytest.raises(error, match=r"^compare_learners\(\): " + message):
        fe.compare_learners(data, **kwargs)
