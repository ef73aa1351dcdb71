"""compare_learners on one data set's splits (folds, repeats): every pair by a test for
correlated splits, adjusted over the pairs.

Oracles: a hand Nadeau–Bengio computation (Nadeau & Bengio 2003, the corrected resampled t
statistic t = d̄ / (s √(1/J + n_test/n_train)), J − 1 df) with statsmodels' Holm adjustment;
baycomp's ``CorrelatedTTest`` for the rope path; ``cv5x2_f_test`` for the 5×2cv design. The
simulation test draws null tables whose splits are correlated as cross-validation's are and
checks the type I error of the chosen procedure against the naive paired t test over folds.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from baycomp import CorrelatedTTest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import frameeval as fe
from frameeval.exceptions import InvalidParameterError


def cv_table(
    seed: int,
    learners: dict[str, float],
    repeats: int = 3,
    folds: int = 10,
    noise: float = 0.01,
    rho: float = 0.0,
    dataset: str | None = None,
) -> pl.DataFrame:
    """``model, repeat, fold, accuracy``: each learner's value = a split effect shared by all
    learners + the learner's offset + its own noise (correlated over the splits by ``rho``)."""
    rng = np.random.default_rng(seed)
    split = rng.normal(0.85, 0.02, size=(repeats, folds))
    rows = []
    for name, offset in learners.items():
        common = rng.normal(0.0, noise)
        own = rng.normal(0.0, noise, size=(repeats, folds))
        value = split + offset + np.sqrt(rho) * common + np.sqrt(1 - rho) * own
        for r, f in itertools.product(range(repeats), range(folds)):
            rows.append((name, r, f, float(value[r, f])))
    out = pl.DataFrame(rows, schema=["model", "repeat", "fold", "accuracy"], orient="row")
    if dataset is not None:
        out = out.with_columns(pl.lit(dataset).alias("dataset"))
    return out


def _hand(df: pl.DataFrame, ratio: float) -> pl.DataFrame:
    """The Nadeau–Bengio corrected resampled t test of every pair, by hand, + Holm."""
    wide = df.pivot(on="model", index=["repeat", "fold"], values="accuracy").sort("repeat", "fold")
    names = sorted(df["model"].unique().to_list())
    rows = []
    for a, b in itertools.combinations(names, 2):
        d = wide[a].to_numpy() - wide[b].to_numpy()
        j = d.size
        t = d.mean() / (d.std(ddof=1) * np.sqrt(1 / j + ratio))
        rows.append((a, b, d.mean(), t, 2 * stats.t.sf(abs(t), j - 1)))
    out = pl.DataFrame(rows, schema=["a", "b", "difference", "statistic", "p_value"], orient="row")
    holm = multipletests(out["p_value"].to_numpy(), method="holm")[1]
    return out.with_columns(pl.Series("p_adjusted", holm))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_corrected_t_equals_hand_nadeau_bengio_with_holm(seed: int) -> None:
    """Every pair's p-value equals the hand computation to 1e-9, the adjusted p-values equal
    statsmodels' Holm, and reject = adjusted p < α."""
    df = cv_table(seed, {"gbm": 0.01, "rf": 0.008, "logreg": -0.01, "knn": 0.0}, noise=0.015)
    result = fe.compare_learners(df, "accuracy")
    assert result.procedure == "corrected_t"
    ph = result.post_hoc
    hand = _hand(df, 1 / 9)
    assert ph.select("a", "b").rows() == hand.select("a", "b").rows()
    for column in ("difference", "statistic", "p_value", "p_adjusted"):
        np.testing.assert_allclose(ph[column].to_numpy(), hand[column].to_numpy(), rtol=1e-9)
    assert ph["reject"].to_list() == (hand["p_adjusted"] < 0.05).to_list()
    assert set(ph["test"]) == {"corrected_t"}
    assert result.design["test_train_ratio"][0] == pytest.approx(1 / 9)
    # the ratio can be overridden
    other = fe.compare_learners(df, "accuracy", test_train_ratio=0.25)
    np.testing.assert_allclose(
        other.post_hoc["p_value"].to_numpy(), _hand(df, 0.25)["p_value"].to_numpy(), rtol=1e-9
    )


