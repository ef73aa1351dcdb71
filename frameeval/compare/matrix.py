"""The multiple comparison matrix (MCM) of Ismail-Fawaz et al. (2023): every ordered pair of
learners with its mean difference, wins / ties / losses over the blocks and a corrected
Wilcoxon signed-rank p-value."""

from __future__ import annotations

from typing import Literal

import polars as pl

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval.compare._pairs import pair_table
from frameeval.compare.cells import Long
from frameeval.compare.door import open_frame, resolve_direction
from frameeval.compare.effect_size import effect_aggs, effect_columns
from frameeval.compare.plan import check_choice
from frameeval.compare.precision import RANK_DIGITS, check_digits, rounded_difference
from frameeval.compare.results import MATRIX

__all__ = ["comparison_matrix"]


@frame_function
def comparison_matrix(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    correction: Literal["holm", "bonferroni"] | None = "holm",
    zero_method: Literal["pratt", "wilcox", "zsplit"] = "pratt",
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """The multiple comparison matrix (MCM): every ordered pair of learners over the blocks.

    Ismail-Fawaz et al. (2023) replace the critical-difference diagram's ranks — which change
    when a learner is added to or removed from the comparison — by pairwise statistics that do
    not depend on the other learners: for each pair, the mean difference, the counts of blocks
    (data sets) each one wins, and the Wilcoxon signed-rank p-value of the pair.
    ``charts.comparison_matrix`` draws the frame as a heatmap.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per block × learner (× ``by`` group), a complete table.
    metric
        Column with the metric values.
    block, learner
        Columns naming the block (data set) and the learner.
        ``None``: the column with a common name of that role (``block``, ``dataset``…;
        ``learner``, ``model``…), as in :func:`friedman`.
    by
        Key column(s): one matrix per group (e.g. per metric or data-set family).
    higher_is_better
        Direction of ``metric``: what counts as a win. Default: the direction of the registered
        measure of the same name; required otherwise.
    correction
        Multiple-testing correction of the k(k − 1)/2 p-values of a group: ``"holm"`` (default;
        Holm's step-down, :func:`holm`), ``"bonferroni"`` (min(1, m·p)) or None
        (``p_adjusted`` = ``p_value``).
    zero_method
        Zero differences in the Wilcoxon test: ``"pratt"`` (default, as the MCM's reference
        implementation: ranked, then dropped), ``"wilcox"`` (dropped before ranking; scipy's
        default) or ``"zsplit"`` (split between R⁺ and R⁻; Demšar) — see :func:`wilcoxon`.
    digits
        Significant digits of the differences that decide wins, ties and losses and that the
        Wilcoxon test ranks (default 12; ``None``: as they are) — see :func:`wilcoxon`.

    Returns
    -------
    Same kind as ``data`` with ``*by, a, b, mean_difference, wins, ties, losses, p_value,
    p_adjusted, cohen_d, cliff_delta``, one row per group and ORDERED pair (a ≠ b: both (A, B) and (B, A)), sorted by
    keys, a, b:

    * ``mean_difference`` — the mean over blocks of a − b (raw; the (B, A) row has the
      opposite sign);
    * ``wins``, ``ties``, ``losses`` — blocks where a is better than b in the metric's
      direction, equal, worse (Int64; the (B, A) row swaps wins and losses);
    * ``p_value`` — the two-sided Wilcoxon signed-rank p-value of the pair (:func:`wilcoxon`
      with ``method="auto"``: exact when at most 50 differences are ranked with no ties or
      zeros, the normal approximation with tie correction otherwise); the same in both rows of
      a pair; null when undefined (every difference 0 under ``"pratt"`` or ``"wilcox"``);
    * ``p_adjusted`` — ``p_value`` corrected over the group's k(k − 1)/2 unordered pairs;
    * ``cohen_d``, ``cliff_delta`` — the pair's effect sizes (d_z and Cliff's δ, as
      :func:`~frameeval.compare.effect_size`; the (B, A) row has the opposite signs).

    Notes
    -----
    The reference implementation (aeon's ``create_multi_comparison_matrix``) reports a
    one-sided ("greater") p-value per ordered cell; this one is two-sided, so a pair's two
    cells agree and the correction's family is the unordered pairs. Values are compared
    exactly: round the metric first if it is reported with few decimals. Needs at least 2
    learners and 2 blocks per group (``InsufficientDataError``).

    References
    ----------
    Ismail-Fawaz, Dempster, Tan, Herrmann, Miller, Schmidt, Berretti, Weber, Devanne,
    Forestier & Webb (2023), "An approach to multiple comparison benchmark evaluations that is
    stable under manipulation of the comparate set", arXiv:2305.11921. Wilcoxon (1945); Holm
    (1979).

    See Also
    --------
    wilcoxon : the pairwise test, with ``adjust="holm"``.
    effect_size : how large each difference is.

    Examples
    --------
    >>> df = pl.DataFrame({"block": [f"d{i}" for i in range(6)] * 2,
    ...                    "learner": ["A"] * 6 + ["B"] * 6,
    ...                    "accuracy": [0.81, 0.72, 0.93, 0.64, 0.85, 0.70,
    ...                                 0.80, 0.70, 0.90, 0.60, 0.80, 0.70]})
    >>> fe.comparison_matrix(df, "accuracy").select("a", "b", "wins", "ties", "losses").rows()
    [('A', 'B', 5, 1, 0), ('B', 'A', 0, 1, 5)]
    """
    block, learner = resolve_roles(
        data, "comparison_matrix", [by, metric], block=block, learner=learner
    )
    func = "comparison_matrix"
    check_choice(correction, ("holm", "bonferroni", None), func, "correction")
    check_choice(zero_method, ("pratt", "wilcox", "zsplit"), func, "zero_method")
    digits = check_digits(digits, func)
    lf, eager, keys, schema = open_frame(data, func, by)
    MATRIX.check(func, keys, block=block, learner=learner)
    hib = resolve_direction(func, metric, higher_is_better)
    table = pair_table(
        Long(lf, schema, func, keys, block, learner, metric), pairs="ordered"
    ).cache()
    pair = [*keys, "a", "b"]
    # the rounded difference as a column: written into each aggregate below, its expression
    # (a few hundred nodes) made Polars plan the query for 0.2 s on a 36-row table
    d = pl.col("__d")
    win, loss = (d > 0, d < 0) if hib else (d < 0, d > 0)
    stats_ = (
        table.with_columns(rounded_difference(pl.col("__va"), pl.col("__vb"), digits).alias("__d"))
        .group_by(pair)
        .agg(
            (pl.col("__va") - pl.col("__vb")).mean().alias("mean_difference"),
            win.sum().cast(pl.Int64).alias("wins"),
            (d == 0).sum().cast(pl.Int64).alias("ties"),
            loss.sum().cast(pl.Int64).alias("losses"),
            *effect_aggs(),
        )
        .with_columns(effect_columns(skip=["mean_difference"]))
    )

    from frameeval.compare.post_hoc import holm
    from frameeval.compare.two_learners import wilcoxon

    # the validated table, once per learner, for the pairwise test (its checks cannot fire)
    cells = (
        table.select(*keys, pl.col("a").alias("__learner"), block, pl.col("__va").alias("__value"))
        .unique(subset=[*keys, "__learner", block])
        .cache()
    )
    tests = wilcoxon(
        cells,
        "__value",
        block=block,
        learner="__learner",
        by=keys or None,
        higher_is_better=hib,
        zero_method=zero_method,
        digits=digits,
    ).select(*pair, "p_value")
    if correction == "holm":
        tests = holm(tests, by=keys or None).select(*pair, "p_value", "p_adjusted")
    elif correction == "bonferroni":
        m = pl.col("p_value").is_not_null().sum().cast(pl.Float64)
        m = m.over(keys) if keys else m
        tests = tests.with_columns(
            pl.when(pl.col("p_value").is_not_null())
            .then(pl.min_horizontal(m * pl.col("p_value"), pl.lit(1.0)))
            .alias("p_adjusted")
        )
    else:
        tests = tests.with_columns(pl.col("p_value").alias("p_adjusted"))
    mirrored = tests.select(
        *keys, pl.col("b").alias("a"), pl.col("a").alias("b"), "p_value", "p_adjusted"
    )
    both = pl.concat([tests.select(*pair, "p_value", "p_adjusted"), mirrored])
    out = stats_.join(both, on=pair, how="left", nulls_equal=True)
    return finish(MATRIX.out(out, keys), eager)
