"""Uncertainty of evaluation results: bootstrap confidence intervals for any measure, DeLong's
variance and paired test for AUCs, and tests for resampling designs whose training sets overlap.

* :func:`bootstrap_replicates` / :func:`bootstrap_ci` — the (stratified) multinomial bootstrap of
  any frameeval measure expression, per group, as one lazy plan; percentile and BCa intervals;
  :func:`roc_band` — a pointwise bootstrap band of the ROC curve.
* :func:`delong_ci` / :func:`delong_test` — the variance of an AUC, its normal interval and the
  test of two correlated AUCs on the same instances (DeLong et al. 1988), from placement values
  computed with ranks in O(n log n) (Sun & Xu 2014).
* :func:`corrected_resampled_t_test` — the Nadeau–Bengio corrected resampled t test for repeated
  hold-out and (repeated) k-fold cross-validation.
* :func:`cv5x2_f_test` — Alpaydin's combined 5×2cv F test.

See ``docs/uncertainty.md`` for when each interval and test is valid.

How the bootstrap draws
-----------------------
Replicate r of a group of m resampling units (instances) draws m units with replacement: slot j
(0 ≤ j < m) of replicate r takes unit ``⌊(h ≫ 32) · m / 2³²⌋`` (Lemire's multiply-shift range
reduction of the high 32 bits), where h is the SplitMix64 mix of the 64-bit word
``(r · 2³² + j) xor SplitMix64(seed)``, computed with Polars integer arithmetic.
Units are ordered by ``instance`` (by row order without it), so the draws are reproducible for a
seed on any machine and Polars version, do not depend on the row order when ``instance=`` is
given, and are the same for every group with the same instances — with ``by="model"`` all models
are resampled on the same instances in each replicate (a paired bootstrap). With ``stratify=``
each stratum of a group is resampled on its own (slot j draws from the stratum it belongs to).
"""

from __future__ import annotations

from frameeval.compare.resampled import corrected_resampled_t_test, cv5x2_f_test
from frameeval.uncertainty.bootstrap import bootstrap_ci, bootstrap_replicates
from frameeval.uncertainty.delong import delong_ci, delong_test
from frameeval.uncertainty.roc_band import roc_band

__all__ = [
    "bootstrap_ci",
    "bootstrap_replicates",
    "corrected_resampled_t_test",
    "cv5x2_f_test",
    "delong_ci",
    "delong_test",
    "roc_band",
]
