"""Krippendorff's α for any number of raters, missing ratings and four levels of measurement."""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import Checks
from frameeval.agreement._common import (
    Ratings,
    bad_level,
    category_counts,
    divide,
    estimates,
    finish_result,
    open_ratings,
)
from frameeval.agreement.fleiss import label_rule
from frameeval.exceptions import InvalidDtypeError, InvalidValueError

__all__ = ["krippendorff_alpha"]

LEVELS = ("nominal", "ordinal", "interval", "ratio")
NAME = "krippendorff_alpha"


def _rule(func: str, rating: str, level: str) -> Any:
    """The rating at ``level``: category labels (nominal, as Fleiss'), else numbers (Float64);
    a ratio scale's are >= 0."""
    if level == "nominal":
        return label_rule(func, rating)

    def rule(schema: pl.Schema, checks: Checks) -> pl.Expr:
        dtype = schema[rating]
        if not (dtype.is_integer() or dtype.is_float()):
            raise InvalidDtypeError(
                f"{func}(): column {rating!r} (rating=) must be numeric (integer or float) for "
                f"level={level!r}, got {dtype}.\nHint: level='nominal' takes category labels; "
                "code ordered categories as integers for level='ordinal'."
            )
        checks.finite(rating, "rating", dtype, nulls=True, nan_hint="a missing rating is null")
        if level == "ratio" and not dtype.is_unsigned_integer():
            checks.rule(
                pl.col(rating) < 0,
                InvalidValueError,
                f"column {rating!r} (rating=) must be >= 0 for level='ratio' (a ratio scale "
                "starts at a true zero), got",
                example=pl.col(rating),
            )
        return pl.col(rating).cast(pl.Float64)

    return rule


def _alpha(r: Ratings, table: pl.LazyFrame, groups: list[str], level: str) -> pl.LazyFrame:
    """``*groups, krippendorff_alpha, __fe_items`` from the weighted value counts ``table``
    (``*groups, item, rating, __fe_n, __fe_m, __fe_w``: n_uc, m_u and the item's weight)."""
    item, value = r.item, r.rating
    w, n_uc, m = pl.col("__fe_w"), pl.col("__fe_n"), pl.col("__fe_m")
    marginal = table.group_by([*groups, value]).agg((w * n_uc).sum().alias("__fe_nc"))
    nc = pl.col("__fe_nc")
    if level == "ratio":
        return _alpha_ratio(r, table, marginal, groups)
    if level == "ordinal":
        # δ_ck = M_k − M_c with M_c = Σ_{g ≤ c} n_g − n_c / 2 (the ordinal metric as an
        # interval one on the mid-cumulative marginal counts)
        cum = nc.cum_sum().over(groups, order_by=value)
        marks = marginal.with_columns((cum - nc / 2.0).alias("__fe_x"))
        table = table.join(marks.select(*groups, value, "__fe_x"), on=[*groups, value], how="inner")
        x = pl.col("__fe_x")
    else:
        x = pl.col(value)
    if level == "nominal":
        per_item = table.group_by([*groups, item]).agg(
            m.first(), w.first(), (n_uc * n_uc).sum().alias("__fe_s2")
        )
        observed = (m * m - pl.col("__fe_s2")) / (m - 1.0)
        totals = per_item.group_by(groups).agg(
            (w * observed).sum().alias("__fe_do"),
            (w * m).sum().alias("__fe_total"),
            pl.len().cast(pl.Int64).alias("__fe_items"),
        )
        squares = marginal.group_by(groups).agg((nc * nc).sum().alias("__fe_sq"))
        totals = totals.join(squares, on=groups, how="inner", nulls_equal=True)
        expected = pl.col("__fe_total") ** 2 - pl.col("__fe_sq")
    else:  # interval, ordinal: squared differences, from sums of x and x² per item
        per_item = table.group_by([*groups, item]).agg(
            m.first(),
            w.first(),
            (n_uc * x).sum().alias("__fe_s1"),
            (n_uc * x * x).sum().alias("__fe_s2"),
        )
        s1, s2 = pl.col("__fe_s1"), pl.col("__fe_s2")
        observed = 2.0 * (m * s2 - s1 * s1) / (m - 1.0)
        totals = per_item.group_by(groups).agg(
            (w * observed).sum().alias("__fe_do"),
            (w * m).sum().alias("__fe_total"),
            (w * s1).sum().alias("__fe_a"),
            (w * s2).sum().alias("__fe_q"),
            pl.len().cast(pl.Int64).alias("__fe_items"),
        )
        a, q = pl.col("__fe_a"), pl.col("__fe_q")
        expected = 2.0 * (pl.col("__fe_total") * q - a * a)
    n = pl.col("__fe_total")
    alpha = 1.0 - divide((n - 1.0) * pl.col("__fe_do"), expected)
    return totals.select(*groups, alpha.alias(NAME), "__fe_items")


