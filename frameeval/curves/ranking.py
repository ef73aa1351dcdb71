"""Summaries of the ranking, one row per group: AUC, rank loss, AP, P-R area (2.3.3)."""

from __future__ import annotations

from typing import Any

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.curves.table import cumulated, score_table
from frameeval.metrics.ranking import AVERAGE_PRECISION, PR_AUC, RANK_LOSS, ROC_AUC

__all__ = ["ranking_report"]


# ---------------------------------------------------------------------------------------------
# summaries of the ranking (one row per group)
# ---------------------------------------------------------------------------------------------
@frame_function
def ranking_report(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """AUC, rank loss, average precision and P-R trapezoid area per group, from one table.

    The frame-level face of :func:`frameeval.roc_auc`, :func:`frameeval.rank_loss`,
    :func:`frameeval.average_precision` and :func:`frameeval.pr_auc`: the same values, computed
    from the mergeable per-group × distinct-score counts (one aggregation that streams) instead
    of sorting rows inside each group.

    Parameters
    ----------
    data, truth, score, by, pos_label, weight
        As in :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, roc_auc, rank_loss, average_precision, pr_auc``,
    one row per group, sorted by the keys.

    Notes
    -----
    With pos_k, neg_k the masses of positives and negatives at the k-th distinct score
    (descending) and TP_k, FP_k the cumulative sums:

    * AUC = Σ_k neg_k·(TP_k − pos_k/2) / (m⁺m⁻), rank loss = 1 − AUC (eqs 2.21–2.22): each
      negative at score t is outranked by every positive above t and ties with the positives
      at t (half each). Null when the group has one class.
    * AP = Σ_k pos_k·P_k / m⁺ with P_k = TP_k/(TP_k + FP_k); P-R area = Σ_k pos_k·(P_k +
      P_{k−1})/2 / m⁺ with P_0 = 1 (see :func:`frameeval.average_precision`,
      :func:`frameeval.pr_auc`). Null when the group has no positive row.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27,
    861–874.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.ranking_report(df, truth="y", score="s").select(pl.all().round(4)).row(0)
    (0.8333, 0.1667, 0.8056, 0.8472)
    """
    func = "ranking_report"
    chosen = [ROC_AUC, RANK_LOSS, AVERAGE_PRECISION, PR_AUC]
    setup, table = score_table(
        data, func, truth, score, by, weight, pos_label, [m.name for m in chosen]
    )
    ordered, masses = cumulated(table, setup.gkeys)
    out = ordered.group_by(setup.gkeys).agg(m.formula(masses).alias(m.name) for m in chosen)
    return setup.done(setup.sort(out))
