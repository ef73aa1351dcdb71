"""Effect sizes of two learners compared over paired blocks: how large a difference is, next to
whether a test finds it (the mean difference, Cohen's d_z and Cliff's δ, with their magnitude
words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.compare._pairs import pair_table
from frameeval.compare.cells import Long
from frameeval.compare.door import open_frame
from frameeval.compare.one_learner import ratio
from frameeval.compare.results import EFFECT_COLUMNS, EFFECT_SIZE  # noqa: F401 - charts read it here
from frameeval.compare.scipy_step import mean_std

__all__ = ["effect_size"]


#: Cohen (1988): |d| < 0.2 negligible, < 0.5 small, < 0.8 medium, else large.
COHEN_THRESHOLDS = (0.2, 0.5, 0.8)
#: Romano et al. (2006): |δ| < 0.147 negligible, < 0.33 small, < 0.474 medium, else large.
CLIFF_THRESHOLDS = (0.147, 0.33, 0.474)


def magnitude(value: pl.Expr, thresholds: tuple[float | pl.Expr, ...]) -> pl.Expr:
    """ "negligible" / "small" / "medium" / "large" for |value| against three thresholds (null
    stays null)."""
    size = value.abs()
    small, medium, large = thresholds
    return (
        pl.when(size.is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(size < small)
        .then(pl.lit("negligible"))
        .when(size < medium)
        .then(pl.lit("small"))
        .when(size < large)
        .then(pl.lit("medium"))
        .otherwise(pl.lit("large"))
    )


@frame_function
def effect_size(
    data: IntoFrame,
    metric: str,
    *,
    a: Any = None,
    b: Any = None,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
) -> Frame:
    """Effect sizes of learner a against learner b over paired blocks (data sets or folds).

    A test says whether a difference is real; an effect size says how large it is. For the N
    paired values aᵢ, bᵢ (differences dᵢ = aᵢ − bᵢ):

    * the mean difference d̄, in metric units;
    * Cohen's d_z = d̄ / s_d (s_d the standard deviation of the differences, ddof = 1), the
      standardised mean difference of paired samples — the effect size of the paired t test;
    * Cliff's δ = (#{(i, j): aᵢ > bⱼ} − #{(i, j): aᵢ < bⱼ}) / N², the dominance of a's values
      over b's over all N² pairs — a rank effect size, free of the metric's scale, to report
      next to a rank test (Wilcoxon, Friedman).

    Parameters
    ----------
    data, metric
        As in :func:`frameeval.rank_table`: one row per block × learner (× ``by`` group).
    a, b
        One pair of learners (both), or neither: every pair, each once (a < b in sort order).
    block, learner
        Columns naming the block (data set, or fold) and the learner; every compared learner
        needs a value on every block of its group.
        ``None``: the column with a common name of that role (``block``, ``dataset``…;
        ``learner``, ``model``…), as in :func:`friedman`.
    by
        Key column(s): one set of effect sizes per group.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, n_blocks, mean_difference, cohen_d,
    cohen_d_magnitude, cliff_delta, cliff_delta_magnitude``, one row per group and pair, sorted
    by keys, a, b:

    * ``n_blocks`` — N (Int64); ``mean_difference`` — d̄ = mean of a − b;
    * ``cohen_d`` — d_z (±inf when every difference is the same non-zero value, null when all
      are 0); ``cohen_d_magnitude`` — Cohen's words for |d_z|: "negligible" (< 0.2), "small"
      (< 0.5), "medium" (< 0.8), "large";
    * ``cliff_delta`` — δ in [−1, 1] (1: every value of a exceeds every value of b);
      ``cliff_delta_magnitude`` — Romano et al.'s words for |δ|: "negligible" (< 0.147),
      "small" (< 0.33), "medium" (< 0.474), "large".

    Notes
    -----
    Signs are those of a − b in the metric's own orientation (positive: a has the larger
    values), whatever the metric's direction; the magnitude words do not depend on it.
    Cliff's δ = 2U/N² − 1 with U the Mann–Whitney count of the pooled ranks (ties count 1/2),
    exact for tied values. It compares the two samples of values, ignoring the pairing;
    paired designs whose blocks differ much in level (data sets of different difficulty) may
    prefer d_z or the Bayesian tests. Akinshin's γ (a quantile-based effect size for
    non-normal distributions) is not offered: it needs Harrell–Davis quantile estimates from
    many values per learner, and comparisons over data sets have few. Needs at least 2 learners
    and 2 blocks per group and a complete table (``InsufficientDataError``).

    References
    ----------
    Cohen (1988), *Statistical power analysis for the behavioral sciences*, 2nd ed. Cliff
    (1993), "Dominance statistics: ordinal analyses to answer ordinal questions", Psychological
    Bulletin 114(3). Romano, Kromrey, Coraggio & Skowronek (2006), "Appropriate statistics for
    ordinal level data", annual meeting of the Florida Association of Institutional Research.

    Examples
    --------
    >>> df = pl.DataFrame({"block": [f"d{i}" for i in range(4)] * 2,
    ...                    "learner": ["A"] * 4 + ["B"] * 4,
    ...                    "accuracy": [0.90, 0.80, 0.70, 0.95, 0.85, 0.78, 0.72, 0.90]})
    >>> out = fe.effect_size(df, "accuracy")
    >>> out.select(pl.col("mean_difference").round(6), "cohen_d_magnitude", "cliff_delta").row(0)
    (0.025, 'medium', 0.1875)
    """
    block, learner = resolve_roles(data, "effect_size", [by, metric], block=block, learner=learner)
    func = "effect_size"
    lf, eager, keys, schema = open_frame(data, func, by)
    EFFECT_SIZE.check(func, keys, block=block, learner=learner)
    table = pair_table(Long(lf, schema, func, keys, block, learner, metric), a, b)
    pair = [*keys, "a", "b"]
    out = (
        table.group_by(pair)
        .agg(effect_aggs())
        .with_columns(pl.col("__fe_en").cast(pl.Int64).alias("n_blocks"), *effect_columns())
        .with_columns(
            magnitude(pl.col("cohen_d"), COHEN_THRESHOLDS).alias("cohen_d_magnitude"),
            magnitude(pl.col("cliff_delta"), CLIFF_THRESHOLDS).alias("cliff_delta_magnitude"),
        )
    )
    return finish(EFFECT_SIZE.out(out, keys), eager)


def effect_aggs(a_value: str = "__va", b_value: str = "__vb") -> list[pl.Expr]:
    """The aggregations behind :data:`EFFECT_COLUMNS`, for a group holding one pair's N rows
    (a's and b's values side by side in ``a_value``, ``b_value``): N, d̄, s_d and U.

    U = Σᵢ (#{bⱼ < aᵢ} + ½ #{bⱼ = aᵢ}), the Mann–Whitney count, from two binary searches of each
    aᵢ in b's sorted values — O(N log N), no N² pair table and no pooled ranking. Add them to
    the test's own ``group_by`` and finish with :func:`effect_columns`."""
    mean, std = mean_std(pl.col(a_value) - pl.col(b_value))
    b_sorted = pl.col(b_value).sort()
    below = b_sorted.search_sorted(pl.col(a_value), side="left").cast(pl.Float64)
    upto = b_sorted.search_sorted(pl.col(a_value), side="right").cast(pl.Float64)
    return [
        pl.len().cast(pl.Float64).alias("__fe_en"),
        mean.alias("__fe_emean"),
        std.alias("__fe_es"),
        ((below + upto).sum() / 2.0).alias("__fe_eu"),
    ]


def effect_columns(skip: Sequence[str] = ()) -> list[pl.Expr]:
    """:data:`EFFECT_COLUMNS` (but ``skip``) from the :func:`effect_aggs` columns: d̄; Cohen's
    d_z = d̄ / s_d (``ratio``: ±inf for a constant non-zero difference, null when every
    difference is 0); Cliff's δ = 2U/N² − 1."""
    n = pl.col("__fe_en")
    columns = {
        "mean_difference": pl.col("__fe_emean"),
        "cohen_d": ratio(pl.col("__fe_emean"), pl.col("__fe_es")),
        "cliff_delta": 2.0 * pl.col("__fe_eu") / (n * n) - 1.0,
    }
    return [value.alias(name) for name, value in columns.items() if name not in skip]


def attach_effects(
    out: pl.LazyFrame,
    rows: pl.LazyFrame,
    comparison: Sequence[str],
    a_value: str = "__va",
    b_value: str = "__vb",
) -> pl.LazyFrame:
    """A test's output with the :data:`EFFECT_COLUMNS` of its paired ``rows`` joined on
    ``comparison`` (the keys, plus ``a, b`` when the rows hold several pairs) — for tests whose
    own aggregation is not over those rows (the 5×2cv tests aggregate per repeat)."""
    aggs = effect_aggs(a_value, b_value)
    stats_ = rows.group_by(comparison).agg(aggs) if comparison else rows.select(aggs)
    effects = stats_.select(*comparison, *effect_columns())
    if comparison:
        return out.join(effects, on=list(comparison), how="left", nulls_equal=True)
    return out.join(effects, how="cross")
