"""Many learners over many data sets by their ranks: the rank table (Table 2.5), average ranks
and the Friedman test (chapter 2.4.4, eqs 2.34–2.35).

Input: a long frame of metric values, one row per block (data set) × learner, a complete table
(every learner has a value on every block of its group). Ranks are 1 for the best learner of a
block; tied values share the mean of the ranks they span.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
from scipy import stats

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha, enforce, failure, group_text
from frameeval.compare.cells import cells
from frameeval.compare.door import check_outputs, open_frame, resolve_direction
from frameeval.compare.precision import RANK_DIGITS, check_digits, rounded
from frameeval.compare.scipy_step import scipy_step
from frameeval.exceptions import InsufficientDataError

__all__ = ["average_ranks", "friedman", "rank_table"]

_FRIEDMAN_OUT = [
    "n_learners",
    "n_blocks",
    "chi2",
    "chi2_df",
    "chi2_p_value",
    "chi2_critical_value",
    "chi2_reject",
    "statistic",
    "df1",
    "df2",
    "p_value",
    "critical_value",
    "alpha",
    "reject",
]

#: Demšar (2006, §3.2.2): the χ² approximation of the Friedman statistic is adequate "as a rule
#: of thumb" for N > 10 blocks (and k > 5 learners).
CHI2_MIN_BLOCKS = 10


def ranked(
    data: IntoFrame,
    func: str,
    metric: str,
    block: str,
    learner: str,
    by: Keys,
    higher_is_better: bool | None,
    outputs: list[str],
    digits: int | None = RANK_DIGITS,
) -> tuple[pl.LazyFrame, bool, list[str]]:
    """``*keys, <block>, <learner>, __value, rank`` (rank 1 = best, ties get the mean rank; the
    values are ranked rounded to ``digits`` significant digits)."""
    digits = check_digits(digits, func)
    lf, eager, keys, schema = open_frame(data, func, by)
    check_outputs(func, keys, outputs, block=block, learner=learner)
    hib = resolve_direction(func, metric, higher_is_better)
    cell = cells(lf, schema, func, keys, block, learner, metric)
    rank = rounded(pl.col("__value"), digits).rank("average", descending=hib).over([*keys, block])
    return cell.with_columns(rank.cast(pl.Float64).alias("rank")), eager, keys


def rank_sums(ranks: pl.LazyFrame, keys: list[str], learner: str) -> pl.LazyFrame:
    """``*keys, <learner>, __rank_sum, n_blocks, average_rank`` per learner."""
    return ranks.group_by(*keys, learner).agg(
        pl.col("rank").sum().alias("__rank_sum"),
        pl.len().cast(pl.Int64).alias("n_blocks"),
        pl.col("rank").mean().alias("average_rank"),
    )


def check_design(summary: pl.LazyFrame, func: str, keys: list[str], block: str) -> pl.LazyFrame:
    """k ≥ 2 learners and N ≥ 2 blocks per group (columns ``n_learners``, ``n_blocks``)."""
    return enforce(
        summary,
        failure(
            pl.col("n_learners") < 2,
            InsufficientDataError,
            f"{func}(): needs at least 2 learners, got {{}}{{}}.",
            pl.col("n_learners"),
            group_text(keys),
        ),
        failure(
            pl.col("n_blocks") < 2,
            InsufficientDataError,
            f"{func}(): needs at least 2 blocks ({block!r}), got {{}}{{}}.",
            pl.col("n_blocks"),
            group_text(keys),
        ),
    )


@frame_function
def rank_table(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """The rank of every learner on every block (data set), as in Table 2.5.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        one row per block × learner (× ``by`` group).
    metric
        Column with the metric values.
    block, learner
        Columns naming the block (data set, or fold) and the learner.
    by
        Key column(s): one table per group.
    higher_is_better
        Direction of ``metric``: True ranks the largest value first. Default: the direction of
        the registered measure of the same name (``"accuracy"``, ``"error_rate"``…); required
        otherwise.
    digits
        Significant digits the values are rounded to before they are ranked (default 12), so
        that values equal as decimals tie whatever their floating-point form (0.69 · 100 and
        69; docs/compare.md, "Ties"). ``None`` ranks the floating-point values as they are,
        as scipy does.

    Returns
    -------
    Same kind as ``data`` with ``*by, <block>, <learner>, <metric>, rank``: the metric value
    (Float64) and its rank within the block (Float64: 1 = best; tied values get the mean of the
    ranks they span, e.g. two learners tied for first both get 1.5). Sorted by keys, block and
    learner. Categorical learner names come out as strings.

    Notes
    -----
    Every learner of a group needs exactly one value on every block of the group
    (``InsufficientDataError`` listing the gaps, ``DuplicateKeyError``); metric values must be
    finite (``MissingValueError``).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.5. Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"block": ["D1"] * 3 + ["D2"] * 3, "learner": ["A", "B", "C"] * 2,
    ...                    "accuracy": [0.90, 0.85, 0.80, 0.70, 0.75, 0.75]})
    >>> fe.rank_table(df, "accuracy")["rank"].to_list()
    [1.0, 2.0, 3.0, 3.0, 1.5, 1.5]
    """
    block, learner = resolve_roles(data, "rank_table", [by, metric], block=block, learner=learner)
    func = "rank_table"
    ranks, eager, keys = ranked(
        data, func, metric, block, learner, by, higher_is_better, [metric, "rank"], digits
    )
    out = ranks.select(*keys, block, learner, pl.col("__value").alias(metric), "rank")
    return finish(out.sort([*keys, block, learner], nulls_last=True), eager)


@frame_function
def average_ranks(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Average rank of every learner over the blocks (the last row of Table 2.5).

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`rank_table`.

    Returns
    -------
    Same kind as ``data`` with ``*by, <learner>, average_rank, n_blocks``: rᵢ, the mean over
    the N blocks of the learner's rank (Float64; 1 = best on every block), and N (Int64). Sorted
    by keys and learner. This frame and :func:`nemenyi`'s ``critical_value`` (the CD) are what a
    critical-difference diagram (figure 2.8) draws.

    Notes
    -----
    The average ranks of k learners sum to k(k + 1)/2; under the hypothesis that all learners
    perform the same, each has mean (k + 1)/2 and variance (k² − 1)/(12N) (chapter 2.4.4).

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, Table 2.5. Demšar (2006), JMLR 7, §3.2.2.

    Examples
    --------
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"block": ["D1"] * 3 + ["D2"] * 3, "learner": ["A", "B", "C"] * 2,
    ...                    "accuracy": [0.90, 0.85, 0.80, 0.70, 0.75, 0.75]})
    >>> fe.average_ranks(df, "accuracy").rows()
    [('A', 2.0, 2), ('B', 1.75, 2), ('C', 2.25, 2)]
    """
    block, learner = resolve_roles(
        data, "average_ranks", [by, metric], block=block, learner=learner
    )
    func = "average_ranks"
    ranks, eager, keys = ranked(
        data,
        func,
        metric,
        block,
        learner,
        by,
        higher_is_better,
        ["average_rank", "n_blocks"],
        digits,
    )
    out = rank_sums(ranks, keys, learner).select(*keys, learner, "average_rank", "n_blocks")
    return finish(out.sort([*keys, learner], nulls_last=True), eager)


