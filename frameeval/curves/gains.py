"""Cumulative gains, lift and the Kolmogorov–Smirnov statistic: how well a score ranks the
positives first, from the per-distinct-score table of the ROC curve."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.curves.table import FP, TP, N, P, binary_table, point_curve, rate

__all__ = ["gains_curve", "ks_statistic", "lift_curve"]


def _targeted() -> pl.Expr:
    """The group's (weighted) rows with score ≥ threshold: TP + FP."""
    return pl.col(TP) + pl.col(FP)


def _total() -> pl.Expr:
    """All the group's (weighted) rows: P + N."""
    return pl.col(P) + pl.col(N)


def _fraction() -> pl.Expr:
    """Share of the group's (weighted) rows with score ≥ threshold."""
    total = _total()
    return pl.when(total > 0).then(_targeted() / total)


@frame_function
def gains_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Cumulative gains: the share of all positives found in the top-scored share of the rows.

    Ranking the rows by score and targeting the top ``fraction`` of them finds the share
    ``gain`` of all positives (the "cumulative response" of marketing and credit scoring). A
    random ranking gives the diagonal gain = fraction; a perfect one reaches gain 1 at fraction
    = the share of positives.

    Parameters are those of :func:`roc_curve` (without ``drop_intermediate``).

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, fraction, gain``, sorted by the keys
    and ``threshold`` descending: row k targets the rows with score ≥ ``threshold``;
    ``fraction`` = (TP + FP)/(P + N) and ``gain`` = TP/P = the TPR (eq 2.18). The first row of
    each group is (0, 0) at ``threshold`` = +inf, the last (1, 1). ``gain`` is null in a group
    without positive rows.

    Notes
    -----
    One point per distinct score, as in :func:`roc_curve`: a run of tied scores is one straight
    step (the rows of a tie are targeted together), so the curve between two points is the
    expected gain of breaking the tie at random. Computed from the ROC curve's mergeable
    per-group × distinct-score table, so it streams.

    References
    ----------
    Berry, M. J. A. & Linoff, G. S. (2004). *Data Mining Techniques*, 2nd ed., ch. 3 (gains and
    lift charts). Ling, C. X. & Li, C. (1998). Data mining for direct marketing: problems and
    solutions. KDD-98, 73–79.

    See Also
    --------
    lift_curve, ks_statistic, roc_curve, frameeval.charts.gains

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.gains_curve(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(inf, 0.0, 0.0), (0.9, 0.167, 0.333), (0.8, 0.5, 0.667), (0.4, 0.667, 1.0), (0.3, 0.833, 1.0), (0.1, 1.0, 1.0)]
    """
    columns = {"fraction": _fraction(), "gain": rate(TP, P)}
    return point_curve(
        data, "gains_curve", truth, score, by, weight, pos_label, columns, start=True
    )


@frame_function
def lift_curve(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Lift: how many times more positives the top-scored rows hold than a random pick.

    Parameters
    ----------
    data, truth, score, by, pos_label, weight
        As in :func:`gains_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, threshold, fraction, lift``, sorted by the keys
    and ``threshold`` descending, one row per distinct score (no start row: the lift of an
    empty target is 0/0). ``fraction`` = (TP + FP)/(P + N) as in :func:`gains_curve`; ``lift``
    = gain / fraction = precision / (P/(P + N)) — the precision (eq 2.8) of the targeted rows
    over the group's base rate. The last row (everything targeted) has lift 1. ``lift`` is null
    in a group without positive rows.

    Notes
    -----
    A random ranking has lift 1 everywhere; a perfect one (P + N)/P up to fraction P/(P + N).
    Ties: as :func:`gains_curve` (a tie is targeted whole).

    References
    ----------
    As :func:`gains_curve`.

    See Also
    --------
    gains_curve, ks_statistic, frameeval.charts.lift

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.lift_curve(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(0.9, 0.167, 2.0), (0.8, 0.5, 1.333), (0.4, 0.667, 1.5), (0.3, 0.833, 1.2), (0.1, 1.0, 1.0)]
    """
    targeted = _targeted()
    lift = pl.when((pl.col(P) > 0) & (targeted > 0)).then(
        (pl.col(TP) / targeted) / (pl.col(P) / _total())
    )
    columns = {"fraction": _fraction(), "lift": lift}
    return point_curve(data, "lift_curve", truth, score, by, weight, pos_label, columns)