def test_verdict_names_the_best_and_the_worse_learner() -> None:
    df = cv_table(0, {"gbm": 0.03, "rf": 0.025, "logreg": -0.10})
    result = fe.compare_learners(df, "accuracy", learner="model")
    assert result.ranks.filter(pl.col("position") == 1)["learner"][0] == "gbm"
    assert result.verdict.startswith("gbm has the best mean accuracy")
    assert "logreg is significantly worse than gbm" in result.verdict
    assert "logreg is significantly worse than rf" in result.verdict
    assert "No other pair differs significantly" in result.verdict
    assert "Holm" in result.verdict and "Nadeau–Bengio" in result.verdict
    rejected = result.post_hoc.filter(pl.col("reject"))
    assert sorted(rejected["better"].to_list()) == ["gbm", "rf"]
    assert result.cliques.group_by("clique").agg(pl.col("learner").sort()).sort("clique")[
        "learner"
    ].to_list() == [["gbm", "rf"], ["logreg"]]
    # Cohen's d_z and Cliff's δ of every pair's splits
    assert result.post_hoc["cohen_d"].null_count() == 0
    assert result.post_hoc["cliff_delta"].null_count() == 0


def test_block_fold_is_never_a_silent_friedman() -> None:
    """block='fold' on one data set switches to the corrected test and says why; a forced
    Friedman test over the folds runs but its verdict says the folds are not independent."""
    df = cv_table(3, {"A": 0.02, "B": 0.0, "C": -0.01}, repeats=1)
    switched = fe.compare_learners(df.drop("repeat"), "accuracy", block="fold")
    assert switched.procedure == "corrected_t"
    assert "block='fold' names the folds of one data set" in switched.verdict
    forced = fe.compare_learners(df.drop("repeat"), "accuracy", block="fold", procedure="friedman")
    assert forced.procedure == "friedman"
    assert "not independent" in forced.verdict
    assert "corrected" in forced.verdict


def test_rope_is_the_bayesian_correlated_t_of_baycomp() -> None:
    df = cv_table(4, {"A": 0.01, "B": 0.0, "C": -0.005}, repeats=2, folds=5)
    result = fe.compare_learners(df, "accuracy", rope=0.005)
    assert result.procedure == "bayes_correlated_t"
    wide = df.pivot(on="model", index=["repeat", "fold"], values="accuracy").sort("repeat", "fold")
    for row in result.post_hoc.iter_rows(named=True):
        x, y = wide[row["a"]].to_numpy(), wide[row["b"]].to_numpy()
        left, inside, right = CorrelatedTTest.probs(x, y, rope=0.005, runs=2)
        got = (row["p_a_better"], row["p_rope"], row["p_b_better"])
        np.testing.assert_allclose(got, (left, inside, right), atol=1e-9)
        sure = max(row["p_a_better"], row["p_b_better"]) >= 0.95
        assert row["reject"] == sure
    assert "Bayesian correlated t test" in result.verdict


def test_5x2cv_design_uses_the_combined_f_test_with_holm() -> None:
    df = cv_table(5, {"A": 0.03, "B": 0.0, "C": 0.0}, repeats=5, folds=2)
    result = fe.compare_learners(df, "accuracy")
    assert result.procedure == "cv5x2_f"
    parts = [
        fe.compare.cv5x2_f_test(df, "accuracy", a=a, b=b, learner="model")
        for a, b in [("A", "B"), ("A", "C"), ("B", "C")]
    ]
    raw = pl.concat(parts)["p_value"].to_numpy()
    np.testing.assert_allclose(result.post_hoc["p_value"].to_numpy(), raw, rtol=1e-12)
    holm = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(result.post_hoc["p_adjusted"].to_numpy(), holm, rtol=1e-12)


