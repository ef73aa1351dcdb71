"""Properties shared by every comparison test, parametrised over a registry of calls: the
output contract (DESIGN §4), lazy in → lazy out without computing anything when the plan is
built, lazy = eager = pandas, row-order invariance, and grouped = each group alone.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest

import frameeval as fe
from tests.compare._tables import assert_frames_close, shuffled


def metric_frame(seed: int = 0) -> pl.DataFrame:
    """Two groups × 12 blocks × 3 learners × 5 repeats × 2 folds of an error rate."""
    rng = np.random.default_rng(seed)
    rows = [
        (g, f"d{blk}", learner, r, f, float(rng.integers(0, 40)) / 100 + shift)
        for g in (1, 2)
        for blk in range(12)
        for learner, shift in (("A", 0.0), ("B", 0.05), ("C", 0.1))
        for r in range(1, 6)
        for f in (1, 2)
    ]
    df = pl.DataFrame(
        rows, schema=["g", "block", "learner", "repeat", "fold", "error_rate"], orient="row"
    )
    # one value per block × learner for the rank-based tests, one per (repeat, fold) otherwise
    return df


def by_block(df: pl.DataFrame) -> pl.DataFrame:
    return df.filter((pl.col("repeat") == 1) & (pl.col("fold") == 1))


def by_fold(df: pl.DataFrame) -> pl.DataFrame:
    return df.filter(pl.col("block") == "d0").with_columns(
        (pl.col("repeat") * 10 + pl.col("fold")).alias("split")
    )


def predictions(seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for g in (1, 2):
        truth = rng.integers(0, 2, size=40)
        for learner, skill in (("A", 0.9), ("B", 0.6)):
            right = rng.uniform(size=40) < skill
            pred = np.where(right, truth, 1 - truth)
            rows += [
                (g, i, learner, int(t), int(p))
                for i, (t, p) in enumerate(zip(truth, pred, strict=True))
            ]
    return pl.DataFrame(rows, schema=["g", "instance", "learner", "y", "p"], orient="row")


@dataclass
class Case:
    name: str
    data: Callable[[], pl.DataFrame]
    call: Callable[..., object]
    keys: tuple[str, ...]  # the output's sort keys after by=
    two_learners: bool = False
    test: bool = True  # returns the test columns


CASES = [
    Case(
        "binomial_test",
        lambda: predictions(),
        lambda d, by: fe.binomial_test(d, truth="y", pred="p", eps0=0.3, by=by),
        (),
    ),
    Case(
        "t_test",
        lambda: by_fold(metric_frame()).filter(pl.col("learner") == "A"),
        lambda d, by: fe.t_test(d, "error_rate", eps0=0.2, by=by),
        (),
    ),
    Case(
        "paired_t_test",
        lambda: by_fold(metric_frame()),
        lambda d, by: fe.paired_t_test(d, "error_rate", a="A", b="B", block="split", by=by),
        (),
        two_learners=True,
    ),
    Case(
        "cv5x2_t_test",
        lambda: metric_frame().filter(pl.col("block") == "d3"),
        lambda d, by: fe.cv5x2_t_test(d, "error_rate", a="B", b="A", by=by),
        (),
        two_learners=True,
    ),
    Case(
        "mcnemar",
        lambda: predictions(),
        lambda d, by: fe.mcnemar(d, "y", "p", a="A", b="B", by=by),
        (),
        two_learners=True,
    ),
    Case(
        "mcnemar_exact",
        lambda: predictions(),
        lambda d, by: fe.mcnemar(d, "y", "p", a="A", b="B", by=by, exact=True),
        (),
        two_learners=True,
    ),
    Case(
        "contingency_table",
        lambda: predictions(),
        lambda d, by: fe.contingency_table(d, "y", "p", a="A", b="B", by=by),
        ("cell",),
        test=False,
    ),
    Case(
        "wilcoxon",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.wilcoxon(d, "error_rate", by=by, adjust="holm"),
        ("a", "b"),
        two_learners=True,
    ),
    Case(
        "rank_table",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.rank_table(d, "error_rate", by=by),
        ("block", "learner"),
        test=False,
    ),
    Case(
        "average_ranks",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.average_ranks(d, "error_rate", by=by),
        ("learner",),
        test=False,
    ),
    Case(
        "friedman",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.friedman(d, "error_rate", by=by),
        (),
    ),
    Case(
        "nemenyi",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.nemenyi(d, "error_rate", by=by),
        ("a", "b"),
        two_learners=True,
    ),
    Case(
        "bonferroni_dunn",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.bonferroni_dunn(d, "error_rate", control="B", by=by),
        ("a", "b"),
        two_learners=True,
    ),
    Case(
        "skillings_mack",
        lambda: by_block(metric_frame()).filter(
            ~((pl.col("block") == "d3") & (pl.col("learner") == "C"))
        ),
        lambda d, by: fe.skillings_mack(d, "error_rate", by=by),
        (),
    ),
    Case(
        "friedman_aligned_ranks",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.friedman_aligned_ranks(d, "error_rate", by=by),
        (),
    ),
    Case(
        "quade",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.quade(d, "error_rate", by=by),
        (),
    ),
    Case(
        "shaffer",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.shaffer(d, "error_rate", by=by),
        ("a", "b"),
        test=False,
    ),
    Case(
        "bergmann_hommel",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.bergmann_hommel(d, "error_rate", by=by, test="quade"),
        ("a", "b"),
        test=False,
    ),
    Case(
        "rank_post_hoc_skillings_mack",
        lambda: by_block(metric_frame()).filter(
            ~((pl.col("block") == "d3") & (pl.col("learner") == "C"))
        ),
        lambda d, by: fe.rank_post_hoc(d, "error_rate", test="skillings_mack", by=by),
        ("a", "b"),
        test=False,
    ),
    Case(
        "corrected_resampled_t_test",
        lambda: by_fold(metric_frame()),
        lambda d, by: fe.compare.corrected_resampled_t_test(
            d, "error_rate", a="A", b="C", block="split", n_train=9, n_test=1, by=by
        ),
        (),
        two_learners=True,
    ),
    Case(
        "cv5x2_f_test",
        lambda: metric_frame().filter(pl.col("block") == "d5"),
        lambda d, by: fe.compare.cv5x2_f_test(d, "error_rate", a="A", b="B", by=by),
        (),
        two_learners=True,
    ),
    Case(
        "bayes_correlated_t",
        lambda: by_fold(metric_frame()),
        lambda d, by: fe.bayes_correlated_t(
            d, "error_rate", fold="fold", repeat="repeat", rope=0.01, by=by
        ),
        ("a", "b"),
        test=False,
    ),
    Case(
        "bayes_signed_rank",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.bayes_signed_rank(d, "error_rate", rope=0.01, n_samples=500, by=by),
        ("a", "b"),
        test=False,
    ),
    Case(
        "comparison_matrix",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.comparison_matrix(d, "error_rate", by=by),
        ("a", "b"),
        test=False,
    ),
    Case(
        "effect_size",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.effect_size(d, "error_rate", by=by),
        ("a", "b"),
        test=False,
    ),
    Case(
        "cliques",
        lambda: by_block(metric_frame()),
        lambda d, by: fe.cliques(fe.rank_post_hoc(d, "error_rate", by=by, adjust=None), by=by),
        ("clique", "average_rank", "learner"),
        test=False,
    ),
]
IDS = [c.name for c in CASES]


def run(case: Case, data, by):
    with warnings.catch_warnings(action="ignore"):
        out = case.call(data, by)
        return out.collect() if isinstance(out, pl.LazyFrame) else out


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_output_contract(case):
    out = run(case, case.data(), "g")
    assert out.columns[0] == "g"
    assert out.sort(["g", *case.keys]).equals(out)
    if case.test:
        for column in ("statistic", "p_value", "critical_value", "alpha", "reject"):
            assert column in out.columns, column
        # degrees of freedom where the distribution has them; the sample size otherwise
        assert any(c in out.columns for c in ("df", "df1", "m", "n_blocks"))
        assert out.schema["reject"] == pl.Boolean and out.schema["p_value"] == pl.Float64
        assert out["alpha"].unique().to_list() == [0.05]
        assert ((out["p_value"] >= 0) & (out["p_value"] <= 1)).all()
    if case.two_learners and "average_rank_a" not in out.columns:
        # a test of two learners' paired values ends with their effect sizes (issue 17)
        assert out.columns[-3:] == ["mean_difference", "cohen_d", "cliff_delta"] or (
            out.columns[-4:] == ["mean_difference", "cohen_d", "cliff_delta", "rank_biserial"]
        )
    if case.two_learners:
        assert {"a", "b", "better"} <= set(out.columns)
        better = out.filter(pl.col("better").is_not_null())
        assert better["reject"].all()
        assert ((better["better"] == better["a"]) | (better["better"] == better["b"])).all()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_lazy_in_lazy_out_computes_nothing_until_collected(case):
    df = case.data()

    def boom(series: pl.Series, **_: object) -> pl.Series:
        raise RuntimeError("the plan was executed")

    # a filter cannot be pruned from the plan: collecting anything runs it
    poisoned = df.lazy().filter(pl.col("g").map_batches(boom, return_dtype=pl.Boolean))
    lazy = case.call(poisoned, "g")  # building the plan must not run it
    assert isinstance(lazy, pl.LazyFrame)
    with pytest.raises(Exception, match="the plan was executed"):
        lazy.collect()
    eager = run(case, df, "g")
    assert_frames_close(run(case, df.lazy(), "g"), eager)
    assert_frames_close(run(case, df.to_pandas(), "g"), eager)
    assert_frames_close(run(case, shuffled(df, 11), "g"), eager)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_grouped_equals_each_group_alone(case):
    df = case.data()
    grouped = run(case, df, "g")
    for g in (1, 2):
        alone = run(case, df.filter(pl.col("g") == g).drop("g"), None)
        assert_frames_close(grouped.filter(pl.col("g") == g).drop("g"), alone)


def test_every_many_learner_test_takes_one_long_frame_with_one_comparison_per_metric():
    """Issue 17: the same long frame ``metric, block, learner, value`` (two metrics stacked)
    goes to every test over blocks, one comparison per metric via ``by="metric"``; each
    metric's rows equal the test on that metric alone."""
    wide = by_block(metric_frame()).filter(pl.col("g") == 1)
    long = pl.concat(
        [
            wide.select("block", "learner", pl.lit("error").alias("metric"), "error_rate"),
            wide.select(
                "block",
                "learner",
                pl.lit("squared").alias("metric"),
                (pl.col("error_rate") ** 2).alias("error_rate"),
            ),
        ]
    ).rename({"error_rate": "value"})
    kw = dict(higher_is_better=False)
    calls = {
        "wilcoxon": lambda d, by: fe.wilcoxon(d, "value", by=by, adjust="holm", **kw),
        "friedman": lambda d, by: fe.friedman(d, "value", by=by, **kw),
        "nemenyi": lambda d, by: fe.nemenyi(d, "value", by=by, **kw),
        "bonferroni_dunn": lambda d, by: fe.bonferroni_dunn(d, "value", control="A", by=by, **kw),
        "skillings_mack": lambda d, by: fe.skillings_mack(d, "value", by=by, **kw),
        "friedman_aligned_ranks": lambda d, by: fe.friedman_aligned_ranks(d, "value", by=by, **kw),
        "quade": lambda d, by: fe.quade(d, "value", by=by, **kw),
        "rank_post_hoc": lambda d, by: fe.rank_post_hoc(d, "value", by=by, **kw),
        "shaffer": lambda d, by: fe.shaffer(d, "value", by=by, **kw),
        "bergmann_hommel": lambda d, by: fe.bergmann_hommel(d, "value", by=by, **kw),
        "comparison_matrix": lambda d, by: fe.comparison_matrix(d, "value", by=by, **kw),
        "effect_size": lambda d, by: fe.effect_size(d, "value", by=by),
        "bayes_signed_rank": lambda d, by: fe.bayes_signed_rank(
            d, "value", rope=0.01, n_samples=500, by=by, **kw
        ),
        "bayes_correlated_t": lambda d, by: fe.bayes_correlated_t(
            d, "value", fold="block", rope=0.01, by=by, **kw
        ),
    }
    for name, call in calls.items():
        with warnings.catch_warnings(action="ignore"):
            together = call(long, "metric")
            assert together.columns[0] == "metric", name
            for metric in ("error", "squared"):
                alone = call(long.filter(pl.col("metric") == metric).drop("metric"), None)
                mine = together.filter(pl.col("metric") == metric).drop("metric")
                assert_frames_close(mine, alone)