def _alpha_ratio(
    r: Ratings, table: pl.LazyFrame, marginal: pl.LazyFrame, groups: list[str]
) -> pl.LazyFrame:
    """Ratio level: δ²_ck = ((c − k) / (c + k))², summed over the coincidences of each item
    (pairs of distinct values) and over the pairs of marginal values of each group."""
    item, value = r.item, r.rating

    def delta2(c: pl.Expr, k: pl.Expr) -> pl.Expr:
        return pl.when(c + k > 0).then(((c - k) / (c + k)) ** 2).otherwise(0.0)

    left = table.select(*groups, item, value, "__fe_n", "__fe_m", "__fe_w")
    right = table.select(
        *groups, item, pl.col(value).alias("__fe_k"), pl.col("__fe_n").alias("__fe_nk")
    )
    pairs = left.join(right, on=[*groups, item], how="inner", nulls_equal=True).filter(
        pl.col(value) != pl.col("__fe_k")
    )
    contribution = (
        pl.col("__fe_w")
        * pl.col("__fe_n")
        * pl.col("__fe_nk")
        / (pl.col("__fe_m") - 1.0)
        * delta2(pl.col(value), pl.col("__fe_k"))
    )
    observed = pairs.group_by(groups).agg(contribution.sum().alias("__fe_do"))
    other = marginal.select(
        *groups, pl.col(value).alias("__fe_k"), pl.col("__fe_nc").alias("__fe_nk")
    )
    grid = marginal.join(other, on=groups, how="inner", nulls_equal=True)
    expected = grid.group_by(groups).agg(
        (pl.col("__fe_nc") * pl.col("__fe_nk") * delta2(pl.col(value), pl.col("__fe_k")))
        .sum()
        .alias("__fe_de")
    )
    total = marginal.group_by(groups).agg(pl.col("__fe_nc").sum().alias("__fe_total"))
    per_item = table.group_by([*groups, item]).agg(pl.col("__fe_w").first())
    counted = per_item.group_by(groups).agg(pl.len().cast(pl.Int64).alias("__fe_items"))
    out = expected.join(observed, on=groups, how="left", nulls_equal=True)
    out = out.join(counted, on=groups, how="inner", nulls_equal=True)
    out = out.join(total, on=groups, how="inner", nulls_equal=True)
    alpha = 1.0 - divide(
        (pl.col("__fe_total") - 1.0) * pl.col("__fe_do").fill_null(0.0), pl.col("__fe_de")
    )
    return out.select(*groups, alpha.alias(NAME), "__fe_items")