def test_several_datasets_over_means_plus_split_level_per_dataset() -> None:
    parts = [
        cv_table(10 + i, {"A": 0.02 + 0.01 * i, "B": 0.0, "C": -0.01}, repeats=2, dataset=f"d{i}")
        for i in range(6)
    ]
    df = pl.concat(parts)
    result = fe.compare_learners(df, "accuracy")
    means = df.group_by("dataset", "model").agg(pl.col("accuracy").mean())
    over = fe.compare_learners(means, "accuracy")
    assert result.procedure == over.procedure
    assert result.post_hoc.equals(over.post_hoc)
    per = result.per_data_set
    assert per is not None and per.by == ("dataset",)
    assert set(per.design["procedure"]) == {"corrected_t"}
    one = fe.compare_learners(parts[2].drop("dataset"), "accuracy")
    mine = per.post_hoc.filter(pl.col("dataset") == "d2").drop("dataset")
    np.testing.assert_allclose(mine["p_adjusted"].to_numpy(), one.post_hoc["p_adjusted"])
    assert "Per dataset, on its own splits" in result.verdict
    assert all(f"d{i}: " in result.verdict for i in range(6))
    assert "dataset=d2: " in per.verdict


def test_bad_designs_raise_typed_errors() -> None:
    df = cv_table(6, {"A": 0.0, "B": 0.0}, repeats=2, folds=4)
    gap = df.filter(~((pl.col("model") == "A") & (pl.col("fold") == 0) & (pl.col("repeat") == 0)))
    left = fe.compare_learners(gap, "accuracy")  # the incomplete split is left out
    assert left.design.select("n_blocks", "n_dropped", "n_folds").row(0) == (7, 1, 4)
    assert "1 incomplete split (a learner without a value) is left out" in left.verdict
    complete = gap.filter(~((pl.col("fold") == 0) & (pl.col("repeat") == 0)))
    np.testing.assert_allclose(
        left.post_hoc["p_value"].to_numpy(), _hand(complete, 1 / 3)["p_value"].to_numpy()
    )
    uneven = df.filter(~((pl.col("repeat") == 1) & (pl.col("fold") == 3)))
    with pytest.raises(InvalidParameterError, match="test_train_ratio="):
        fe.compare_learners(uneven, "accuracy")
    assert fe.compare_learners(uneven, "accuracy", test_train_ratio=1 / 3).procedure == (
        "corrected_t"
    )
    with pytest.raises(InvalidParameterError, match="adjust must be"):
        fe.compare_learners(df, "accuracy", adjust="bonferroni")  # type: ignore[arg-type]


def test_grouped_equals_per_group_and_lazy_equals_eager() -> None:
    a = cv_table(7, {"A": 0.01, "B": 0.0, "C": -0.01}).with_columns(pl.lit("x").alias("g"))
    b = cv_table(8, {"A": 0.0, "B": 0.0, "C": 0.02}).with_columns(pl.lit("y").alias("g"))
    both = pl.concat([a, b]).sample(fraction=1.0, shuffle=True, seed=1)
    grouped = fe.compare_learners(both.lazy(), "accuracy", by="g")
    for name, part in (("x", a), ("y", b)):
        single = fe.compare_learners(part.drop("g"), "accuracy")
        mine = grouped.post_hoc.filter(pl.col("g") == name).drop("g")
        np.testing.assert_allclose(mine["p_adjusted"], single.post_hoc["p_adjusted"], rtol=1e-12)
        assert f"g={name}: {single.verdict}" in grouped.verdict


# ---------------------------------------------------------------------------------------------
# type I error over null tables with correlated splits
# ---------------------------------------------------------------------------------------------
def null_tables(n_tables: int, repeats: int, folds: int, seed: int) -> pl.DataFrame:
    """``table, model, repeat, fold, accuracy`` of ``n_tables`` null studies (three learners
    that perform the same): each learner's split values carry a per-(table, learner) error
    shared by all its splits (variance 0.05: the data set is the same in every repeat), one per
    (table, learner, repeat) shared by the folds of a repeat (variance 0.05: they share
    training data) and fold noise (0.9): splits of a repeat correlate by 0.1 = 1/k, splits of
    different repeats by 0.05 — the dependence of cross-validation's splits."""
    rng = np.random.default_rng(seed)
    shape = (n_tables, 3, repeats, folds)
    value = (
        np.sqrt(0.05) * rng.standard_normal((n_tables, 3, 1, 1))
        + np.sqrt(0.05) * rng.standard_normal((n_tables, 3, repeats, 1))
        + np.sqrt(0.9) * rng.standard_normal(shape)
    )
    t, m, r, f = np.meshgrid(
        np.arange(n_tables), np.arange(3), np.arange(repeats), np.arange(folds), indexing="ij"
    )
    return pl.DataFrame(
        {
            "table": t.ravel(),
            "model": np.array(["A", "B", "C"])[m.ravel()],
            "repeat": r.ravel(),
            "fold": f.ravel(),
            "accuracy": 0.8 + 0.01 * value.ravel(),
        }
    )


