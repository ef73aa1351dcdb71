"""Precision-recall curves and the break-even point (2.3.2)."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.curves.table import FP, NEG, POS, TP, P, binary_table, point_curve, rate

__all__ = ["break_even_point", "pr_curve"]


# ---------------------------------------------------------------------------------------------
# precision-recall
# ---------------------------------------------------------------------------------------------
@frame_function
def pr_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Precision-recall curves, one point per distinct score (figure 2.3).

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, recall, precision``, sorted by the keys
    and by ``threshold`` descending (recall non-decreasing). Row k is the classifier "positive
    iff score ≥ threshold": ``recall`` = TP/(TP + FN) (eq 2.9), ``precision`` = TP/(TP + FP)
    (eq 2.8). ``recall`` is null in a group without positive rows. There is no point for
    "nothing predicted positive", whose precision is 0/0; plots conventionally start at
    (recall, precision) = (0, 1), as :func:`frameeval.pr_auc` does.

    Notes
    -----
    Lowering the threshold past a run of tied scores adds all of its rows at once, so a tie is
    one step, as on the ROC curve. The last point has recall 1 and precision m⁺/m, the share of
    positives — not 0 as figure 2.3 sketches (the notes on figure 2.3 explain why). Scores whose
    rows all weigh 0 give no point.

    References
    ----------
    Davis, J. & Goadrich, M. (2006). The relationship between precision-recall and ROC curves.
    ICML 2006, 233–240.

    See Also
    --------
    break_even_point, best_threshold, frameeval.average_precision

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.pr_curve(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(0.9, 0.333, 1.0), (0.8, 0.667, 0.667), (0.4, 1.0, 0.75), (0.3, 1.0, 0.6), (0.1, 1.0, 0.5)]
    """
    columns = {"recall": rate(TP, P), "precision": pl.col(TP) / (pl.col(TP) + pl.col(FP))}
    return point_curve(data, "pr_curve", truth, score, by, weight, pos_label, columns)


@frame_function
def break_even_point(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Break-even point (BEP): the value at which precision equals recall on the P-R curve.

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, break_even_point``, one row per group, sorted by
    the keys. Null when the group has no positive row (or they weigh 0).

    Notes
    -----
    P = TP/(TP + FP) and R = TP/m⁺ are equal exactly when TP + FP = m⁺: when as many rows are
    predicted positive as there are positives. So BEP is the precision (= recall) of the top m⁺
    rows of the ranking (the "R-precision" of information retrieval).

    When the cut at m⁺ rows falls inside a run of tied scores, the run is taken in proportion:
    between the points before and after the run, TP and FP are interpolated linearly in the
    number of rows predicted positive n (the expected TP when the tied rows are ordered at
    random, the same assumption that makes a tie a diagonal step of the ROC curve):

        BEP = (TP_{k−1} + (m⁺ − n_{k−1}) · pos_k / (pos_k + neg_k)) / m⁺,

    for the run k with n_{k−1} < m⁺ ≤ n_k. The interpolation is linear in counts, not along the
    straight line between two P-R points (which no threshold achieves). Without ties at the cut
    it is simply TP/m⁺ after m⁺ rows. Weighted: m⁺ and n are weight sums. Range [0, 1], higher is
    better.

    References
    ----------
    Manning, C. D., Raghavan, P. & Schütze, H. (2008). Introduction to Information Retrieval,
    §8.4. Cambridge University Press.

    Examples
    --------
    The figure-2.3 ranking of the notes: + + + + − + + − + − … with 10 positives; after 10 rows
    7 are positive, so P = R = 0.7.

    >>> order = "++++-++-+--+--+---+-"
    >>> df = pl.DataFrame({"y": [int(c == "+") for c in order], "s": list(range(20, 0, -1))})
    >>> round(fe.break_even_point(df, truth="y", score="s")["break_even_point"].item(), 12)
    0.7
    """
    func = "break_even_point"
    # the start row keeps a group whose rows all weigh 0 (its value is null)
    outputs = ("break_even_point",)
    setup, table = binary_table(data, func, truth, score, by, weight, pos_label, outputs, True)
    pos, neg, tp, fp, n_pos = pl.col(POS), pl.col(NEG), pl.col(TP), pl.col(FP), pl.col(P)
    mass = pos + neg
    after = tp + fp
    before = after - mass
    share = ((n_pos - before) / mass).clip(0.0, 1.0)
    table = table.with_columns(((tp - pos + share * pos) / n_pos).alias("__fe_bep"))
    # the cut is the first run (thresholds descending) that reaches m⁺ rows: found by position,
    # not by threshold value (integer scores beyond 2^53 share a Float64 display value)
    cut = (mass > 0) & (after >= n_pos) & (n_pos > 0)
    out = table.group_by(setup.gkeys).agg(
        pl.col("__fe_bep").filter(cut).first().alias("break_even_point")
    )
    return setup.done(setup.sort(out))