def _friedman_scipy(
    chi2: np.ndarray,
    statistic: np.ndarray,
    df1: np.ndarray,
    df2: np.ndarray,
    n_blocks: np.ndarray,
    alpha: np.ndarray,
) -> dict[str, np.ndarray]:
    small = n_blocks[np.isfinite(n_blocks) & (n_blocks <= CHI2_MIN_BLOCKS)]
    if small.size:
        warnings.warn(
            f"friedman(): chi2_p_value uses the χ² approximation, which needs more blocks "
            f"(Demšar 2006: N > {CHI2_MIN_BLOCKS}), got N = {int(small.min())}; decide on the "
            "F form (p_value, critical_value, reject), as the book recommends.",
            UserWarning,
            stacklevel=2,
        )
    return {
        "chi2_p_value": stats.chi2.sf(chi2, df1),
        "chi2_critical_value": stats.chi2.isf(alpha, df1),
        "p_value": stats.f.sf(statistic, df1, df2),
        "critical_value": stats.f.isf(alpha, df1, df2),
    }


@frame_function
def friedman(
    data: IntoFrame,
    metric: str,
    *,
    block: str | None = None,
    learner: str | None = None,
    by: Keys = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    digits: int | None = RANK_DIGITS,
) -> Frame:
    """Friedman test of "all learners perform the same" over N blocks (eqs 2.34–2.35).

    With rᵢ the average rank of learner i over N blocks and k learners, under the hypothesis the
    rᵢ have mean (k + 1)/2 and variance (k² − 1)/(12N), and

        τ_χ² = 12N / (k(k + 1)) · (Σᵢ rᵢ² − k(k + 1)²/4)                         (eq 2.34)

    follows (for large k and N) a χ² distribution with k − 1 degrees of freedom. The original
    test is too conservative; the book (after Iman & Davenport 1980) recommends

        τ_F = (N − 1) τ_χ² / (N(k − 1) − τ_χ²)                                  (eq 2.35)

    which follows an F distribution with k − 1 and (k − 1)(N − 1) degrees of freedom.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`rank_table` (the statistics do not depend on the direction; it only sets
        which learner gets rank 1).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with one row per group, sorted by keys: ``*by, n_learners, n_blocks,
    chi2, chi2_df, chi2_p_value, chi2_critical_value, chi2_reject, statistic, df1, df2, p_value,
    critical_value, alpha, reject``:

    * ``n_learners`` = k, ``n_blocks`` = N (Int64);
    * ``chi2`` = τ_χ², ``chi2_df`` = k − 1, ``chi2_p_value`` = P(χ²_{k−1} > τ_χ²),
      ``chi2_critical_value`` = the upper-α quantile, ``chi2_reject`` = τ_χ² > it — the
      original Friedman test, for reference;
    * ``statistic`` = τ_F (formerly repeated as ``f_statistic``, now removed), ``df1`` = k − 1,
      ``df2`` = (k − 1)(N − 1) (Int64), ``p_value`` = P(F > τ_F), ``critical_value`` = the upper-α
      quantile of F(df1, df2) (Table 2.6), ``reject`` = τ_F > critical_value: the unprefixed
      decision columns belong to the F form the book recommends. If rejected, follow up with
      :func:`nemenyi` or :func:`bonferroni_dunn`.

    Notes
    -----
    The book's formula is used as printed: no correction for ties. ``scipy.stats.
    friedmanchisquare`` divides by a tie correction 1 − Σ(t³ − t)/(N k (k² − 1)), so the two
    agree exactly on blocks without ties and scipy's statistic is larger when a block has ties.
    When every block ranks the learners identically (and without ties), τ_χ² = N(k − 1), the
    denominator of eq 2.35 is 0 and τ_F = +inf (``p_value`` 0). The statistics are computed
    from rank sums, exactly for half-integer ranks.

    Needs k ≥ 2 learners and N ≥ 2 blocks per group (``InsufficientDataError``), and a complete
    table (see :func:`rank_table`). For N ≤ 10 blocks a ``UserWarning`` says that
    ``chi2_p_value`` rests on a poor approximation (Demšar 2006, §3.2.2: N > 10, k > 5); for a
    LazyFrame it is emitted when the result is collected.

    References
    ----------
    Zhou Zhihua, *Machine Learning*, §2.4.4, eqs 2.34–2.35, Table 2.6. Friedman (1937), JASA
    32(200); Iman & Davenport (1980), Communications in Statistics A9(6); Demšar (2006), JMLR 7,
    §3.2.2.

    Examples
    --------
    >>> import warnings
    >>> import polars as pl, frameeval as fe
    >>> df = pl.DataFrame({"block": [b for b in "1234" for _ in "ABC"],
    ...                    "learner": list("ABC") * 4,
    ...                    "error_rate": [0.1, 0.2, 0.3, 0.1, 0.3, 0.2,
    ...                                   0.2, 0.1, 0.3, 0.1, 0.2, 0.3]})
    >>> with warnings.catch_warnings(action="ignore"):  # N = 4: too few for the χ² form
    ...     out = fe.friedman(df, "error_rate")
    >>> out.select("chi2", "statistic", "df1", "df2").row(0)
    (4.5, 3.857142857142857, 2, 6)
    """
    block, learner = resolve_roles(data, "friedman", [by, metric], block=block, learner=learner)
    func = "friedman"
    alpha = check_alpha(alpha, func)
    ranks, eager, keys = ranked(
        data, func, metric, block, learner, by, higher_is_better, _FRIEDMAN_OUT, digits
    )
    sums = rank_sums(ranks, keys, learner)
    aggs = [
        pl.len().cast(pl.Int64).alias("n_learners"),
        pl.col("n_blocks").max().alias("n_blocks"),
        (pl.col("__rank_sum") ** 2).sum().alias("__s"),
    ]
    out = sums.group_by(keys).agg(aggs) if keys else sums.select(aggs)
    if not keys:
        out = out.filter(pl.col("n_learners") > 0)
    out = check_design(out, func, keys, block)
    k = pl.col("n_learners").cast(pl.Float64)
    n = pl.col("n_blocks").cast(pl.Float64)
    # τ_χ² · N k (k+1) = 12 Σ R_j² − 3 N² k (k+1)², exact for half-integer rank sums R_j
    scaled = 12.0 * pl.col("__s") - 3.0 * n * n * k * (k + 1.0) ** 2
    norm = n * k * (k + 1.0)
    f_den = n * (k - 1.0) * norm - scaled
    out = out.with_columns(
        (scaled / norm).alias("chi2"),
        (pl.col("n_learners") - 1).alias("chi2_df"),
        pl.when(f_den == 0)
        .then(pl.lit(float("inf")))
        .otherwise((n - 1.0) * scaled / f_den)
        .alias("statistic"),
        (pl.col("n_learners") - 1).alias("df1"),
        ((pl.col("n_learners") - 1) * (pl.col("n_blocks") - 1)).alias("df2"),
        pl.lit(alpha).alias("alpha"),
    )
    out = scipy_step(
        out,
        _friedman_scipy,
        ["chi2", "statistic", "df1", "df2", "n_blocks", "alpha"],
        ["chi2_p_value", "chi2_critical_value", "p_value", "critical_value"],
    )
    out = out.with_columns(
        # statistic vs critical value: the documented rule here (not a p-value; see scipy_step.decide)
        (pl.col("chi2") > pl.col("chi2_critical_value")).alias("chi2_reject"),
        (pl.col("statistic") > pl.col("critical_value")).alias("reject"),
    ).select(*keys, *_FRIEDMAN_OUT)
    return finish(out.sort(keys, nulls_last=True) if keys else out, eager)