@frame_function
def ks_statistic(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """The Kolmogorov–Smirnov statistic: the largest gap between the score distributions of
    the positives and the negatives.

    Parameters
    ----------
    data, truth, score, by, pos_label, weight
        As in :func:`gains_curve`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, ks, threshold``, one row per group sorted by the
    keys: ``ks`` = max over thresholds t of \\|TPR(t) − FPR(t)\\| (Float64 in [0, 1]) and
    ``threshold`` the highest distinct score at which it is reached (classify positive iff
    score ≥ threshold). Both are null in a group with one class.

    Notes
    -----
    With F⁺ and F⁻ the (weighted) empirical distribution functions of the positives' and
    negatives' scores, TPR(t) = 1 − F⁺(t⁻) and FPR(t) = 1 − F⁻(t⁻), so max |TPR − FPR| over the
    distinct scores is sup |F⁺ − F⁻|: the two-sample Kolmogorov–Smirnov statistic
    (``scipy.stats.ks_2samp(pos, neg).statistic``). It is the largest vertical distance of the
    ROC curve from the diagonal, i.e. the maximum of Youden's J over thresholds. Tied scores
    need no rule: a run of equal scores is one threshold, as on the ROC curve. Tied distances
    are compared exactly, as \\|TP·N − FP·P\\| (the distance times P·N; exact for counts below
    2⁵³), so of two thresholds at the same distance the higher one is returned, whatever the
    rounding of TP/P − FP/N. Computed from the ROC
    curve's mergeable per-distinct-score table, so it streams. The statistic alone is not a
    test here: scipy's p-value assumes independent samples and no ties.

    References
    ----------
    Kolmogorov, A. (1933); Smirnov, N. (1948). Table for estimating the goodness of fit of
    empirical distributions. Ann. Math. Statist. 19, 279–281. Hand, D. J. (2005). Good
    practice in retail credit scorecard assessment. J. Oper. Res. Soc. 56, 1109–1117.

    See Also
    --------
    roc_curve, gains_curve, frameeval.youden_j, frameeval.charts.ks

    Examples
    --------
    >>> df = fe.datasets.binary_scores()
    >>> fe.ks_statistic(df, truth="y", score="s").select(pl.all().round(3)).rows()
    [(0.667, 0.4)]
    """
    func = "ks_statistic"
    outputs = ("ks", "threshold")
    setup, table = binary_table(data, func, truth, score, by, weight, pos_label, outputs)
    # |TPR − FPR| = |TP·N − FP·P| / (P·N): the numerators are compared, not the rounded
    # quotients, so an exact tie of the distance is a tie (counts: exact below 2**53) and the
    # highest threshold of the tie is chosen, as documented
    cross = (pl.col(TP) * pl.col(N) - pl.col(FP) * pl.col(P)).abs()
    defined = (pl.col(P) > 0) & (pl.col(N) > 0)
    points = table.with_columns(
        pl.when(defined).then(cross).alias("__fe_gap"), (pl.col(P) * pl.col(N)).alias("__fe_pn")
    )
    best = pl.col("__fe_gap") == pl.col("__fe_gap").max()
    out = points.group_by(setup.gkeys).agg(
        (pl.col("__fe_gap").max() / pl.col("__fe_pn").first()).alias("ks"),
        pl.col("threshold").filter(best).max().alias("threshold"),
    )
    out = out.with_columns(
        pl.when(pl.col("ks").is_not_null()).then(pl.col("threshold")).alias("threshold")
    )
    return setup.done(setup.sort(out))
