"""ROC, precision-recall and cost curves (chapter 2.3.2–2.3.4) as grouped, lazy frame functions.

Everything here starts from one mergeable table: per ``by`` group and distinct score, the
(weighted) number of positive and negative rows. It is computed in a single aggregation that also
carries the input checks, so it streams and could be merged across partitions. A cumulative sum
over the distinct scores, from the highest down, gives TP and FP at every threshold (predict
positive iff score ≥ threshold); curves, areas and summaries are small steps on that table, whose
size is the number of distinct scores, not of rows. The cumulation runs on one list per group
(sorted by score inside the group), and the groups are sorted by their keys before the lists are
exploded, so outputs come out in key order without sorting every row.

Ties are handled by construction: a run of equal scores is one threshold, so it is one diagonal
step of the ROC curve and a tied (positive, negative) pair counts one half in the AUC
(eqs 2.21–2.22).

The ROC convex hull (and the cost curve, its dual) is computed exactly by merging upper hulls
of blocks of points in ⌈log₂ n⌉ rounds of vectorised Polars operations. That step runs on the
materialised per-distinct-score table inside the lazy plan (a ``LazyFrame.map_batches`` node), so
it needs the whole table at once; nothing is collected before the user collects.
"""

from __future__ import annotations

from frameeval.curves.cost import cost_curve, cost_lines, expected_total_cost
from frameeval.curves.gains import gains_curve, ks_statistic, lift_curve
from frameeval.curves.multiclass import multiclass_roc_auc
from frameeval.curves.precision_recall import break_even_point, pr_curve
from frameeval.curves.ranking import ranking_report
from frameeval.curves.roc import roc_convex_hull, roc_curve
from frameeval.curves.table import SCORE_PARTS, cumulated, prepare_scores, score_counts, score_table  # noqa: F401 - also frameeval.curves's

__all__ = [
    "break_even_point",
    "cost_curve",
    "cost_lines",
    "expected_total_cost",
    "gains_curve",
    "ks_statistic",
    "lift_curve",
    "multiclass_roc_auc",
    "pr_curve",
    "ranking_report",
    "roc_convex_hull",
    "roc_curve",
]
