"""Cohen's κ between two raters, unweighted or with linear / quadratic disagreement weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import Checks, check_parameter
from frameeval.agreement._common import (
    Ratings,
    bad_level,
    divide,
    finish_result,
    open_ratings,
    weighted,
)
from frameeval.agreement.fleiss import label_rule

__all__ = ["cohen_kappa"]

NAME = "cohen_kappa"
WEIGHTS = (None, "linear", "quadratic")
PAIR = ["rater_a", "rater_b"]


def _disagreement(i: pl.Expr, j: pl.Expr, weights: str | None) -> pl.Expr:
    if weights is None:
        return (i != j).cast(pl.Float64)
    if weights == "linear":
        return (i - j).abs()
    return (i - j) ** 2


def _kappa(cells: pl.LazyFrame, groups: list[str], weights: str | None) -> pl.LazyFrame:
    """``*groups, cohen_kappa`` from the (weighted) confusion counts ``cells`` (``*groups,
    __fe_i, __fe_j, __fe_c``: the positions of rater a's and rater b's labels, the count)."""
    i, j, c = pl.col("__fe_i"), pl.col("__fe_j"), pl.col("__fe_c")
    observed = cells.group_by(groups).agg(
        (c * _disagreement(i, j, weights)).sum().alias("__fe_do"), c.sum().alias("__fe_total")
    )
    rows = cells.group_by([*groups, "__fe_i"]).agg(c.sum().alias("__fe_row"))
    columns = cells.group_by([*groups, "__fe_j"]).agg(c.sum().alias("__fe_col"))
    grid = rows.join(columns, on=groups, how="inner", nulls_equal=True)
    expected = grid.group_by(groups).agg(
        (pl.col("__fe_row") * pl.col("__fe_col") * _disagreement(i, j, weights))
        .sum()
        .alias("__fe_de")
    )
    out = observed.join(expected, on=groups, how="inner", nulls_equal=True)
    kappa = 1.0 - divide(pl.col("__fe_do") * pl.col("__fe_total"), pl.col("__fe_de"))
    return out.select(*groups, kappa.alias(NAME))


def _positions(cells: pl.LazyFrame, labels: pl.LazyFrame, at: list[str]) -> pl.LazyFrame:
    """``cells`` (by label values ``__fe_va``, ``__fe_vb``) with the labels' positions."""
    for side, name in (("__fe_va", "__fe_i"), ("__fe_vb", "__fe_j")):
        cells = cells.join(
            labels.select(*at, pl.col("__fe_v").alias(side), pl.col("__fe_pos").alias(name)),
            on=[*at, side],
            how="inner",
            nulls_equal=True,
        )
    return cells


