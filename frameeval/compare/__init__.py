"""Comparison tests (chapter 2.4) on long result frames.

Which test when (see ``docs/compare.md``):

* one learner against a hypothesis about its error rate — :func:`binomial_test` (one test set),
  :func:`t_test` (k test error rates); :func:`binomial_distribution` draws figure 2.6;
* two learners on one data set — :func:`paired_t_test` (k-fold), :func:`cv5x2_t_test` (5×2cv),
  :func:`mcnemar` / :func:`contingency_table` (predictions on one test set);
* two learners over many data sets — :func:`wilcoxon` (with :func:`holm` for many pairs);
* many learners over many data sets — :func:`rank_table`, :func:`average_ranks`,
  :func:`friedman`, then :func:`nemenyi` (all pairs) or :func:`bonferroni_dunn` (against a
  control); :func:`nemenyi_q` and :func:`bonferroni_dunn_q` give their q_α.

Every test returns a tidy frame with ``statistic``, its degrees of freedom (``df`` or
``df1``/``df2`` where they exist), ``p_value``, ``critical_value``, ``alpha`` and ``reject``; the
two-learner tests add ``a``, ``b`` (differences are a − b) and ``better``. Test statistics are
aggregated with Polars; scipy's distributions are applied in one vectorised call over the small
statistics frame, inside the lazy plan — a LazyFrame in gives a LazyFrame out, and scipy runs
when it is collected. Critical values come from the distributions, never from copied tables.
"""

from frameeval.compare.auto import Comparison, compare_learners
from frameeval.compare.mcnemar import contingency_table, mcnemar
from frameeval.compare.one_learner import binomial_distribution, binomial_test, t_test
from frameeval.compare.post_hoc import (
    bonferroni_dunn,
    bonferroni_dunn_q,
    holm,
    nemenyi,
    nemenyi_q,
)
from frameeval.compare.ranks import average_ranks, friedman, rank_table
from frameeval.compare.table import results_table
from frameeval.compare.two_learners import cv5x2_t_test, paired_t_test, wilcoxon

# the resampling-corrected two-learner tests (issue 10) sit next to the others
from frameeval.uncertainty import corrected_resampled_t_test, cv5x2_f_test

__all__ = [
    "Comparison",
    "compare_learners",
    "average_ranks",
    "binomial_distribution",
    "binomial_test",
    "bonferroni_dunn",
    "bonferroni_dunn_q",
    "contingency_table",
    "corrected_resampled_t_test",
    "cv5x2_f_test",
    "cv5x2_t_test",
    "friedman",
    "holm",
    "mcnemar",
    "nemenyi",
    "nemenyi_q",
    "paired_t_test",
    "rank_table",
    "results_table",
    "t_test",
    "wilcoxon",
]