def test_chosen_procedure_holds_its_level_where_the_naive_t_does_not() -> None:
    """400 null tables of 3 learners × 3 repeats × 10 folds: the family-wise error of
    compare_learners (corrected t, Holm) stays ≤ α + 0.03, the naive paired t test over the
    30 splits of one pair rejects far more often than α (measured: see docs/compare-learners.md)."""
    alpha = 0.05
    df = null_tables(400, repeats=3, folds=10, seed=2026)
    result = fe.compare_learners(df, "accuracy", by="table", alpha=alpha)
    assert set(result.design["procedure"]) == {"corrected_t"}
    family = result.post_hoc.group_by("table").agg(pl.col("reject").any())["reject"].mean()
    split = df.with_columns(pl.format("{}/{}", "repeat", "fold").alias("split"))
    naive = fe.paired_t_test(
        split, "accuracy", a="A", b="B", learner="model", block="split", by="table"
    )["reject"].mean()
    corrected_one = result.post_hoc.filter((pl.col("a") == "A") & (pl.col("b") == "B"))
    one = (corrected_one["p_value"] < alpha).mean()
    assert family <= alpha + 0.03
    assert one <= alpha + 0.03
    assert naive > 3 * alpha


def test_results_table_marks_cells_by_the_split_level_test_of_each_data_set() -> None:
    """level='splits': a cell is marked † when its learner is worse than the row's best by the
    corrected test on that data set's folds — here C on d0 only (C is far behind on d0 and
    level with the others on d1), whatever the test over data sets says."""
    d0 = cv_table(20, {"A": 0.02, "B": 0.019, "C": -0.08}, repeats=2, dataset="d0")
    d1 = cv_table(21, {"A": 0.0, "B": 0.0, "C": 0.0}, repeats=2, dataset="d1")
    df = pl.concat([d0, d1])
    result = fe.compare_learners(df, "accuracy")
    per = result.per_data_set
    assert per is not None
    worse = per.post_hoc.filter(pl.col("reject"))
    assert worse.select("dataset", "a", "b").rows() == [("d0", "A", "C"), ("d0", "B", "C")]
    table = fe.results_table(df, "accuracy", significance=result, level="splits", format="markdown")
    lines = {line.split(" | ")[0].strip("| "): line for line in str(table).splitlines()}
    assert lines["d0"].count("†") == 1 and lines["d0"].rstrip(" |").endswith("†")
    assert "†" not in lines["d1"]
    assert "Nadeau–Bengio corrected resampled t test of every pair on the row's splits" in str(
        table
    )
    with pytest.raises(InvalidParameterError, match="level='splits' needs significance="):
        fe.results_table(df, "accuracy", level="splits")


def test_single_holdout_with_instances_is_mcnemar_of_every_pair_with_holm() -> None:
    """One hold-out split, one row per learner × test instance with a 0/1 correctness: every
    pair by McNemar's test (fe.mcnemar on truth = 1, pred = correct), Holm over the pairs."""
    rng = np.random.default_rng(9)
    n = 200
    skill = {"A": 0.9, "B": 0.85, "C": 0.6}
    df = pl.DataFrame(
        {
            "model": np.repeat(list(skill), n),
            "instance": np.tile(np.arange(n), 3),
            "correct": np.concatenate(
                [(rng.random(n) < p).astype(np.int64) for p in skill.values()]
            ),
        }
    )
    result = fe.compare_learners(df, "correct")
    assert result.procedure == "mcnemar"
    oracle = df.with_columns(pl.lit(1).alias("truth"))
    raw = [
        fe.mcnemar(oracle, "truth", "correct", a=a, b=b, learner="model")["p_value"][0]
        for a, b in [("A", "B"), ("A", "C"), ("B", "C")]
    ]
    np.testing.assert_allclose(result.post_hoc["p_value"].to_numpy(), raw, rtol=1e-12)
    np.testing.assert_allclose(
        result.post_hoc["p_adjusted"].to_numpy(), multipletests(raw, method="holm")[1]
    )
    assert "C is significantly worse than A" in result.verdict
    assert "McNemar test" in result.verdict
    with pytest.raises(fe.exceptions.InvalidValueError, match="must be 0 or 1"):
        fe.compare_learners(df.with_columns(pl.col("correct") * 2), "correct")


