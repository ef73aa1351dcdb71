"""ROC curves and the ROC convex hull (2.3.3)."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._params import FLAG
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.curves._hull import hull_vertices
from frameeval.curves.table import FP, TP, N, P, Setup, point_curve, rate

__all__ = ["roc_convex_hull", "roc_curve"]

#: the columns of a ROC point
ROC = {"fpr": rate(FP, N), "tpr": rate(TP, P)}


# ---------------------------------------------------------------------------------------------
# ROC
# ---------------------------------------------------------------------------------------------
@frame_function
def roc_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
    drop_intermediate: bool = False,
) -> Frame:
    """ROC curves, one point per distinct score, tied scores as one diagonal step (figure 2.4).

    Parameters
    ----------
    data
        Result frame (DataFrame or LazyFrame; pandas / pyarrow are converted).
    truth
        Column with the true label; ``pos_label`` is the positive class, all others negative.
    score
        Numeric, finite column; larger means more positive.
    by
        Key column(s); one curve per group.
    pos_label
        The positive class. Default: ``True`` for a boolean, 1 for a numeric column; required
        for string labels. It must occur somewhere in the frame.
    weight
        Optional non-negative weights; counts become weight sums. Scores whose rows all weigh
        0 give no point (as in scikit-learn).
    drop_intermediate
        Drop every point that lies on the straight line through its two neighbours (for
        plotting). The trapezoid area is unchanged. scikit-learn's option of the same name drops
        fewer points (only those with equal steps on both sides).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, fpr, tpr``, sorted by the keys and by
    ``threshold`` descending. Row k is the classifier "positive iff score ≥ threshold": ``fpr``
    = FP/(TN + FP) (eq 2.19) and ``tpr`` = TP/(TP + FN) (eq 2.18) among the group's rows. The
    first row of each group is the start (0, 0) with ``threshold`` = +inf (nothing predicted
    positive), the last the point (1, 1) at the smallest score. ``fpr`` is null in a group
    without negative rows, ``tpr`` null in a group without positive rows.

    Notes
    -----
    Sorting the rows by score and lowering the threshold past each distinct score moves the
    curve by (neg/m⁻, pos/m⁺), the numbers of negatives and positives at that score: up for a
    positive, right for a negative, diagonally for a tie (the averaged curve of the notes on eqs
    2.21–2.22). The trapezoid area of the returned curve (eq 2.20) equals :func:`roc_auc`
    exactly. Computed from one aggregation per group × distinct score.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27,
    861–874.

    See Also
    --------
    roc_convex_hull, frameeval.roc_auc, cost_lines

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.roc_curve(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(inf, 0.0, 0.0), (0.9, 0.0, 0.333), (0.8, 0.333, 0.667), (0.4, 0.333, 1.0), (0.3, 0.667, 1.0), (0.1, 1.0, 1.0)]
    """
    func = "roc_curve"
    FLAG(func, "drop_intermediate", drop_intermediate)
    drop = _drop_collinear if drop_intermediate else None
    return point_curve(
        data, func, truth, score, by, weight, pos_label, ROC, start=True, through=drop
    )


def _drop_collinear(setup: Setup, points: pl.LazyFrame) -> pl.LazyFrame:
    """Drop each point on the straight line through its neighbours (in count units; the first
    and last points of a group are never dropped)."""
    gkeys = setup.gkeys

    def step(column: str, offset: int) -> pl.Expr:
        return pl.col(column).shift(offset).over(gkeys)  # rows are in curve order

    dx_in, dy_in = pl.col(FP) - step(FP, 1), pl.col(TP) - step(TP, 1)
    dx_out, dy_out = step(FP, -1) - pl.col(FP), step(TP, -1) - pl.col(TP)
    return points.filter(~(dx_in * dy_out == dy_in * dx_out).fill_null(False))


@frame_function
def roc_convex_hull(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """The ROC convex hull: the vertices of the upper convex hull of each ROC curve.

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, fpr, tpr``: the subset of the
    :func:`roc_curve` points that are vertices of the hull, from (0, 0) (``threshold`` = +inf)
    to (1, 1), sorted by ``threshold`` descending. Points on a hull edge (collinear) are not
    vertices. ``fpr`` / ``tpr`` are null in a group with one class, as in :func:`roc_curve`.

    Notes
    -----
    A classifier on the hull is optimal for some class prior and cost ratio; every point below
    it is beaten by a mix of two hull vertices. The hull is the dual of the lower envelope of
    the cost lines (figure 2.5): :func:`cost_curve` has one segment per hull vertex and one
    vertex per hull edge. Computed exactly: points that make a left turn with their neighbours
    are pruned in a few passes, then upper hulls of blocks of 2, 4, 8, … consecutive points are
    merged pairwise by finding each bridge, ⌈log₂ n⌉ rounds over all groups at once. This step
    needs the whole per-distinct-score table (one row per group × distinct score) at once.

    References
    ----------
    Provost, F. & Fawcett, T. (2001). Robust classification for imprecise environments.
    Machine Learning 42(3), 203–231.

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.roc_convex_hull(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(inf, 0.0, 0.0), (0.9, 0.0, 0.333), (0.4, 0.333, 1.0), (0.1, 1.0, 1.0)]
    """
    func, hull = "roc_convex_hull", hull_vertices
    return point_curve(
        data, func, truth, score, by, weight, pos_label, ROC, start=True, through=hull
    )
