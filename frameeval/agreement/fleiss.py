"""Fleiss' κ: the agreement of a fixed number of raters per item on nominal categories."""

from __future__ import annotations

from typing import Any

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import Checks, enforce, failure, group_text, is_label_dtype
from frameeval.agreement._common import (
    Ratings,
    category_counts,
    divide,
    estimates,
    finish_result,
    open_ratings,
)
from frameeval.exceptions import InvalidDtypeError, InvalidValueError

__all__ = ["fleiss_kappa"]

NAME = "fleiss_kappa"


def label_rule(func: str, rating: str) -> Any:
    """The rating of a nominal statistic: category labels; categoricals read as strings."""

    def rule(schema: pl.Schema, checks: Checks) -> pl.Expr:
        dtype = schema[rating]
        if not is_label_dtype(dtype):
            raise InvalidDtypeError(
                f"{func}(): column {rating!r} (rating=) must hold category labels (integer, "
                f"string, boolean, categorical or float), got {dtype}."
            )
        checks.finite(rating, "rating", dtype, nulls=True, nan_hint="a missing rating is null")
        if isinstance(dtype, pl.Categorical | pl.Enum):
            return pl.col(rating).cast(pl.String)
        return pl.col(rating)

    return rule


def _kappa(r: Ratings, table: pl.LazyFrame, groups: list[str]) -> pl.LazyFrame:
    """``*groups, fleiss_kappa`` from the weighted category counts ``table`` (``*groups, item,
    rating, __fe_n, __fe_m, __fe_w``)."""
    w, n, m = pl.col("__fe_w"), pl.col("__fe_n"), pl.col("__fe_m")
    per_item = table.group_by([*groups, r.item]).agg(
        w.first(), m.first(), (n * n).sum().alias("__fe_s2")
    )
    agreement = divide(pl.col("__fe_s2") - m, m * (m - 1.0))
    totals = per_item.group_by(groups).agg(
        w.sum().alias("__fe_total"),
        (w * agreement).sum().alias("__fe_p"),
        agreement.null_count().alias("__fe_undefined"),
        m.first(),
    )
    shares = table.group_by([*groups, r.rating]).agg((w * n).sum().alias("__fe_nc"))
    chance = shares.group_by(groups).agg((pl.col("__fe_nc") ** 2).sum().alias("__fe_sq"))
    totals = totals.join(chance, on=groups, how="inner", nulls_equal=True)
    total = pl.col("__fe_total")
    observed = pl.when(pl.col("__fe_undefined") == 0).then(pl.col("__fe_p") / total)
    expected = pl.col("__fe_sq") / (total * m) ** 2
    kappa = divide(observed - expected, 1.0 - expected)
    return totals.select(*groups, kappa.alias(NAME))


@frame_function
def fleiss_kappa(
    data: IntoFrame,
    *,
    rater: str = "rater",
    item: str = "item",
    rating: str = "rating",
    by: Keys = None,
    ci: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    cluster: str | None = None,
) -> Frame:
    """Fleiss' κ: agreement of m raters per item on nominal categories, beyond chance.

    Every item of a group is rated by the same number m of raters (not necessarily the same
    raters); κ compares the share of agreeing rater pairs per item with the share expected
    from the pooled category frequencies.

    Parameters
    ----------
    data
        Long ratings table, one row per (``by`` keys, item, rater). A null rating is a missing
        one; every item must then still have the same number of ratings (use
        :func:`krippendorff_alpha` for a varying number).
    rater, item, rating
        Columns: who rated, what was rated, the category given.
    by
        Key column(s): one κ per group.
    ci, n_resamples, seed, cluster
        Cluster-bootstrap percentile interval, as in :func:`krippendorff_alpha`.

    Returns
    -------
    Same kind as ``data``: ``*by, fleiss_kappa, n_items, n_raters`` (and ``ci_low, ci_high``
    with ``ci=``), one row per group, sorted by the keys.

    * ``fleiss_kappa`` — κ (Float64) in [−1/(m − 1), 1]: 1 is perfect agreement, 0 chance
      agreement; null when undefined.
    * ``n_items`` — items with at least one rating (Int64).
    * ``n_raters`` — distinct raters with a rating in the group (Int64).
    * ``ci_low``, ``ci_high`` — the percentile interval of κ over the bootstrap replicates.

    Notes
    -----
    With n_ij the raters who gave item i category j, N items and m ratings per item:

        P_i = (Σ_j n_ij² − m) / (m (m − 1)),   P̄ = Σ_i P_i / N,
        p_j = Σ_i n_ij / (N m),   P̄_e = Σ_j p_j²,   κ = (P̄ − P̄_e) / (1 − P̄_e).

    Undefined (null): m = 1 (no pair of ratings), or one category only (P̄_e = 1). An item
    with no rating at all is left out; items with different numbers of ratings in a group are
    an error (:class:`~frameeval.exceptions.InvalidValueError`).

    Bootstrap: items (or clusters) get Poisson(1) replicate weights and κ is recomputed per
    group × replicate in one plan (see :func:`krippendorff_alpha`).

    References
    ----------
    Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychological
    Bulletin 76(5). Fleiss, Levin & Paik (2003), *Statistical Methods for Rates and
    Proportions*, 3rd ed., §18.

    See Also
    --------
    krippendorff_alpha, cohen_kappa

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "rater": ["a", "b", "c"] * 3,
    ...     "item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
    ...     "rating": ["yes", "yes", "yes", "no", "no", "yes", "no", "no", "no"],
    ... })
    >>> fe.agreement.fleiss_kappa(df).with_columns(pl.col("fleiss_kappa").round(4)).row(0)
    (0.55, 3, 3)
    """
    func = "fleiss_kappa"
    rule = label_rule(func, rating)
    r = open_ratings(data, func, rule, rater, item, rating, by, ci, n_resamples, seed, cluster)
    m = pl.col("__fe_m")
    sizes = (
        r.items.filter(m > 0)
        .group_by(r.groups)
        .agg(
            m.min().alias("__fe_low"),
            m.max().alias("__fe_high"),
            pl.len().cast(pl.Int64).alias("n_items"),
        )
    )
    sizes = enforce(
        sizes,
        failure(
            pl.col("__fe_low") != pl.col("__fe_high"),
            InvalidValueError,
            f"{func}(): every item must have the same number of ratings (Fleiss' kappa), got "
            "{} to {} ratings per item{}.\nHint: krippendorff_alpha() takes a varying number "
            "of ratings per item.",
            pl.col("__fe_low"),
            pl.col("__fe_high"),
            group_text(r.keys),
        ),
    ).select(*r.groups, "n_items")
    estimate, reps = estimates(r, category_counts(r, 1), lambda t, g: _kappa(r, t, g))
    estimate = estimate.join(sizes, on=r.groups, how="inner", nulls_equal=True)
    return finish_result(r, estimate, NAME, reps, ["n_items", "n_raters"])