def test_shaffer_adjustment_of_three_learners() -> None:
    """Shaffer's static procedure for k = 3 (S(3) = {0, 1, 3}): t = 3, 1, 1 along the ordered
    raw p-values, then the running maximum (Shaffer 1986; García & Herrera 2008)."""
    df = cv_table(30, {"A": 0.01, "B": 0.0, "C": -0.012}, noise=0.015)
    result = fe.compare_learners(df, "accuracy", adjust="shaffer")
    raw = result.post_hoc["p_value"].to_numpy()
    order = np.argsort(raw)
    scaled = np.minimum(np.array([3.0, 1.0, 1.0]) * raw[order], 1.0)
    expected = np.empty(3)
    expected[order] = np.maximum.accumulate(scaled)
    np.testing.assert_allclose(result.post_hoc["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    assert "Shaffer's adjustment" in result.verdict


def test_chart_of_a_split_level_comparison_is_a_typed_error() -> None:
    result = fe.compare_learners(cv_table(0, {"A": 0.01, "B": 0.0}), "accuracy")
    with pytest.raises(fe.exceptions.InsufficientDataError, match=r"Comparison.chart\(\)"):
        result.chart()


def test_results_table_marks_come_from_the_test_each_rows_verdict_cites() -> None:
    """Issue 32: the default (level='auto') marks a data set with splits by its own
    split-level test — the one compare_learners' per-data-set verdict cites — not by the
    across-data-sets post-hoc. Here the two disagree: over the data sets' means no pair
    differs (Nemenyi), while on d0's folds the corrected t test finds C worse than A and B.
    The marks of every row equal the cited test's decisions against the row's best."""
    offsets = [
        {"A": 0.02, "B": 0.019, "C": -0.08},
        {"A": 0.0, "B": 0.0, "C": 0.001},
        {"A": -0.001, "B": 0.0, "C": 0.002},
        {"A": 0.0, "B": 0.001, "C": 0.0},
    ]
    df = pl.concat(cv_table(30 + i, o, repeats=2, dataset=f"d{i}") for i, o in enumerate(offsets))
    result = fe.compare_learners(df, "accuracy")
    per = result.per_data_set
    assert per is not None
    assert not result.post_hoc["reject"].any()  # over the data sets: no pair differs
    assert per.post_hoc["reject"].any()  # on d0's folds: C is worse
    table = str(fe.results_table(df, "accuracy", significance=result, format="markdown"))
    means = df.group_by("dataset", "model").agg(pl.col("accuracy").mean())
    rows = {line.split(" | ")[0].strip("| "): line for line in table.splitlines()}
    header = [c.strip() for c in table.splitlines()[0].strip("|").split("|")][1:]
    for name in ("d0", "d1", "d2", "d3"):
        best = means.filter(pl.col("dataset") == name).sort("accuracy", descending=True)["model"][0]
        decided = per.post_hoc.filter((pl.col("dataset") == name) & pl.col("reject"))
        expected = {
            r["b"] if r["better"] == r["a"] else r["a"]
            for r in decided.iter_rows(named=True)
            if r["better"] == best
        }
        cells = [c.strip() for c in rows[name].strip("|").split("|")][1:]
        marked = {learner for learner, cell in zip(header, cells, strict=True) if "†" in cell}
        assert marked == expected, (name, marked, expected)
    assert rows["d0"].count("†") == 1
    assert "Nadeau–Bengio corrected resampled t test of every pair on the row's splits" in table
    blocks = str(
        fe.results_table(df, "accuracy", significance=result, level="blocks", format="markdown")
    )
    assert "†" not in blocks.split("\n\n")[0]  # the test over data sets: no mark anywhere
    assert "over all data sets" in blocks
