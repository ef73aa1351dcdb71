"""Cost lines, the cost curve and the expected total cost (2.3.4)."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.curves._hull import hull_vertices
from frameeval.curves.table import FP, INF, TP, N, P, Setup, binary_table, point_curve, rate

__all__ = ["cost_curve", "cost_lines", "expected_total_cost"]


# ---------------------------------------------------------------------------------------------
# cost curves
# ---------------------------------------------------------------------------------------------
@frame_function
def cost_lines(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """One cost line per ROC point: the segment from (0, FPR) to (1, FNR) (figure 2.5).

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, p_cost, norm_cost``: two rows per
    point of :func:`roc_curve` (including its start at ``threshold`` = +inf), ``p_cost`` = 0
    with ``norm_cost`` = FPR and ``p_cost`` = 1 with ``norm_cost`` = FNR = 1 − TPR. Sorted by the
    keys, ``threshold`` descending and ``p_cost``. Draw one line per ``threshold``
    (e.g. ``detail="threshold"`` in Altair). Null ``norm_cost`` where the rate is undefined
    (a group with one class).

    Notes
    -----
    For a fixed classifier the normalised cost (eq 2.25) is linear in the probability cost x =
    P(+)cost (eq 2.24): cost_norm = FNR·x + FPR·(1 − x). The lower envelope of these lines is
    :func:`cost_curve`.

    References
    ----------
    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fe.cost_lines(df, truth="y", score="s").filter(pl.col("threshold") == 0.8).rows()
    [(0.8, 0.0, 0.5), (0.8, 1.0, 0.5)]
    """
    columns = {
        "p_cost": pl.concat_list(pl.lit(0.0), pl.lit(1.0)),
        "norm_cost": pl.concat_list(rate(FP, N), 1.0 - rate(TP, P)),
    }
    return point_curve(
        data, "cost_lines", truth, score, by, weight, pos_label, columns, start=True, explode=True
    )


def _envelope(setup: Setup, table: pl.LazyFrame) -> pl.LazyFrame:
    """``*gkeys, p_cost, norm_cost``: vertices of the lower envelope of the cost lines, in order.

    One vertex where the lines of two consecutive hull vertices a, b cross,

        x = ΔFPR / (ΔFPR + ΔTPR),  norm_cost = FPR_a + (1 − TPR_a − FPR_a)·x,

    plus (0, 0) and (1, 0); a group with one class gets one row of nulls. Each hull vertex
    contributes a short list of envelope vertices (the first also (0, 0), the last (1, 0)),
    exploded in curve order.
    """
    hull = hull_vertices(setup, table)
    fpr, tpr = rate(FP, N), rate(TP, P)
    d_fpr = fpr.shift(-1).over(setup.gkeys) - fpr  # hull rows are in curve order
    d_tpr = tpr.shift(-1).over(setup.gkeys) - tpr
    x = d_fpr / (d_fpr + d_tpr)
    defined = (pl.col(P) > 0) & (pl.col(N) > 0)
    first = pl.col("threshold") == INF  # the start (0, 0) is a vertex of every hull
    last = d_fpr.is_null()
    crossing = defined & (x > 0) & (x < 1)
    zero = pl.lit(0.0, dtype=pl.Float64)
    return (
        hull.select(
            *setup.gkeys,
            pl.concat_list(
                pl.when(first & defined).then(zero),
                pl.when(crossing).then(x),
                pl.when(last & defined).then(pl.lit(1.0, dtype=pl.Float64)),
            ).alias("p_cost"),
            pl.concat_list(
                pl.when(first & defined).then(zero),
                pl.when(crossing).then(fpr + (1.0 - tpr - fpr) * x),
                pl.when(last & defined).then(zero),
            ).alias("norm_cost"),
            pl.concat_list(first, crossing.fill_null(False), last & defined).alias("__fe_keep"),
        )
        .explode("p_cost", "norm_cost", "__fe_keep")
        .filter(pl.col("__fe_keep"))
        .drop("__fe_keep")
    )


@frame_function
def cost_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """The cost curve: the exact vertices of the lower envelope of the cost lines (figure 2.5).

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, p_cost, norm_cost``, sorted by the keys and
    ``p_cost``: the corners of the piecewise-linear lower envelope, from (0, 0) to (1, 0). A
    group with only one class has one row of nulls (its FPR or FNR is undefined).

    Notes
    -----
    Every ROC point (FPR, TPR) is the segment cost_norm(x) = FPR·(1 − x) + FNR·x over the
    probability cost x = P(+)cost ∈ [0, 1] (eqs 2.24–2.25). For each x the best classifier of
    the curve is the lowest segment; their lower envelope is the cost curve and the area under
    it the expected total cost (:func:`expected_total_cost`). The envelope is the dual of the
    ROC convex hull: one segment per hull vertex, one corner where the lines of two consecutive
    hull vertices cross, at x = ΔFPR/(ΔFPR + ΔTPR) = 1/(1 + slope). Because the ROC curve always
    contains (0, 0) — predict everything negative, cost_norm = x — and (1, 1) — predict
    everything positive, cost_norm = 1 − x — the envelope is 0 at x = 0 (only negatives) and at
    x = 1 (only positives), as the notes on figure 2.5 explain.

    References
    ----------
    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    See Also
    --------
    cost_lines, roc_convex_hull, frameeval.p_cost, frameeval.normalized_cost

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> fe.cost_curve(df, truth="y", score="s").rows()
    [(0.0, 0.0), (0.5, 0.25), (1.0, 0.0)]
    """
    func = "cost_curve"
    setup, table = binary_table(
        data, func, truth, score, by, weight, pos_label, ("p_cost", "norm_cost"), start=True
    )
    return setup.done(_envelope(setup, table))


@frame_function
def expected_total_cost(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Expected total cost: the exact area under the cost curve (the shaded area of figure 2.5).

    Parameters are those of :func:`roc_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, expected_total_cost``, one row per group, sorted
    by the keys. Null when the group has only one class.

    Notes
    -----
    ∫₀¹ min_k [FPR_k·(1 − x) + FNR_k·x] dx over the ROC points k, with x = P(+)cost (eq 2.24):
    the normalised expected cost (eq 2.25) of the best classifier of the curve, averaged over
    all probability costs. Computed as the trapezoid sum over the envelope's corners
    (:func:`cost_curve`), which is exact because the envelope is linear between them. Range
    [0, 0.25]: 0 for a perfect ranking, 0.25 for one no better than the trivial classifiers.
    Lower is better.

    References
    ----------
    Drummond, C. & Holte, R. C. (2006). Cost curves: An improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.9, 0.8, 0.4, 0.3]})
    >>> round(fe.expected_total_cost(df, truth="y", score="s")["expected_total_cost"].item(), 4)
    0.125
    """
    func = "expected_total_cost"
    setup, table = binary_table(
        data, func, truth, score, by, weight, pos_label, ("expected_total_cost",), start=True
    )
    vertices = _envelope(setup, table)
    x = pl.col("p_cost").sort()
    y = pl.col("norm_cost").sort_by("p_cost")
    area = ((x - x.shift(1)) * (y + y.shift(1))).sum() / 2.0
    out = vertices.group_by(setup.gkeys).agg(
        pl.when(pl.col("p_cost").is_not_null().all()).then(area).alias("expected_total_cost")
    )
    return setup.done(setup.sort(out))