@frame_function
def krippendorff_alpha(
    data: IntoFrame,
    *,
    rater: str = "rater",
    item: str = "item",
    rating: str = "rating",
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    by: Keys = None,
    ci: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    cluster: str | None = None,
) -> Frame:
    """Krippendorff's α: the agreement of any number of raters, with missing ratings.

    α = 1 − D_o / D_e compares the disagreement observed between the ratings of the same item
    with the disagreement expected by chance (all pairable ratings of the group pooled). It
    takes any number of raters, items rated by some raters only, and a distance fitting the
    level of measurement.

    Parameters
    ----------
    data
        Long ratings table, one row per (``by`` keys, item, rater); a null rating is a missing
        one (that rater did not rate that item).
    rater, item, rating
        Columns: who rated, what was rated, the rating. ``rating`` holds category labels for
        ``level="nominal"`` and numbers for the other levels (≥ 0 for ``"ratio"``).
    level
        ``"nominal"`` (δ² = 1 for different categories), ``"ordinal"`` (δ²_ck = (Σ_{g=c..k}
        n_g − (n_c + n_k)/2)², ranks of the observed values), ``"interval"`` (δ² = (c − k)²)
        or ``"ratio"`` (δ² = ((c − k)/(c + k))²).
    by
        Key column(s): one α per group.
    ci
        Confidence level of a cluster-bootstrap percentile interval (e.g. 0.95); None (the
        default) computes no interval.
    n_resamples
        Bootstrap replicates (with ``ci=``).
    seed
        Integer seed of the bootstrap.
    cluster
        Column grouping items into clusters (passages, conversations…): the bootstrap resamples
        clusters instead of items. Each item must lie in one cluster.

    Returns
    -------
    Same kind as ``data``: ``*by, krippendorff_alpha, n_items, n_raters`` (and ``ci_low,
    ci_high`` with ``ci=``), one row per group, sorted by the keys.

    * ``krippendorff_alpha`` — α (Float64): 1 is perfect agreement, 0 agreement at chance
      level, negative systematic disagreement; null when undefined (see Notes).
    * ``n_items`` — the pairable items: items with at least two ratings (Int64).
    * ``n_raters`` — raters with at least one rating in the group (Int64).
    * ``ci_low``, ``ci_high`` — the percentile interval of α over the bootstrap replicates.

    Notes
    -----
    With n_uc the number of ratings of value c on item u and m_u = Σ_c n_uc, only *pairable*
    items (m_u ≥ 2) count: an item with a single rating gives no pair and is dropped, as
    Krippendorff prescribes. The coincidence matrix is o_ck = Σ_u n_uc (n_uk − [c = k]) /
    (m_u − 1), its marginals n_c = Σ_k o_ck and n = Σ_c n_c; then

        α = 1 − (n − 1) · Σ_{c,k} o_ck δ²_ck / Σ_{c,k} n_c n_k δ²_ck.

    Nominal, ordinal and interval α are computed from per-item sums (Σ n_uc², Σ n_uc x,
    Σ n_uc x², with x the value or, for ordinal, M_c = Σ_{g ≤ c} n_g − n_c/2), so the cost is
    linear in rows for any number of distinct values; ratio α sums over value pairs (per item,
    and distinct values² per group).

    Undefined (null): a group with no pairable item, or with one distinct value only (D_e = 0;
    the ``krippendorff`` package raises there).

    Bootstrap: replicate b gives every resampling unit (item, or cluster) a Poisson(1) weight
    (:func:`frameeval.uncertainty.intervals.replicate_frame`; the Poisson bootstrap of Hanley &
    MacGibbon 2006) and α is recomputed on the weighted coincidences, for all groups and
    replicates in one plan. The k items of a group with identical ratings share one
    Poisson(k) weight (the sum of their Poisson(1) weights: the same distribution), so a
    replicate costs one row per distinct rating profile, not per item. The interval is the percentile interval (linear interpolation);
    undefined replicates are left out.

    References
    ----------
    Krippendorff (2011), "Computing Krippendorff's alpha-reliability", Annenberg School for
    Communication Departmental Papers 43. Hayes & Krippendorff (2007), "Answering the call for
    a standard reliability measure for coding data", Communication Methods and Measures 1(1).

    See Also
    --------
    fleiss_kappa, cohen_kappa

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "rater": ["a", "b", "c"] * 3,
    ...     "item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...     "rating": [1, 1, 1, 2, 2, None, 1, 2, 2],
    ... })
    >>> fe.agreement.krippendorff_alpha(df).row(0)
    (0.5625, 3, 3)
    """
    func = "krippendorff_alpha"
    if level not in LEVELS:
        raise bad_level(func, "level", LEVELS, level)
    rule = _rule(func, rating, level)
    r = open_ratings(data, func, rule, rater, item, rating, by, ci, n_resamples, seed, cluster)
    pairable = category_counts(r, 2)  # the items with two ratings or more
    estimate, reps = estimates(r, pairable, lambda t, g: _alpha(r, t, g, level))
    estimate = estimate.rename({"__fe_items": "n_items"})
    return finish_result(r, estimate, NAME, reps, ["n_items", "n_raters"])