def test_every_test_over_blocks_infers_block_and_learner_from_common_names():
    """DESIGN §4: ``block=``/``learner=`` default to None, inferred from common column names —
    the same for the chapter's tests and issue 17's (a frame with ``dataset``, ``model``)."""
    named = by_block(metric_frame()).filter(pl.col("g") == 1)
    renamed = named.rename({"block": "dataset", "learner": "model"}).drop("repeat", "fold")
    kw = dict(higher_is_better=False)
    calls = {
        "friedman": lambda d, **r: fe.friedman(d, "error_rate", **r, **kw),
        "wilcoxon": lambda d, **r: fe.wilcoxon(d, "error_rate", **r, **kw),
        "skillings_mack": lambda d, **r: fe.skillings_mack(d, "error_rate", **r, **kw),
        "friedman_aligned_ranks": lambda d, **r: fe.friedman_aligned_ranks(
            d, "error_rate", **r, **kw
        ),
        "quade": lambda d, **r: fe.quade(d, "error_rate", **r, **kw),
        "rank_post_hoc": lambda d, **r: fe.rank_post_hoc(d, "error_rate", **r, **kw),
        "shaffer": lambda d, **r: fe.shaffer(d, "error_rate", **r, **kw),
        "bergmann_hommel": lambda d, **r: fe.bergmann_hommel(d, "error_rate", **r, **kw),
        "comparison_matrix": lambda d, **r: fe.comparison_matrix(d, "error_rate", **r, **kw),
        "effect_size": lambda d, **r: fe.effect_size(d, "error_rate", **r),
        "bayes_signed_rank": lambda d, **r: fe.bayes_signed_rank(
            d, "error_rate", rope=0.01, n_samples=200, **r, **kw
        ),
    }
    for name, call in calls.items():
        with warnings.catch_warnings(action="ignore"):
            inferred = call(renamed)
            explicit = call(named, block="block", learner="learner")
        assert inferred.height == explicit.height > 0, name
        assert_frames_close(inferred, explicit)
    folds = by_fold(metric_frame()).filter(pl.col("g") == 1).drop("block", "split")
    with warnings.catch_warnings(action="ignore"):
        inferred = fe.bayes_correlated_t(
            folds.rename({"learner": "model"}), "error_rate", rope=0.01, **kw
        )
        explicit = fe.bayes_correlated_t(
            folds, "error_rate", rope=0.01, learner="learner", fold="fold", repeat="repeat", **kw
        )
    assert_frames_close(inferred, explicit)
