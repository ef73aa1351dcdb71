"""Comparison tests (chapter 2.4) on long result frames.

Which test when (see ``docs/compare.md``):

* one learner against a hypothesis about its error rate — :func:`binomial_test` (one test set),
  :func:`t_test` (k test error rates); :func:`binomial_distribution` draws figure 2.6;
* two learners on one data set — :func:`paired_t_test` (k-fold), :func:`cv5x2_t_test` (5×2cv),
  :func:`mcnemar` / :func:`contingency_table` (predictions on one test set);
* two learners over many data sets — :func:`wilcoxon` (with :func:`holm` for many pairs);
* two learners with a region of practical equivalence — :func:`bayes_correlated_t` (one data
  set's cross-validation), :func:`bayes_signed_rank` (over data sets); :func:`effect_size` says
  how large a difference is; :func:`comparison_matrix` puts every pair side by side (the MCM);
* many learners over many data sets — :func:`rank_table`, :func:`average_ranks`,
  :func:`friedman`, then :func:`nemenyi` (all pairs) or :func:`bonferroni_dunn` (against a
  control); :func:`nemenyi_q` and :func:`bonferroni_dunn_q` give their q_α;
* beyond Demšar (García & Herrera 2008; García et al. 2010; docs/many-learners.md) —
  :func:`skillings_mack` (missing results allowed), :func:`friedman_aligned_ranks`,
  :func:`quade`; their pairwise comparisons :func:`rank_post_hoc`, with :func:`shaffer` and
  :func:`bergmann_hommel`'s corrections; :func:`cliques` (CD-diagram bars of any pairwise
  result).

Every test returns a tidy frame with ``statistic``, its degrees of freedom (``df`` or
``df1``/``df2`` where they exist), ``p_value``, ``critical_value``, ``alpha`` and ``reject``; the
two-learner tests add ``a``, ``b`` (differences are a − b) and ``better``. Test statistics are
aggregated with Polars; scipy's distributions are applied in one vectorised call over the small
statistics frame, inside the lazy plan — a LazyFrame in gives a LazyFrame out, and scipy runs
when it is collected. Critical values come from the distributions, never from copied tables.
"""

from frameeval.compare.auto import Comparison, compare_learners
from frameeval.compare.bayes import bayes_correlated_t, bayes_signed_rank, bayes_signed_rank_samples
from frameeval.compare.cliques import cliques
from frameeval.compare.effect_size import effect_size
from frameeval.compare.matrix import comparison_matrix
from frameeval.compare.mcnemar import contingency_table, mcnemar
from frameeval.compare.multiple import bergmann_hommel, rank_post_hoc, shaffer
from frameeval.compare.omnibus import friedman, friedman_aligned_ranks, quade, skillings_mack
from frameeval.compare.one_learner import binomial_distribution, binomial_test, t_test
from frameeval.compare.post_hoc import bonferroni_dunn, bonferroni_dunn_q, holm, nemenyi, nemenyi_q
from frameeval.compare.ranks import average_ranks, rank_table
from frameeval.compare.resampled import corrected_resampled_t_test, cv5x2_f_test
from frameeval.compare.table import results_table
from frameeval.compare.two_learners import cv5x2_t_test, paired_t_test, wilcoxon

__all__ = [
    "Comparison",
    "compare_learners",
    "average_ranks",
    "bergmann_hommel",
    "cliques",
    "friedman_aligned_ranks",
    "quade",
    "rank_post_hoc",
    "shaffer",
    "skillings_mack",
    "bayes_correlated_t",
    "bayes_signed_rank",
    "bayes_signed_rank_samples",
    "binomial_distribution",
    "binomial_test",
    "bonferroni_dunn",
    "bonferroni_dunn_q",
    "comparison_matrix",
    "contingency_table",
    "corrected_resampled_t_test",
    "cv5x2_f_test",
    "cv5x2_t_test",
    "effect_size",
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
