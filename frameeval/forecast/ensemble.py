"""Ensemble (sample) forecasts in long format (one row per instance × member): the continuous
ranked probability score (CRPS) of the empirical distribution of the members."""

from __future__ import annotations

from typing import Literal

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.forecast._common import PRED, TRUTH, check_either, instance_mean
from frameeval.metrics.stats import positive_part

Estimator = Literal["ecdf", "fair"]


@frame_function
def crps(
    data: IntoFrame,
    truth: str,
    pred: str,
    instance: str | list[str],
    *,
    by: Keys = None,
    estimator: Estimator = "ecdf",
) -> Frame:
    """Continuous ranked probability score of ensemble forecasts, averaged over instances.

    Each row is one member (sample) x_j of the ensemble forecast of one instance whose outcome
    is ``truth``; the forecast distribution is the members' empirical distribution.

    Parameters
    ----------
    data
        Long frame, one row per instance × member (DataFrame or LazyFrame; pandas / pyarrow are
        converted).
    truth
        Column with the true value (numeric, finite; one value per instance).
    pred
        Column with the member's value (numeric, finite).
    instance
        Column(s) naming the forecast a row belongs to (within each ``by`` group).
    by
        Key column(s); one result per group.
    estimator
        ``"ecdf"`` (default): the CRPS of the empirical distribution of the m members
        (properscoring's ``crps_ensemble``, scoringrules' ``estimator="nrg"``);
        ``"fair"``: the unbiased ("fair") estimator of the CRPS of the distribution the
        members are drawn from, which divides the spread term by m(m − 1) instead of m²
        (Ferro 2014; scoringrules' ``estimator="fair"``), null for a one-member instance.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, crps``, sorted by the keys.

    Notes
    -----
    CRPS(F, y) = ∫ (F(z) − [y ≤ z])² dz = E|X − y| − ½·E|X − X′| (Gneiting & Raftery 2007,
    eq 21). For the members sorted, x₍₁₎ ≤ … ≤ x₍ₘ₎, Σⱼ Σₖ |xⱼ − xₖ| = 2·Σᵢ (2i − m − 1)·x₍ᵢ₎,
    so

        CRPS = (1/m)·Σⱼ |xⱼ − y| − (1/m²)·Σᵢ (2i − m − 1)·x₍ᵢ₎

    exactly, in O(m log m) per instance (a sort), never the O(m²) pairs; ``"fair"`` divides
    the second sum by m(m − 1). The result is the mean over the instances of a group. Range
    [0, ∞) (``"fair"`` can be slightly negative for a small ensemble), lower is better; in
    the units of the truth. With one member it is the absolute error.

    References
    ----------
    Gneiting, T., & Raftery, A. E. (2007). Strictly proper scoring rules, prediction, and
    estimation. Journal of the American Statistical Association 102(477), 359–378.

    Ferro, C. A. T. (2014). Fair scores for ensemble forecasts. Quarterly Journal of the Royal
    Meteorological Society 140(683), 1917–1923.

    See Also
    --------
    weighted_interval_score, quantile_scores

    Examples
    --------
    >>> df = pl.DataFrame({"id": [1, 1, 1, 2, 2, 2],
    ...                    "y": [3.0, 3.0, 3.0, 5.0, 5.0, 5.0],
    ...                    "x": [1.0, 2.0, 4.0, 4.0, 6.0, 9.0]})
    >>> round(fe.crps(df, truth="y", pred="x", instance="id").item(), 6)
    0.777778
    """
    func = "crps"
    check_either(func, "estimator", estimator, "ecdf", "fair")
    y, x = pl.col(TRUTH), pl.col(PRED)
    m = pl.len().cast(pl.Float64)
    # Σᵢ (2i − m − 1)·x₍ᵢ₎ = 2·Σᵢ i·x₍ᵢ₎ − (m + 1)·Σ x, and Σᵢ i·x₍ᵢ₎ is the sum of the
    # cumulative sums of the members sorted in decreasing order (no per-row rank needed)
    spread = 2.0 * x.sort(descending=True).cum_sum().sum() - (m + 1.0) * x.sum()
    pairs = m * m if estimator == "ecdf" else m * (m - 1.0)
    accuracy = (x - y).abs().mean()  # y is one value per instance (a rule)
    value = accuracy - spread / positive_part(pairs)  # one member, "fair": no pair, null
    return instance_mean(data, func, value.alias("crps"), [], truth, pred, by, instance)


__all__ = ["crps"]
