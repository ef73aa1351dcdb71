"""Murphy's decomposition of the Brier score (with Stephenson et al.'s within-bin terms)."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.calibration._common import (
    COUNT,
    FBAR,
    MASS,
    OUTCOME,
    PROB,
    SUM_P,
    SUM_SQ,
    SUM_Y,
    WEIGHT,
    WITHIN_COV,
    WITHIN_VAR,
    Strategy,
    bin_stats,
    binary_input,
    check_bins,
)


# ---------------------------------------------------------------------------------------------
# the Murphy decomposition
# ---------------------------------------------------------------------------------------------
@frame_function
def brier_decomposition(
    data: IntoFrame,
    truth: str,
    score: str,
    *,
    by: Keys = None,
    bins: int | None = None,
    strategy: Strategy = "uniform",
    pos_label: Any = None,
    weight: str | None = None,
) -> Frame:
    """Murphy's decomposition of the Brier score into reliability, resolution and uncertainty.

    Parameters
    ----------
    data, truth, score, by, pos_label
        As in :func:`calibration_curve`.
    bins
        None (default): the forecasts are grouped at their distinct values, and the identity
        is exact. An integer: they are grouped into the bins of :func:`calibration_curve`
        (with ``strategy``), and the two within-bin terms are reported too.
    strategy
        The binning when ``bins`` is an integer: ``"uniform"`` or ``"quantile"``.
    weight
        Optional column of row weights (numeric, finite, ≥ 0); see Notes.

    Returns
    -------
    Same kind as ``data``, sorted by the keys, with columns ``*by, brier, reliability,
    resolution, uncertainty`` and, when ``bins`` is an integer, ``within_bin_variance,
    within_bin_covariance`` (all Float64); all null for a group whose weights sum to 0.

    Notes
    -----
    For N rows with outcomes oᵢ ∈ {0, 1} and forecasts fᵢ, grouped into K sets (distinct
    forecasts or bins) of n_k rows with mean forecast f̄_k and fraction of positives ō_k, and ō
    the group's fraction of positives (Murphy 1973):

        brier       = 1/N Σᵢ (fᵢ − oᵢ)²                      (the Brier score)
        reliability = 1/N Σ_k n_k (f̄_k − ō_k)²                (lower is better)
        resolution  = 1/N Σ_k n_k (ō_k − ō)²                  (higher is better)
        uncertainty = ō (1 − ō)                               (of the data, not the model)

    With distinct forecasts (``bins=None``) brier = reliability − resolution + uncertainty
    holds exactly (to rounding, 1e-12). Binned forecasts add the within-bin variance of the
    forecasts and their covariance with the outcomes (Stephenson, Coelho & Jolliffe 2008):

        within_bin_variance   = 1/N Σ_k Σ_{i∈k} (fᵢ − f̄_k)²
        within_bin_covariance = 2/N Σ_k Σ_{i∈k} (oᵢ − ō_k)(fᵢ − f̄_k)

    and brier = reliability − resolution + uncertainty + within_bin_variance −
    within_bin_covariance. A group with one class has uncertainty = resolution = 0 (both
    defined) and brier = reliability (+ the within-bin terms).

    With weights wᵢ every 1/N Σᵢ becomes 1/W Σᵢ wᵢ (W = Σᵢ wᵢ), n_k becomes the set's weight
    W_k, and f̄_k, ō_k, ō are weighted means; the identities hold exactly as above (the algebra
    is the same), and integer weights give the values of the repeated rows. Sets (distinct
    forecasts or bins) of zero weight contribute nothing. Quantile bins use the weighted
    edges of :func:`calibration_curve`.

    References
    ----------
    Murphy, A. H. (1973). A new vector partition of the probability score. Journal of Applied
    Meteorology 12(4), 595–600.
    Stephenson, D. B., Coelho, C. A. S. & Jolliffe, I. T. (2008). Two extra components in the
    Brier score decomposition. Weather and Forecasting 23(4), 752–757.

    See Also
    --------
    frameeval.brier_score, calibration_curve

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 0, 1, 1], "p": [0.2, 0.2, 0.2, 0.8, 0.8, 0.8]})
    >>> fe.brier_decomposition(df, truth="y", score="p").select(pl.all().round(6)).rows()
    [(0.24, 0.017778, 0.027778, 0.25)]
    """
    func = "brier_decomposition"
    check_bins(func, bins, strategy, allow_none=True)
    outputs = ["brier", "reliability", "resolution", "uncertainty"]
    if bins is not None:
        outputs += ["within_bin_variance", "within_bin_covariance"]
    inp = binary_input(data, func, truth, score, by, pos_label, outputs, weight)
    weighted = weight is not None
    p, y = pl.col(PROB), pl.col(OUTCOME)
    w = pl.col(WEIGHT) if weighted else pl.lit(1.0)
    squares = (w * (p - y) ** 2).sum().alias(SUM_SQ)
    if bins is None:
        mass = w.sum() if weighted else pl.len().cast(pl.Float64)
        stats = inp.lf.group_by(*inp.gkeys, PROB).agg(
            pl.len().cast(pl.Int64).alias(COUNT),
            mass.alias(MASS),
            (w * y).sum().alias(SUM_Y),
            squares,
            *inp.checks.aggs(),
        )
        stats = inp.checks.enforce(stats, inp.keys).with_columns(pl.col(PROB).alias(FBAR))
        extra: list[pl.Expr] = []
    else:
        if weighted:
            # the bin's weighted means; a bin of zero weight has no within-bin terms
            defined = w.sum() > 0
            pbar, ybar = (w * p).sum() / w.sum(), (w * y).sum() / w.sum()
            within = [
                pl.when(defined).then((w * (p - pbar) ** 2).sum()).otherwise(0.0),
                pl.when(defined).then((w * (y - ybar) * (p - pbar)).sum()).otherwise(0.0),
            ]
        else:
            within = [((p - p.mean()) ** 2).sum(), ((y - y.mean()) * (p - p.mean())).sum()]
        sums = [squares, within[0].alias(WITHIN_VAR), within[1].alias(WITHIN_COV)]
        stats = bin_stats(inp, bins, strategy, sums, weighted=weighted).with_columns(
            (pl.col(SUM_P) / pl.col(MASS)).alias(FBAR)
        )
        extra = [
            (pl.col(WITHIN_VAR).sum() / pl.col("__fe_total").first()).alias("within_bin_variance"),
            (2.0 * pl.col(WITHIN_COV).sum() / pl.col("__fe_total").first()).alias(
                "within_bin_covariance"
            ),
        ]
    n = pl.col(MASS)
    stats = stats.with_columns(
        n.sum().over(inp.gkeys).alias("__fe_total"),
        (pl.col(SUM_Y).sum().over(inp.gkeys) / n.sum().over(inp.gkeys)).alias("__fe_base"),
        pl.when(n > 0).then(pl.col(SUM_Y) / n).alias("__fe_obar"),  # null: a set of weight 0
    )
    total, base, obar = pl.col("__fe_total"), pl.col("__fe_base"), pl.col("__fe_obar")
    terms = [
        (pl.col(SUM_SQ).sum() / total.first()).alias("brier"),
        ((n * (pl.col(FBAR) - obar) ** 2).sum() / total.first()).alias("reliability"),
        ((n * (obar - base) ** 2).sum() / total.first()).alias("resolution"),
        (base.first() * (1.0 - base.first())).alias("uncertainty"),
        *extra,
    ]
    out = stats.group_by(inp.gkeys).agg(
        pl.when(total.first() > 0).then(term).alias(term.meta.output_name()) for term in terms
    )
    return inp.done(inp.sort(out))
