"""Quantile forecasts in long format (one row per instance × level): pinball loss and coverage
per level, and the weighted interval score (WIS)."""

from __future__ import annotations

import polars as pl

from frameeval._inputs import check_names
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_parameter
from frameeval.forecast._common import (
    GRID,
    LEVEL,
    PRED,
    TRUTH,
    WEIGHT,
    Crossing,
    Rule,
    check_either,
    instance_mean,
    level_rule_list,
    on_grid,
    open_forecast,
    pinball,
    truth_rule,
)
from frameeval.metrics.stats import positive_part


@frame_function
def quantile_scores(
    data: IntoFrame,
    truth: str,
    pred: str,
    quantile: str,
    *,
    by: Keys = None,
    weight: str | None = None,
    instance: Keys = None,
    crossing: Crossing = "error",
) -> Frame:
    """Pinball loss and empirical coverage of quantile forecasts, per group and level.

    Each row is one predicted quantile: the value ``pred`` the forecaster gives for level
    ``quantile`` of the instance whose outcome is ``truth``.

    Parameters
    ----------
    data
        Long frame, one row per instance × level (DataFrame or LazyFrame; pandas / pyarrow are
        converted).
    truth
        Column with the true value (numeric, finite).
    pred
        Column with the predicted quantile (numeric, finite).
    quantile
        Column with the level τ of the predicted quantile, in (0, 1).
    by
        Key column(s); one result per group and level.
    weight
        Optional column of non-negative row weights.
    instance
        Optional column(s) naming the forecast a row belongs to. With it the rows of an
        instance are checked (one truth, no repeated level) and ``crossing`` applies; without
        it every row is scored on its own and crossing is not looked for.
    crossing
        What to do when an instance's quantiles cross (a higher level with a lower value):
        ``"error"`` (default) raises ``InvalidValueError`` naming the instance and the level;
        ``"sort"`` scores the monotone rearrangement (each instance's values sorted and given
        to its levels in increasing order; Chernozhukov, Fernández-Val & Galichon 2010), which
        never raises the pinball loss summed over the levels (row weights stay with their
        levels). Needs ``instance=``: without it ``"sort"`` raises ``InvalidParameterError``.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, quantile, pinball_loss, coverage``, sorted by
    the keys and the level.

    Notes
    -----
    pinball_loss(τ) = Σᵢ wᵢ·ρ_τ(yᵢ − qᵢ) / Σᵢ wᵢ with ρ_τ(u) = u·(τ − [u < 0]), i.e.
    τ·(y − q) when y ≥ q and (1 − τ)·(q − y) otherwise (scikit-learn's
    ``mean_pinball_loss(alpha=τ)``; some papers use twice this). Range [0, ∞), lower is
    better. coverage(τ) = Σᵢ wᵢ·[yᵢ ≤ qᵢ] / Σᵢ wᵢ, the share of outcomes at or below the
    predicted quantile: to read against τ (a calibrated forecaster has coverage ≈ τ). Both
    are null for a zero total weight.

    References
    ----------
    Koenker, R., & Bassett, G. (1978). Regression quantiles. Econometrica 46(1), 33–50.

    Gneiting, T., & Raftery, A. E. (2007). Strictly proper scoring rules, prediction, and
    estimation. Journal of the American Statistical Association 102(477), 359–378.

    See Also
    --------
    weighted_interval_score, interval_score, crps

    Examples
    --------
    >>> df = fe.datasets.quantile_forecasts()
    >>> fe.quantile_scores(df, truth="y", pred="f", quantile="q", instance="id")
    shape: (3, 3)
    ┌──────────┬──────────────┬──────────┐
    │ quantile ┆ pinball_loss ┆ coverage │
    │ ---      ┆ ---          ┆ ---      │
    │ f64      ┆ f64          ┆ f64      │
    ╞══════════╪══════════════╪══════════╡
    │ 0.1      ┆ 0.15         ┆ 0.0      │
    │ 0.5      ┆ 0.5          ┆ 0.5      │
    │ 0.9      ┆ 0.25         ┆ 1.0      │
    └──────────┴──────────────┴──────────┘
    """
    func = "quantile_scores"
    crossing = check_either(func, "crossing", crossing, "error", "sort")
    check_parameter(
        crossing != "sort" or bool(instance),
        func,
        "crossing='sort' needs instance= (the rows of one forecast to sort), got instance=None.",
    )
    outputs = ("quantile", "pinball_loss", "coverage")
    check_names(func, "quantile", quantile, required=True)
    door = open_forecast(data, func, truth, pred, by, instance, outputs, quantile, weight)
    y, x, level = pl.col(TRUTH), pl.col(PRED), pl.col(LEVEL)
    rows = door.lf
    if door.instance:
        # one row per instance (its rules checked), then back to one row per level: with
        # crossing="sort" the sorted predictions are paired with the sorted levels
        lists = [
            (x.sort() if crossing == "sort" else x.sort_by(level)).alias(PRED),
            level.sort().alias(LEVEL),
            *([pl.col(WEIGHT).sort_by(level).alias(WEIGHT)] if weight else []),
        ]
        rules = [truth_rule(truth), *level_rule_list(pred, quantile, crossing)]
        rows = door.per_instance([*lists, y.first().alias(TRUTH)], rules).explode(
            [PRED, LEVEL, *([WEIGHT] if weight else [])]
        )
    w = pl.col(WEIGHT) if weight else pl.lit(1.0)
    mass = w.sum() if weight else pl.len().cast(pl.Float64)
    checks = [] if door.enforced else door.checks.aggs()
    out = rows.group_by(*door.gkeys, LEVEL).agg(
        ((w * pinball(y, x, level)).sum() / positive_part(mass)).alias("pinball_loss"),
        ((w * (y <= x).cast(pl.Float64)).sum() / positive_part(mass)).alias("coverage"),
        *checks,
    )
    names = [] if door.enforced else door.checks.names
    out = out.select(*door.gkeys, pl.col(LEVEL).alias("quantile"), *outputs[1:], *names)
    return door.done(out, "quantile")


