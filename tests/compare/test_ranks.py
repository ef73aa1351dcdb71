"""Tests of frameeval.compare.ranks: rank_table, average_ranks (Table 2.5) and friedman
(eqs 2.34–2.35, Table 2.6).

Oracles: scipy.stats.rankdata per block, scipy.stats.friedmanchisquare on tie-free tables, a
numpy transcription of eqs 2.34–2.35 on average ranks; golden values from the book's Table 2.6
(as transcribed in shared/seeds/002) and the notes' figure 2.8 example (shared/seeds/000).
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from scipy import stats

import frameeval as fe
from frameeval.exceptions import (
    DuplicateKeyError,
    InsufficientDataError,
    InvalidParameterError,
    MissingValueError,
)
from tests.compare._tables import assert_frames_close, matrix, metric_tables, shuffled
from tests.helpers.oracle import assert_close

# Table 2.6 of the book, "F 检验的常用临界值" (shared/seeds/002, lines 232–262): rows N = 4, 5,
# 8, 10, 15, 20 data sets, columns k = 2…10 learners. The transcription cuts the last column of
# the α = 0.1 rows N = 15 and N = 20 short ("1.6"); those two cells are left out (None).
TABLE_2_6 = {
    0.05: {
        4: [10.128, 5.143, 3.863, 3.259, 2.901, 2.661, 2.488, 2.355, 2.250],
        5: [7.709, 4.459, 3.490, 3.007, 2.711, 2.508, 2.359, 2.244, 2.153],
        8: [5.591, 3.739, 3.072, 2.714, 2.485, 2.324, 2.203, 2.109, 2.032],
        10: [5.117, 3.555, 2.960, 2.634, 2.422, 2.272, 2.159, 2.070, 1.998],
        15: [4.600, 3.340, 2.827, 2.537, 2.346, 2.209, 2.104, 2.022, 1.955],
        20: [4.381, 3.245, 2.766, 2.492, 2.310, 2.179, 2.079, 2.000, 1.935],
    },
    0.1: {
        4: [5.538, 3.463, 2.813, 2.480, 2.273, 2.130, 2.023, 1.940, 1.874],
        5: [4.545, 3.113, 2.606, 2.333, 2.158, 2.035, 1.943, 1.870, 1.811],
        8: [3.589, 2.726, 2.365, 2.157, 2.019, 1.919, 1.843, 1.782, 1.733],
        10: [3.360, 2.624, 2.299, 2.108, 1.980, 1.886, 1.814, 1.757, 1.710],
        15: [3.102, 2.503, 2.219, 2.048, 1.931, 1.845, 1.779, 1.726, None],
        20: [2.990, 2.448, 2.182, 2.020, 1.909, 1.826, 1.762, 1.711, None],
    },
}


def design_grid() -> pl.DataFrame:
    """One complete N × k table per (N, k) of Table 2.6, in one long frame."""
    frames = []
    for n in (4, 5, 8, 10, 15, 20):
        for k in range(2, 11):
            blocks = np.repeat(np.arange(n), k)
            learners = np.tile(np.arange(k), n)
            values = (blocks * 7 + learners * 3) % (k + 1)  # some ties, never all equal
            frames.append(
                pl.DataFrame(
                    {
                        "N": n,
                        "k": k,
                        "block": blocks,
                        "learner": learners,
                        "error_rate": values.astype(float),
                    }
                )
            )
    return pl.concat(frames)


@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_friedman_critical_values_reproduce_table_2_6(alpha):
    """Every cell of Table 2.6 within 1e-3, from one grouped call (by N and k)."""
    with warnings.catch_warnings(action="ignore"):
        out = fe.friedman(design_grid(), "error_rate", by=["N", "k"], alpha=alpha)
    assert out.height == 54
    assert out["df1"].to_list() == (out["k"] - 1).to_list()
    assert out["df2"].to_list() == ((out["k"] - 1) * (out["N"] - 1)).to_list()
    checked = 0
    for row in out.iter_rows(named=True):
        book = TABLE_2_6[alpha][row["N"]][row["k"] - 2]
        if book is not None:
            assert row["critical_value"] == pytest.approx(book, abs=1e-3)
            checked += 1
    assert checked == 54 - (2 if alpha == 0.1 else 0)


def test_the_notes_figure_2_8_example():
    """Golden: the notes' figure 2.8 code (shared/seeds/000, "图 2.8 的 Matlab 绘制") has average
    ranks [1, 2.125, 2.875] for algorithms A, B, C on N = 4 data sets (Table 2.5) and
    q_α = 2.344 (k = 3, α = 0.05), CD = q_α √(k(k+1)/6N). The table below is one arrangement
    with those average ranks (A first everywhere, B and C tied once); the Friedman statistics
    are compared with eqs 2.34–2.35 evaluated on the average ranks."""
    ranks = {"D1": (1, 2, 3), "D2": (1, 2.5, 2.5), "D3": (1, 2, 3), "D4": (1, 2, 3)}
    df = pl.DataFrame(
        [
            (d, learner, 1.0 - 0.1 * r)
            for d, rs in ranks.items()
            for learner, r in zip("ABC", rs, strict=True)
        ],
        schema=["block", "learner", "accuracy"],
        orient="row",
    )
    table = fe.rank_table(df, "accuracy")
    assert table["rank"].to_list() == [r for rs in ranks.values() for r in rs]
    avg = fe.average_ranks(df, "accuracy")
    assert avg["average_rank"].to_list() == [1.0, 2.125, 2.875]
    r, k, n = np.array([1.0, 2.125, 2.875]), 3, 4
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)  # eq 2.34
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)  # eq 2.35
    with pytest.warns(UserWarning, match=r"friedman\(\): chi2_p_value uses the χ² approximation"):
        out = fe.friedman(df, "accuracy").row(0, named=True)
    assert out["chi2"] == pytest.approx(chi2, abs=1e-12)
    assert out["statistic"] == pytest.approx(f, abs=1e-12)
    assert "f_statistic" not in out
    assert out["critical_value"] == pytest.approx(TABLE_2_6[0.05][4][1], abs=1e-3)
    assert out["reject"] is True
    cd = fe.nemenyi(df, "accuracy")["critical_value"].unique().item()
    assert cd == pytest.approx(2.344 * np.sqrt(k * (k + 1) / (6 * n)), abs=1e-3)


@given(df=metric_tables(ties=True))
def test_rank_table_matches_scipy_rankdata(df):
    out = fe.rank_table(df, "value", by="g", higher_is_better=False)
    low = out.sort("g", "block", "learner")
    expected = (
        df.sort("g", "block", "learner")
        .group_by("g", "block", maintain_order=True)
        .agg(pl.col("value").map_batches(lambda s: pl.Series(stats.rankdata(s.to_numpy()))))
        .explode("value")["value"]
        .to_list()
    )
    assert low["rank"].to_list() == expected
    high = fe.rank_table(df, "value", by="g", higher_is_better=True)
    k = df.group_by("g", "block").agg(pl.len()).sort("g", "block")
    k = low.join(k, on=["g", "block"])["len"]
    assert (high["rank"] + low["rank"]).to_list() == (k + 1).cast(pl.Float64).to_list()
    avg = fe.average_ranks(df, "value", by="g", higher_is_better=False)
    sums = avg.group_by("g").agg(pl.col("average_rank").sum(), pl.len()).sort("g")
    assert_close(sums["average_rank"], sums["len"] * (sums["len"] + 1) / 2, 1e-12)


@given(df=metric_tables(ties=False, k_range=(3, 5), n_range=(2, 8)))
def test_friedman_matches_scipy_on_tie_free_tables(df):
    with warnings.catch_warnings(action="ignore"):
        out = fe.friedman(df, "value", by="g", higher_is_better=True)
    for row, ((_,), part) in zip(
        out.iter_rows(named=True), sorted(df.partition_by("g", as_dict=True).items()), strict=True
    ):
        values, _ = matrix(part)
        n, k = values.shape
        res = stats.friedmanchisquare(*values.T)
        assert (row["n_learners"], row["n_blocks"]) == (k, n)
        assert_close(row["chi2"], res.statistic, 1e-12)
        assert_close(row["chi2_p_value"], res.pvalue, 1e-9)
        chi2 = res.statistic
        f = np.inf if n * (k - 1) == chi2 else (n - 1) * chi2 / (n * (k - 1) - chi2)
        assert_close(row["statistic"], f, 1e-9)
        assert_close(row["p_value"], stats.f.sf(f, k - 1, (k - 1) * (n - 1)), 1e-9)
        assert row["reject"] == (row["p_value"] < 0.05)
    with warnings.catch_warnings(action="ignore"):
        again = fe.friedman(shuffled(df), "value", by="g", higher_is_better=False)
        lazy = fe.friedman(df.lazy(), "value", by="g", higher_is_better=True).collect()
    assert_frames_close(again, out)
    assert_frames_close(lazy, out)


def test_friedman_uses_the_book_formula_without_tie_correction():
    """With ties scipy divides by 1 − Σ(t³ − t)/(N k (k² − 1)), so its statistic is larger."""
    df = pl.DataFrame(
        {
            "block": [b for b in range(6) for _ in range(3)],
            "learner": ["A", "B", "C"] * 6,
            "v": [1, 1, 2, 1, 2, 3, 2, 2, 3, 1, 2, 2, 1, 3, 3, 1, 2, 3],
        }
    )
    with warnings.catch_warnings(action="ignore"):
        out = fe.friedman(df, "v", higher_is_better=False).row(0, named=True)
    values, _ = matrix(df.rename({"v": "value"}))
    ranks = stats.rankdata(values, axis=1)
    r = ranks.mean(axis=0)
    n, k = values.shape
    book = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert out["chi2"] == pytest.approx(book, abs=1e-12)
    ties = sum(np.sum(c**3 - c) for c in (np.unique(row, return_counts=True)[1] for row in values))
    scipy_chi2 = stats.friedmanchisquare(*values.T).statistic
    assert scipy_chi2 == pytest.approx(book / (1 - ties / (n * k * (k * k - 1))), abs=1e-12)
    assert scipy_chi2 > out["chi2"]


def test_friedman_perfect_agreement_gives_infinite_f():
    df = pl.DataFrame(
        {
            "block": [b for b in range(12) for _ in range(3)],
            "learner": ["A", "B", "C"] * 12,
            "error_rate": [0.1, 0.2, 0.3] * 12,
        }
    )
    out = fe.friedman(df, "error_rate").row(0, named=True)
    assert out["chi2"] == 12 * 2  # N(k − 1)
    assert out["statistic"] == np.inf and out["p_value"] == 0.0 and out["reject"] is True


def test_friedman_warns_only_for_few_blocks_and_lazily():
    df = pl.DataFrame(
        {
            "block": [b for b in range(11) for _ in range(3)],
            "learner": ["A", "B", "C"] * 11,
            "error_rate": [0.1, 0.2, 0.3, 0.2, 0.1, 0.3] * 5 + [0.3, 0.2, 0.1],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fe.friedman(df, "error_rate")  # N = 11: no warning
    few = df.filter(pl.col("block") < 10)
    lazy = fe.friedman(few.lazy(), "error_rate")  # building the plan does not warn
    with pytest.warns(UserWarning, match=r"got N = 10; decide on the F form"):
        lazy.collect()


def test_rank_errors_name_the_problem():
    df = pl.DataFrame(
        {
            "g": [1] * 4 + [2] * 4,
            "block": ["d1", "d1", "d2", "d2"] * 2,
            "learner": ["A", "B"] * 4,
            "error_rate": [0.1, 0.2, 0.3, 0.4] * 2,
        }
    )
    gap = df.filter(~((pl.col("g") == 2) & (pl.col("block") == "d2") & (pl.col("learner") == "B")))
    with pytest.raises(
        InsufficientDataError,
        match=r"friedman\(\): every learner must have a "
        r"value on every block \(a complete block × learner table; a null value is a "
        r"missing cell\), got 1 missing: learner=B on block=d2 in group g=2\.",
    ):
        fe.friedman(gap, "error_rate", by="g")
    dup = pl.concat([df, df.head(1)])
    with pytest.raises(
        DuplicateKeyError,
        match=r"rank_table\(\): rows must be unique per \['g', "
        r"'block', 'learner'\] \(one metric value per learner and block\), got 2 "
        r"rows for g=1, block=d1, learner=A\.",
    ):
        fe.rank_table(dup, "error_rate", by="g")
    with pytest.raises(
        InsufficientDataError,
        match=r"friedman\(\): needs at least 2 learners, "
        r"got 1 in group g=1\.",
    ):
        # only group 1 is short of learners, so the group named is deterministic
        fe.friedman(
            df.filter((pl.col("learner") == "A") | (pl.col("g") == 2)), "error_rate", by="g"
        )
    with pytest.raises(InsufficientDataError, match=r"needs at least 2 blocks \('block'\), got 1"):
        fe.friedman(df.filter(pl.col("block") == "d1"), "error_rate", by="g")
    nan = df.with_columns(
        pl.when(pl.col("g") == 2).then(float("nan")).otherwise("error_rate").alias("error_rate")
    )
    with pytest.raises(
        MissingValueError,
        match=r"column 'error_rate' \(metric=\) must not "
        r"contain NaN, got NaN \(4 rows\) in group g=2\.",
    ):
        fe.average_ranks(nan, "error_rate", by="g")
    with pytest.raises(InvalidParameterError, match="higher_is_better= is required"):
        fe.rank_table(df.rename({"error_rate": "auc"}), "auc")
    with pytest.raises(
        InvalidParameterError,
        match=r"by= must not use output column names, got "
        r"\['rank'\]",
    ):
        fe.rank_table(df.rename({"g": "rank"}), "error_rate", by="rank")


def test_categorical_learners_and_pandas_input():
    df = pl.DataFrame(
        {
            "block": ["d1", "d1", "d2", "d2"],
            "learner": ["A", "B", "A", "B"],
            "error_rate": [0.1, 0.2, 0.3, 0.2],
        }
    )
    cat = df.with_columns(pl.col("learner").cast(pl.Categorical))
    out = fe.average_ranks(cat, "error_rate")
    assert out.schema["learner"] == pl.String
    assert out.equals(fe.average_ranks(df, "error_rate"))
    assert fe.average_ranks(df.to_pandas(), "error_rate").equals(out)
