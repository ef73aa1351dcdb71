"""What the parts of :func:`frameeval.compare.compare_learners` share: the names and output
schemas of the tests, the collected arguments (:class:`Context`), and two small frame helpers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import polars as pl

from frameeval.compare.precision import RANK_DIGITS
from frameeval.compare.results import OMNIBUS_SCHEMA, POST_HOC_SCHEMA, reject

__all__ = [
    "FUNC",
    "MEAN_BASED",
    "N_SAMPLES",
    "OMNIBUS_SCHEMA",
    "POST_HOC_SCHEMA",
    "PAIR_PROCEDURES",
    "SPLIT_PROCEDURES",
    "TEST_NAMES",
    "procedure_words",
    "VALUE",
    "Context",
    "Procedure",
    "semi",
    "sort",
]


Procedure = Literal[
    "auto",
    "t",
    "wilcoxon",
    "anova",
    "friedman",
    "skillings_mack",
    "bayes_signed_rank",
    "corrected_t",
    "cv5x2_f",
    "cv5x2_t",
    "bayes_correlated_t",
]

#: the procedures of one data set's splits (folds, repeats): every pair by a test that allows
#: for the overlap of the training sets (frameeval.compare.auto.splits)
SPLIT_PROCEDURES = ("corrected_t", "cv5x2_f", "cv5x2_t", "bayes_correlated_t")
#: a single hold-out split with an instance column: McNemar's test of every pair
PAIR_PROCEDURES = (*SPLIT_PROCEDURES, "mcnemar")

#: posterior samples of the Bayesian signed-rank test
N_SAMPLES = 50_000

VALUE = "__value"
FUNC = "compare_learners"


#: the names of the tests in the ``test`` columns, and how the verdict writes them
def procedure_words(procedure: str) -> str:
    """A procedure of :func:`frameeval.compare_learners` (the ``procedure`` column of its
    design) in words, for titles and sentences."""
    words = {
        "friedman": "Friedman test with Nemenyi's post-hoc test",
        "anova": "repeated-measures ANOVA with Tukey's HSD",
        "t": "paired t test",
        "wilcoxon": "Wilcoxon signed-rank test",
        "skillings_mack": "Skillings–Mack test",
        "bayes_signed_rank": "Bayesian signed-rank test",
    }
    return words.get(procedure, TEST_NAMES.get(procedure, procedure))


TEST_NAMES = {
    "paired_t": "paired t test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "rm_anova": "repeated-measures ANOVA",
    "tukey_hsd": "Tukey HSD",
    "friedman_iman_davenport": "Friedman test (Iman–Davenport F form)",
    "nemenyi": "Nemenyi test",
    "skillings_mack": "Skillings–Mack test",
    "skillings_mack_holm": "Skillings–Mack z tests with Holm's correction",
    "bayes_signed_rank": "Bayesian signed-rank test",
    "corrected_t": "Nadeau–Bengio corrected resampled t test",
    "cv5x2_f": "combined 5×2cv F test (Alpaydin)",
    "cv5x2_t": "5×2cv t test (Dietterich)",
    "bayes_correlated_t": "Bayesian correlated t test",
    "mcnemar": "McNemar test",
}

MEAN_BASED = {"t", "anova", *PAIR_PROCEDURES}


@dataclass(frozen=True)
class Context:
    keys: list[str]
    block: str
    learner: str
    metric: str
    hib: bool
    alpha: float
    rope: float | None
    seed: int
    #: significant digits of the values the rank procedures rank (``digits=``)
    digits: int | None = RANK_DIGITS


def semi(frame: pl.DataFrame, groups: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    if not keys:
        return frame
    return frame.join(groups, on=keys, how="semi", nulls_equal=True)


def sort(frame: pl.DataFrame, keys: list[str], *more: str) -> pl.DataFrame:
    order = [*keys, *more]
    return frame.sort(order, nulls_last=True) if order and frame.height else frame


def posterior_decision(out: pl.DataFrame, test: str, alpha: float) -> pl.DataFrame:
    """A Bayesian post-hoc table (``p_a_better``, ``p_b_better``, ``mean_difference``) in the
    post-hoc columns: ``reject`` where a region's posterior probability is ≥ 1 − α (autorank's
    rule, not a p-value) and ``better`` the learner that region favours."""
    sure = 1.0 - alpha
    return out.with_columns(
        pl.lit(test).alias("test"),
        pl.col("mean_difference").alias("difference"),
        pl.lit(alpha).alias("alpha"),
        reject("posterior", alpha),
    ).with_columns(
        pl.when(pl.col("p_a_better") >= sure)
        .then(pl.col("a"))
        .when(pl.col("p_b_better") >= sure)
        .then(pl.col("b"))
        .alias("better")
    )