@frame_function
def weighted_interval_score(
    data: IntoFrame,
    truth: str,
    pred: str,
    quantile: str,
    instance: str | list[str],
    *,
    by: Keys = None,
    crossing: Crossing = "error",
) -> Frame:
    """Weighted interval score (WIS) of quantile forecasts: the mean over instances of a
    weighted sum of the absolute error of the median and the interval scores of the central
    prediction intervals.

    Each instance must give the median (level 0.5) and K ≥ 0 symmetric pairs of levels
    (α/2, 1 − α/2) — the format of the COVID-19 Forecast Hubs. The score is a proper scoring
    rule and approximates the CRPS as the number of levels grows.

    Parameters
    ----------
    data, pred
        As in :func:`quantile_scores`.
    truth
        Column with the true value (numeric, finite; one value per instance).
    quantile
        Column with the level, in (0, 1). Per instance the levels must include 0.5, be
        symmetric (τ given ⇔ 1 − τ given, compared on a grid of 10⁻⁶) and not repeat.
    instance
        Column(s) naming the forecast a row belongs to (within each ``by`` group).
    by
        Key column(s); one result per group.
    crossing
        ``"error"`` (default) or ``"sort"``, as in :func:`quantile_scores`.

    Returns
    -------
    Same kind as ``data`` with columns ``*by, wis``, sorted by the keys.

    Notes
    -----
    With the median m and the central (1 − α_k) intervals [l_k, u_k], k = 1…K (Bracher et al.
    2021, eq 3 with the weights w₀ = 1/2, w_k = α_k/2):

        WIS(F, y) = (½·|y − m| + Σ_k (α_k/2)·IS_{α_k}(l_k, u_k; y)) / (K + ½),

    with IS the interval score (:func:`interval_score`). Because (α/2)·IS_α equals the pinball
    losses of l at level α/2 plus u at level 1 − α/2, and ½|y − m| is the pinball loss at 0.5,

        WIS(F, y) = 2 · (1 / (2K + 1)) · Σ_τ ρ_τ(y − q_τ),

    twice the mean pinball loss over the 2K + 1 levels — which is how it is computed here
    (and tested against the interval form). The result is the mean of WIS over the
    instances of a group. Range [0, ∞), lower is better; in the units of the truth.

    References
    ----------
    Bracher, J., Ray, E. L., Gneiting, T., & Reich, N. G. (2021). Evaluating epidemic
    forecasts in an interval format. PLoS Computational Biology 17(2), e1008618.

    See Also
    --------
    quantile_scores, interval_score, crps

    Examples
    --------
    >>> df = fe.datasets.quantile_forecasts()
    >>> round(fe.weighted_interval_score(df, truth="y", pred="f", quantile="q",
    ...                                  instance="id").item(), 6)
    0.6
    """
    func = "weighted_interval_score"
    check_names(func, "quantile", quantile, required=True)
    crossing = check_either(func, "crossing", crossing, "error", "sort")
    grid = on_grid(pl.col(LEVEL))
    rules = [
        *level_rule_list(pred, quantile, crossing),
        Rule(
            ~(grid == GRID // 2).any(),
            f"column {quantile!r} (quantile=) must include the median 0.5 for every instance, "
            "got none for",
        ),
        Rule(
            ~(grid.sort() == (GRID - grid).sort()).all(),
            f"column {quantile!r} (quantile=) must hold symmetric levels (τ and 1 − τ) for "
            "every instance, got an unpaired level for",
        ),
    ]
    y, x, level = pl.col(TRUTH), pl.col(PRED), pl.col(LEVEL)
    if crossing == "sort":  # the monotone rearrangement: sorted values at the sorted levels
        x, level = x.sort(), level.sort()
    wis = 2.0 * pinball(y, x, level).mean()  # y is one value per instance (a rule)
    return instance_mean(data, func, wis.alias("wis"), rules, truth, pred, by, instance, quantile)


__all__ = ["quantile_scores", "weighted_interval_score"]