@frame_function
def cohen_kappa(
    data: IntoFrame,
    *,
    rater: str = "rater",
    item: str = "item",
    rating: str = "rating",
    raters: Sequence[Any] | None = None,
    weights: Literal["linear", "quadratic"] | None = None,
    by: Keys = None,
    ci: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    cluster: str | None = None,
) -> Frame:
    """Cohen's κ between two raters on the items both rated, for one pair or every pair.

    Parameters
    ----------
    data
        Long ratings table, one row per (``by`` keys, item, rater); a null rating is missing.
    rater, item, rating
        Columns: who rated, what was rated, the category given.
    raters
        ``(a, b)``: the one pair to compare (a is ``rater_a``); None (default): every pair of
        raters of each group, ``rater_a < rater_b``.
    weights
        None (unweighted: every disagreement counts 1), ``"linear"`` (|i − j|) or
        ``"quadratic"`` ((i − j)²), with i, j the positions of the two labels in the sorted
        labels the pair used (scikit-learn's ``cohen_kappa_score(weights=)``).
    by
        Key column(s): one κ per group and pair.
    ci, n_resamples, seed, cluster
        Cluster-bootstrap percentile interval, as in :func:`krippendorff_alpha`.

    Returns
    -------
    Same kind as ``data``: ``*by, rater_a, rater_b, cohen_kappa, n_items`` (and ``ci_low,
    ci_high`` with ``ci=``), one row per group and pair of raters with a shared item, sorted.

    * ``cohen_kappa`` — κ (Float64): 1 perfect agreement, 0 chance agreement; null when
      undefined (both raters gave one and the same label to every item: no disagreement is
      expected).
    * ``n_items`` — items rated by both (Int64).

    Notes
    -----
    With O the confusion counts of the pair (rows rater a), E_ij = O_i· O_·j / N and
    disagreement weights d_ij (1 − [i = j], |i − j| or (i − j)²):

        κ = 1 − Σ d_ij O_ij / Σ d_ij E_ij,

    which is (p_o − p_e) / (1 − p_e) unweighted. The label positions are fixed by the pair's
    data; a bootstrap replicate keeps them (it does not renumber labels it happens to miss).

    Bootstrap (``ci=``): each pair's shared items are resampled with Poisson(1) weights, the
    items of a pair with the same two labels sharing one Poisson(k) weight (so a replicate
    costs one row per cell of the pair's confusion table); with ``cluster=`` the clusters are
    resampled, the same draw for every pair.

    References
    ----------
    Cohen (1960), "A coefficient of agreement for nominal scales", Educational and
    Psychological Measurement 20(1). Cohen (1968), "Weighted kappa", Psychological Bulletin
    70(4).

    See Also
    --------
    fleiss_kappa, krippendorff_alpha, frameeval.cohen_kappa : κ between truth and prediction.

    Examples
    --------
    >>> df = pl.DataFrame({
    ...     "rater": ["a", "b"] * 4,
    ...     "item": [1, 1, 2, 2, 3, 3, 4, 4],
    ...     "rating": [1, 1, 2, 2, 3, 2, 1, 1],
    ... })
    >>> fe.agreement.cohen_kappa(df).row(0)
    ('a', 'b', 0.6, 4)
    """
    func = "cohen_kappa"
    if weights not in WEIGHTS:
        raise bad_level(func, "weights", WEIGHTS, weights)
    pair: list[Any] | None = None
    if raters is not None:
        ok = isinstance(raters, Sequence) and not isinstance(raters, str) and len(raters) == 2
        check_parameter(ok, func, f"raters must be a pair (a, b) or None, got {raters!r}.")
        pair = list(raters)
        check_parameter(
            pair[0] != pair[1], func, f"raters must name two different raters, got {raters!r}."
        )
    nominal = label_rule(func, rating)

    def rule(schema: pl.Schema, checks: Checks) -> pl.Expr:
        value = nominal(schema, checks)
        for who in pair or []:
            checks.present(
                pl.col(rater) == pl.lit(who),
                f"raters= must name raters of column {rater!r}, got {who!r}, which rated nothing",
            )
        return value

    r = open_ratings(data, func, rule, rater, item, rating, by, ci, n_resamples, seed, cluster)
    pairs = _pairs(r, pair)
    at = [*r.groups, *PAIR]
    values = ["__fe_va", "__fe_vb"]
    # the confusion counts of every pair (cached: the labels, the estimate and n_items read it)
    cells = pairs.group_by([*at, *values]).agg(pl.len().cast(pl.Float64).alias("__fe_c")).cache()
    labels = cells.select(*at, pl.concat_list(values).alias("__fe_v")).explode("__fe_v").unique()
    labels = labels.with_columns(
        (pl.col("__fe_v").rank("dense").over(at) - 1).cast(pl.Float64).alias("__fe_pos")
    )
    counted = cells.group_by(at).agg(pl.col("__fe_c").sum().cast(pl.Int64).alias("n_items"))
    estimate = _kappa(_positions(cells, labels, at), at, weights)
    estimate = estimate.join(counted, on=at, how="inner", nulls_equal=True)
    reps = None
    if r.ci is not None:
        table, groups = weighted(r, pairs, True, PAIR)
        drawn = table.group_by([*groups, *values]).agg(pl.col("__fe_w").sum().alias("__fe_c"))
        reps = _kappa(_positions(drawn, labels, at), groups, weights)
    return finish_result(r, estimate, NAME, reps, ["n_items"], PAIR)


def _pairs(r: Ratings, pair: list[Any] | None) -> pl.LazyFrame:
    """``*groups, item, __fe_unit, rater_a, rater_b, __fe_va, __fe_vb``: the items both raters
    of a pair rated, with their two ratings."""
    on = [*r.groups, r.item]
    left = r.rows.select(*on, pl.col(r.rater).alias("rater_a"), pl.col(r.rating).alias("__fe_va"))
    right = r.rows.select(*on, pl.col(r.rater).alias("rater_b"), pl.col(r.rating).alias("__fe_vb"))
    if pair is None:
        joined = left.join(right, on=on, how="inner", nulls_equal=True).filter(
            pl.col("rater_a") < pl.col("rater_b")
        )
    else:
        left = left.filter(pl.col("rater_a") == pl.lit(pair[0]))
        right = right.filter(pl.col("rater_b") == pl.lit(pair[1]))
        joined = left.join(right, on=on, how="inner", nulls_equal=True)
    units = r.items.select(*on, "__fe_unit")
    return joined.join(units, on=on, how="inner", nulls_equal=True)
