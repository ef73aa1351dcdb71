"""Omnibus rank tests beyond Friedman's: Skillings–Mack (missing results allowed), Friedman's
aligned ranks (Hodges–Lehmann) and Quade's test, and the rank z statistics of their post-hoc
comparisons.

All three take the long frame of :func:`frameeval.friedman` (one metric value per block ×
learner, ``by=`` groups) and return one row per group with ``statistic``, its degrees of
freedom, ``p_value``, ``critical_value``, ``alpha`` and ``reject``. The pairwise comparisons that
follow each of them (García et al. 2010) are :func:`frameeval.compare.multiple.rank_post_hoc`
(``test=`` names the omnibus test), with Holm's, Shaffer's or Bergmann–Hommel's correction.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from frameeval._frame import finish
from frameeval._roles import resolve as resolve_roles
from frameeval._typing import Frame, IntoFrame, Keys, frame_function
from frameeval._validate import check_alpha
from frameeval.compare.door import check_learner_value, open_frame
from frameeval.compare.plan import agg_by_keys, block_pairs, join_on_keys, over_keys, per_group
from frameeval.compare.precision import RANK_DIGITS, check_digits, rounded
from frameeval.compare.ranked import (
    RankInput,
    check_design,
    control_present,
    group_design,
    learner_pairs,
    rank_sums,
    ranked_cells,
)
from frameeval.compare.results import (
    ALIGNED_RANKS,
    FRIEDMAN,
    QUADE,
    RM_ANOVA,
    SKILLINGS_MACK,
    Shape,
)
from frameeval.compare.scipy_step import f_values, scipy_step

__all__ = ["friedman", "friedman_aligned_ranks", "quade", "skillings_mack"]

RankTest = Literal["friedman", "friedman_aligned_ranks", "quade", "skillings_mack"]
RANK_TESTS = ("friedman", "friedman_aligned_ranks", "quade", "skillings_mack")


# ---------------------------------------------------------------------------------------------
# shared steps
# ---------------------------------------------------------------------------------------------
def _chi2_scipy(statistic: np.ndarray, df: np.ndarray, alpha: np.ndarray) -> dict[str, np.ndarray]:
    from scipy import stats

    return {"p_value": stats.chi2.sf(statistic, df), "critical_value": stats.chi2.isf(alpha, df)}


def _decided(
    stats_: pl.LazyFrame, shape: Shape, keys: list[str], eager: bool, compute: Any, alpha: float
) -> Frame:
    """The test's ``alpha``, p-value and critical value (``compute`` on ``statistic``, its
    degrees of freedom and ``alpha``), its ``reject`` and its output columns, sorted by the
    keys."""
    inputs = ["statistic", *(c for c in ("df", "df1", "df2") if c in shape.columns), "alpha"]
    stats_ = stats_.with_columns(pl.lit(alpha).alias("alpha"))
    out = scipy_step(stats_, compute, inputs, ["p_value", "critical_value"])
    return finish(shape.out(shape.decide(out), keys), eager)


def _opened(
    data: IntoFrame,
    func: str,
    metric: str,
    roles: tuple[str | None, str | None, Keys],
    higher_is_better: bool | None,
    alpha: float,
    digits: int | None,
    shape: Shape,
    complete: bool = True,
) -> tuple[pl.LazyFrame, bool, list[str], bool, str, str, float, int | None]:
    """``cell, eager, keys, hib, block, learner, alpha, digits`` of a rank test: the roles
    resolved, ``alpha`` and ``digits`` checked, the ranked cells of :func:`ranked_cells`."""
    block, learner, by = roles
    block, learner = resolve_roles(data, func, [by, metric], block=block, learner=learner)
    alpha = check_alpha(alpha, func)
    digits = check_digits(digits, func)
    given = RankInput(data, func, metric, block, learner, by, higher_is_better)
    cell, eager, keys, hib, _ = ranked_cells(given, shape.columns, complete=complete, digits=digits)
    return cell, eager, keys, hib, block, learner, alpha, digits


# ---------------------------------------------------------------------------------------------
# per-learner scores of each test (the post-hoc z statistics compare them)
# ---------------------------------------------------------------------------------------------
def _aligned(
    cell: pl.LazyFrame, keys: list[str], block: str, hib: bool, digits: int | None
) -> pl.LazyFrame:
    """``aligned_rank``: the rank of x_ij − mean_i among all k·N aligned values of the group
    (rounded to ``digits`` significant digits of the block's k_i · max |x|)."""
    within = [*keys, block]
    # k_i · x_ij − Σ_i x: the aligned value times k_i (same ranking); the sum over sorted
    # values does not depend on the row order
    k_i = pl.len().over(within).cast(pl.Float64)
    scaled = pl.col("__value") * k_i - pl.col("__value").sort().sum().over(within)
    size = k_i * pl.col("__value").abs().max().over(within)
    aligned = cell.with_columns(rounded(scaled, digits, size).alias("__aligned"))
    rank = over_keys(pl.col("__aligned").rank("average", descending=hib), keys)
    return aligned.with_columns(rank.cast(pl.Float64).alias("aligned_rank"))


def _quade_weights(
    cell: pl.LazyFrame, keys: list[str], block: str, digits: int | None
) -> pl.LazyFrame:
    """``__q``: Quade's block weight Q_i, the rank of the block's range max − min among the
    group's blocks (ties share the mean rank; the range rounded to ``digits`` significant
    digits of max |x|)."""
    spread = pl.col("__value").max() - pl.col("__value").min()
    ranges = cell.group_by(*keys, block).agg(
        rounded(spread, digits, pl.col("__value").abs().max()).alias("__range")
    )
    ranges = ranges.with_columns(
        over_keys(pl.col("__range").rank("average"), keys).cast(pl.Float64).alias("__q")
    )
    return cell.join(ranges.select(*keys, block, "__q"), on=[*keys, block], nulls_equal=True)


def learner_scores(
    cell: pl.LazyFrame,
    test: str,
    keys: list[str],
    block: str,
    learner: str,
    hib: bool,
    digits: int | None = RANK_DIGITS,
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Per learner: ``*keys, <learner>, average_rank, __score`` and per group ``*keys,
    n_learners, n_blocks, __se`` (None for Skillings–Mack, whose standard error depends on the
    pair) such that z = (score_a − score_b) / se."""
    design = group_design(cell, keys, block, learner)
    k = pl.col("n_learners").cast(pl.Float64)
    n = pl.col("n_blocks").cast(pl.Float64)
    if test == "friedman":
        per = cell.group_by(*keys, learner).agg(pl.col("rank").mean().alias("average_rank"))
        per = per.with_columns(pl.col("average_rank").alias("__score"))
        se = (k * (k + 1.0) / (6.0 * n)).sqrt()
    elif test == "friedman_aligned_ranks":
        aligned = _aligned(cell, keys, block, hib, digits)
        per = aligned.group_by(*keys, learner).agg(
            pl.col("aligned_rank").mean().alias("average_rank")
        )
        per = per.with_columns(pl.col("average_rank").alias("__score"))
        # W = Σ_i Σ_j (r_ij − r̄_i)², the within-block sum of squares of the aligned ranks (the
        # denominator of T); Var(R̄_a − R̄_b) = 2W / ((k − 1) N²) over within-block permutations
        by_block = aligned.group_by(*keys, block).agg(
            (pl.col("aligned_rank") ** 2).sum().alias("__ss"),
            pl.col("aligned_rank").sum().alias("__s"),
            pl.len().cast(pl.Float64).alias("__c"),
        )
        within = (pl.col("__ss") - pl.col("__s") ** 2 / pl.col("__c")).sum().alias("__spread")
        design = join_on_keys(design, agg_by_keys(by_block, keys, [within]), keys)
        variance = 2.0 * pl.col("__spread") / (k - 1.0)
        se = pl.when(variance > 0).then(variance.sqrt() / n)
    elif test == "quade":
        weighted = _quade_weights(cell, keys, block, digits)
        k_i = pl.len().over([*keys, block]).cast(pl.Float64)
        weighted = weighted.with_columns(
            (pl.col("__q") * (pl.col("rank") - (k_i + 1.0) / 2.0)).alias("__s")
        )
        per = weighted.group_by(*keys, learner).agg(
            (pl.col("__q") * pl.col("rank")).sum().alias("__w")
        )
        per = join_on_keys(per, design.select(*keys, "n_blocks"), keys).with_columns(
            (pl.col("__w") / (n * (n + 1.0) / 2.0)).alias("average_rank")
        )
        per = per.with_columns(pl.col("average_rank").alias("__score")).drop("__w", "n_blocks")
        # Quade's A = Σ S_ij²; Var(W_a − W_b) = 2A / (k − 1) over within-block permutations
        spread = agg_by_keys(weighted, keys, [(pl.col("__s") ** 2).sum().alias("__spread")])
        design = join_on_keys(design, spread, keys)
        variance = 2.0 * pl.col("__spread") / (k - 1.0)
        se = pl.when(variance > 0).then(variance.sqrt() / (n * (n + 1.0) / 2.0))
    else:  # skillings_mack
        per = _sm_scores(cell, keys, block, learner).select(
            *keys, learner, "average_rank", pl.col("__adjusted").alias("__score")
        )
        return per, design.with_columns(pl.lit(None, dtype=pl.Float64).alias("__se"))
    return per.select(*keys, learner, "average_rank", "__score"), design.with_columns(
        se.alias("__se")
    )


def _sm_scores(cell: pl.LazyFrame, keys: list[str], block: str, learner: str) -> pl.LazyFrame:
    """Per learner: ``average_rank`` (mean within-block rank over the blocks where it has a
    value) and ``__adjusted`` = A_j = Σ_i √(12/(k_i + 1)) (r_ij − (k_i + 1)/2)."""
    k_i = pl.len().over([*keys, block]).cast(pl.Float64)
    term = (12.0 / (k_i + 1.0)).sqrt() * (pl.col("rank") - (k_i + 1.0) / 2.0)
    return (
        cell.with_columns(term.alias("__term"))
        .group_by(*keys, learner)
        .agg(
            pl.col("rank").mean().alias("average_rank"), pl.col("__term").sum().alias("__adjusted")
        )
    )


def _sm_together(cell: pl.LazyFrame, keys: list[str], block: str, learner: str) -> pl.LazyFrame:
    """``*keys, __a, __b, __together``: λ_ab, the blocks where both a and b have a value
    (a ≠ b, both orders)."""
    both = block_pairs(cell, keys, block, {learner: ("__a", "__b")}).filter(
        pl.col("__a") != pl.col("__b")
    )
    return both.group_by(*keys, "__a", "__b").agg(pl.len().cast(pl.Float64).alias("__together"))


# ---------------------------------------------------------------------------------------------
# Friedman
# ---------------------------------------------------------------------------------------------
#: Demšar (2006, §3.2.2): the χ² approximation of the Friedman statistic is adequate "as a rule
#: of thumb" for N > 10 blocks (and k > 5 learners).
CHI2_MIN_BLOCKS = 10


def _friedman_scipy(
    chi2: np.ndarray,
    statistic: np.ndarray,
    df1: np.ndarray,
    df2: np.ndarray,
    n_blocks: np.ndarray,
    alpha: np.ndarray,
) -> dict[str, np.ndarray]:
    from scipy import stats

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
    >>> df = fe.datasets.block_error_rates()
    >>> with warnings.catch_warnings(action="ignore"):  # N = 4: too few for the χ² form
    ...     out = fe.friedman(df, "error_rate")
    >>> out.select("chi2", "statistic", "df1", "df2").row(0)
    (4.5, 3.857142857142857, 2, 6)
    """
    block, learner = resolve_roles(data, "friedman", [by, metric], block=block, learner=learner)
    func = "friedman"
    alpha = check_alpha(alpha, func)
    ranks, eager, keys, _, _ = ranked_cells(
        RankInput(data, func, metric, block, learner, by, higher_is_better),
        FRIEDMAN.columns,
        digits=digits,
    )
    sums = rank_sums(ranks, keys, learner)
    aggs = [
        pl.len().cast(pl.Int64).alias("n_learners"),
        pl.col("n_blocks").max().alias("n_blocks"),
        (pl.col("__rank_sum") ** 2).sum().alias("__s"),
    ]
    out = check_design(per_group(sums, keys, aggs, "n_learners"), func, keys, block)
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
    return finish(FRIEDMAN.out(FRIEDMAN.decide(out), keys), eager)


# ---------------------------------------------------------------------------------------------
# Skillings–Mack
# ---------------------------------------------------------------------------------------------
def _quadratic_forms(series: pl.Series, **_: Any) -> pl.Series:
    """A' Σ⁺ A and rank(Σ) per row of a struct {__A: list, __S: list (row-major k × k)}; the
    rows (groups) of different k are zero-padded to one batch (a zero block leaves the
    pseudo-inverse of the rest unchanged)."""
    a_list = series.struct.field("__A")
    s_list = series.struct.field("__S")
    lens = a_list.list.len().cast(pl.Int64).to_numpy()
    groups = lens.size
    if groups == 0:
        return pl.DataFrame(
            {"__sm": [], "__rank": []}, schema={"__sm": pl.Float64, "__rank": pl.Float64}
        ).to_struct("__qf")
    size = int(lens.max())
    a_flat = a_list.explode().cast(pl.Float64).to_numpy()
    s_flat = s_list.explode().cast(pl.Float64).to_numpy()
    row = np.repeat(np.arange(groups), lens)
    col = np.arange(a_flat.size) - np.repeat(np.cumsum(lens) - lens, lens)
    a = np.zeros((groups, size))
    a[row, col] = a_flat
    squares = lens * lens
    s_row = np.repeat(np.arange(groups), squares)
    pos = np.arange(s_flat.size) - np.repeat(np.cumsum(squares) - squares, squares)
    width = np.repeat(lens, squares)
    sigma = np.zeros((groups, size, size))
    sigma[s_row, pos // width, pos % width] = s_flat
    inverse = np.linalg.pinv(sigma, hermitian=True)
    form = np.einsum("gi,gij,gj->g", a, inverse, a)
    rank = np.linalg.matrix_rank(sigma, hermitian=True).astype(np.float64)
    out = pl.DataFrame({"__sm": form, "__rank": rank})
    return out.to_struct("__qf")


@frame_function
def skillings_mack(
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
    """Skillings–Mack test of "all learners perform the same", with missing results allowed.

    Friedman's test needs every learner on every block; a failed run leaves a hole. Skillings
    and Mack (1981) rank the values each block does have (k_i of them, ranks 1…k_i, 1 = best),
    and weigh each block by √(12/(k_i + 1)):

        A_j = Σ_i √(12 / (k_i + 1)) · (r_ij − (k_i + 1)/2)      (a missing cell adds 0)

        SM = A' Σ⁻ A,     Σ_jj = Σ_{l≠j} λ_jl,   Σ_jl = −λ_jl

    where λ_jl counts the blocks on which both j and l have a value and Σ⁻ is a generalized
    inverse (the Moore–Penrose one here). Σ is the covariance of A under the hypothesis; SM
    follows a χ² distribution with k − 1 degrees of freedom (the rank of Σ). On a complete
    table SM equals Friedman's τ_χ² (eq 2.34) exactly.

    Parameters
    ----------
    data
        Long frame of metric values (DataFrame or LazyFrame; pandas / pyarrow are converted):
        at most one row per block × learner (× ``by`` group); absent rows are missing results.
    metric
        Column with the metric values (finite; a missing result is an absent row, not a null).
    block, learner
        Columns naming the block (data set) and the learner.
        ``None``: the column with a common name of that role (``block``, ``dataset``…;
        ``learner``, ``model``…), as in :func:`friedman`.
    by
        Key column(s): one test per group (e.g. one per metric of a long metrics frame).
    higher_is_better
        Direction of ``metric`` (only sets which learner gets rank 1; the statistic does not
        depend on it). Default: the registered measure of that name; required otherwise.
    alpha
        Significance level α in (0, 1).
    digits
        Significant digits the values are rounded to before they are ranked (default 12;
        ``None``: as they are), as in :func:`frameeval.rank_table`.

    Returns
    -------
    Same kind as ``data`` with one row per group, sorted by keys: ``*by, n_learners, n_blocks,
    n_missing, statistic, df, p_value, critical_value, alpha, reject``: k, N and the number of
    missing cells k·N − (cells present) (Int64); ``statistic`` = SM; ``df`` = rank of Σ (k − 1
    when the blocks connect all learners; Int64); ``p_value`` = P(χ²_df > SM);
    ``critical_value`` = the upper-α quantile; ``reject`` = SM > critical_value.

    Notes
    -----
    Ties within a block share the mean rank (no tie correction, like :func:`friedman`'s eq 2.34).
    A block with a single value contributes nothing. Needs k ≥ 2 learners and N ≥ 2 blocks
    per group (``InsufficientDataError``). Post-hoc comparisons:
    ``rank_post_hoc(..., test="skillings_mack")``, z_ab = (A_a − A_b) / √(Σ_aa + Σ_bb − 2Σ_ab),
    the same covariance, with Holm's, Shaffer's or Bergmann–Hommel's correction.

    References
    ----------
    Skillings & Mack (1981), "On the use of a Friedman-type statistic in balanced and
    unbalanced block designs", Technometrics 23(2). Chatfield & Mander (2009), "The
    Skillings–Mack test (Friedman test when there are missing data)", Stata Journal 9(2).

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> fe.skillings_mack(df, "error_rate").select("n_missing", "statistic", "df").row(0)
    (0, 4.5, 2)
    >>> gap = df.filter(~((pl.col("block") == "4") & (pl.col("learner") == "C")))
    >>> round(fe.skillings_mack(gap, "error_rate")["statistic"][0], 4)
    3.3571
    """
    func, roles, hib = "skillings_mack", (block, learner, by), higher_is_better
    opened = _opened(data, func, metric, roles, hib, alpha, digits, SKILLINGS_MACK, False)
    cell, eager, keys, _, block, learner, alpha, digits = opened
    design = check_design(group_design(cell, keys, block, learner), func, keys, block)
    scores = _sm_scores(cell, keys, block, learner).with_columns(
        over_keys(pl.col(learner).rank("ordinal"), keys).cast(pl.Int64).alias("__i")
    )
    together = _sm_together(cell, keys, block, learner)
    left = scores.select(*keys, pl.col(learner).alias("__a"), pl.col("__i").alias("__ia"))
    right = scores.select(*keys, pl.col(learner).alias("__b"), pl.col("__i").alias("__ib"))
    grid = (
        left.join(right, on=keys, how="inner", nulls_equal=True)
        if keys
        else left.join(right, how="cross")
    )
    grid = grid.join(together, on=[*keys, "__a", "__b"], how="left", nulls_equal=True)
    lam = pl.col("__together").fill_null(0.0)
    diagonal = over_keys(lam.sum(), [*keys, "__a"])
    grid = grid.with_columns(
        pl.when(pl.col("__a") == pl.col("__b")).then(diagonal).otherwise(-lam).alias("__sigma")
    )
    vector = pl.col("__adjusted").sort_by("__i")
    matrix = pl.col("__sigma").sort_by(["__ia", "__ib"])
    aggs_a = [(vector if keys else vector.implode()).alias("__A")]
    aggs_s = [(matrix if keys else matrix.implode()).alias("__S")]
    vectors = agg_by_keys(scores, keys, aggs_a)
    matrices = agg_by_keys(grid, keys, aggs_s)
    stats_ = join_on_keys(join_on_keys(design, vectors, keys), matrices, keys)
    form = pl.struct("__A", "__S").map_batches(
        _quadratic_forms, return_dtype=pl.Struct({"__sm": pl.Float64, "__rank": pl.Float64})
    )
    stats_ = stats_.with_columns(form.alias("__qf")).unnest("__qf")
    stats_ = stats_.with_columns(
        (pl.col("n_learners") * pl.col("n_blocks") - pl.col("__cells")).alias("n_missing"),
        pl.col("__sm").alias("statistic"),
        pl.col("__rank").round(0).cast(pl.Int64).alias("df"),
    )
    return _decided(stats_, SKILLINGS_MACK, keys, eager, _chi2_scipy, alpha)


# ---------------------------------------------------------------------------------------------
# Friedman aligned ranks
# ---------------------------------------------------------------------------------------------
@frame_function
def friedman_aligned_ranks(
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
    """Friedman's aligned-ranks test (Hodges & Lehmann 1962) of "all learners perform the same".

    Friedman's test ranks within each block, so it compares learners only inside a block. The
    aligned-ranks test first removes each block's location — x̂_ij = x_ij − mean_j x_ij, the
    "aligned observation" — and then ranks all k·N aligned values of the group together (1 =
    best). With R̂_j the rank total of learner j and R̂_i that of block i (García et al. 2010,
    eq 3):

        T = (k − 1) [Σ_j R̂_j² − (k N² / 4)(k N + 1)²]
            / ([k N (k N + 1)(2 k N + 1)] / 6 − (1/k) Σ_i R̂_i²)

    compared with a χ² distribution with k − 1 degrees of freedom. Blocks are comparable
    after alignment, which makes the test more powerful than Friedman's when there are few
    learners (k ≤ 4 or 5).

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`frameeval.friedman` (a complete block × learner table per group).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with one row per group, sorted by keys: ``*by, n_learners, n_blocks,
    statistic, df, p_value, critical_value, alpha, reject``: k and N (Int64); ``statistic`` =
    T; ``df`` = k − 1 (Int64); ``p_value`` = P(χ²_{k−1} > T); ``critical_value`` = the upper-α
    quantile; ``reject`` = T > critical_value.

    Notes
    -----
    Tied aligned values share the mean rank; the aligned values k·x_ij − Σ_j x_ij are ranked
    rounded to ``digits`` significant digits of the block's k · max |x_ij|, so that aligned
    values equal in decimal arithmetic tie (docs/compare.md, "Ties"). The formula has no
    tie correction: when every block is constant all aligned values tie and T = 0.
    (``statistic`` would be null if the denominator were 0.) Post-hoc comparisons:
    ``rank_post_hoc(..., test="friedman_aligned_ranks")`` compares the average aligned ranks
    R̂_j/N with z = (R̂_a − R̂_b) / √(2W/(k − 1)), W = Σ_ij (r_ij − r̄_i)² the denominator
    above (the exact variance of R̂_a − R̂_b over within-block permutations; see
    docs/many-learners.md for why not García et al.'s √(k(N + 1)/6)).

    References
    ----------
    Hodges & Lehmann (1962), "Rank methods for combination of independent experiments in
    analysis of variance", Annals of Mathematical Statistics 33. García, Fernández, Luengo &
    Herrera (2010), "Advanced nonparametric tests for multiple comparisons in the design of
    experiments in computational intelligence and data mining", Information Sciences 180(10),
    §3.2.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> out = fe.friedman_aligned_ranks(df, "error_rate")
    >>> out.select("n_learners", "n_blocks", "df").row(0), round(out["statistic"][0], 4)
    ((3, 4, 2), 4.028)
    """
    func, roles = "friedman_aligned_ranks", (block, learner, by)
    opened = _opened(data, func, metric, roles, higher_is_better, alpha, digits, ALIGNED_RANKS)
    cell, eager, keys, hib, block, learner, alpha, digits = opened
    aligned = _aligned(cell, keys, block, hib, digits)
    learners = aligned.group_by(*keys, learner).agg(pl.col("aligned_rank").sum().alias("__r"))
    blocks = aligned.group_by(*keys, block).agg(pl.col("aligned_rank").sum().alias("__r"))
    design = check_design(group_design(cell, keys, block, learner), func, keys, block)
    sums_l = agg_by_keys(learners, keys, [(pl.col("__r") ** 2).sum().alias("__rl")])
    sums_b = agg_by_keys(blocks, keys, [(pl.col("__r") ** 2).sum().alias("__rb")])
    stats_ = join_on_keys(join_on_keys(design, sums_l, keys), sums_b, keys)
    k = pl.col("n_learners").cast(pl.Float64)
    n = pl.col("n_blocks").cast(pl.Float64)
    kn = k * n
    numerator = (k - 1.0) * k * (pl.col("__rl") - k * n * n / 4.0 * (kn + 1.0) ** 2)
    denominator = k * kn * (kn + 1.0) * (2.0 * kn + 1.0) / 6.0 - pl.col("__rb")
    stats_ = stats_.with_columns(
        pl.when(denominator != 0).then(numerator / denominator).alias("statistic"),
        (pl.col("n_learners") - 1).alias("df"),
    )
    return _decided(stats_, ALIGNED_RANKS, keys, eager, _chi2_scipy, alpha)


# ---------------------------------------------------------------------------------------------
# Quade
# ---------------------------------------------------------------------------------------------
@frame_function
def quade(
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
    """Quade's test (1979) of "all learners perform the same": Friedman's ranks, weighted by
    how much the block separates the learners.

    Rank the learners within each block (r_ij, 1 = best) and rank the blocks by their range
    max_j x_ij − min_j x_ij (Q_i, 1 = smallest range; ties share the mean rank). Then
    (García et al. 2010, §3.3)

        S_ij = Q_i (r_ij − (k + 1)/2),   S_j = Σ_i S_ij,   A = Σ_ij S_ij²,   B = Σ_j S_j² / N

        T = (N − 1) B / (A − B)

    compared with an F distribution with k − 1 and (k − 1)(N − 1) degrees of freedom. A
    block where the learners differ a lot counts more than one where they nearly tie.

    Parameters
    ----------
    data, metric, block, learner, by, higher_is_better, digits
        As in :func:`frameeval.friedman` (a complete block × learner table per group).
    alpha
        Significance level α in (0, 1).

    Returns
    -------
    Same kind as ``data`` with one row per group, sorted by keys: ``*by, n_learners, n_blocks,
    statistic, df1, df2, p_value, critical_value, alpha, reject``: k and N (Int64);
    ``statistic`` = T; ``df1`` = k − 1, ``df2`` = (k − 1)(N − 1) (Int64); ``p_value`` =
    P(F > T); ``critical_value`` = the upper-α quantile of F(df1, df2); ``reject`` =
    T > critical_value.

    Notes
    -----
    The block ranges are ranked rounded to ``digits`` significant digits of the block's
    max |x_ij|, so ranges equal as decimals tie (docs/compare.md, "Ties").
    The metric values' differences matter here (through the block ranges), unlike in
    Friedman's test, so the metric must be commensurable across blocks at least in its
    ordering of ranges. When A = B (every weighted block ranks the learners identically)
    ``statistic`` is +inf (``p_value`` 0), and null when also B = 0. Post-hoc comparisons:
    ``rank_post_hoc(..., test="quade")`` compares T_j = W_j / (N(N + 1)/2), W_j = Σ_i Q_i r_ij
    (reported as ``average_rank``, a Q-weighted mean rank), with z = (W_a − W_b) / √(2A/(k − 1)),
    the exact variance over within-block permutations; without ties this is García et al.'s z
    with variance k(k + 1)(2N + 1)/(9N(N + 1)) for T_a − T_b instead of their printed
    k(k + 1)(2N + 1)(k − 1)/(18N(N + 1)), which is right only for k = 3 (docs/many-learners.md).

    References
    ----------
    Quade (1979), "Using weighted rankings in the analysis of complete blocks with additive
    block effects", JASA 74(367). García, Fernández, Luengo & Herrera (2010), Information
    Sciences 180(10), §3.3. Conover (1999), *Practical Nonparametric Statistics*, §5.8.

    Examples
    --------
    >>> df = fe.datasets.block_error_rates()
    >>> fe.quade(df, "error_rate").select("statistic", "df1", "df2").row(0)
    (3.857142857142857, 2, 6)
    """
    func, roles = "quade", (block, learner, by)
    opened = _opened(data, func, metric, roles, higher_is_better, alpha, digits, QUADE)
    cell, eager, keys, _, block, learner, alpha, digits = opened
    design = check_design(group_design(cell, keys, block, learner), func, keys, block)
    k_expr = pl.len().over([*keys, block]).cast(pl.Float64)
    weighted = _quade_weights(cell, keys, block, digits).with_columns(
        (pl.col("__q") * (pl.col("rank") - (k_expr + 1.0) / 2.0)).alias("__s")
    )
    per_learner = weighted.group_by(*keys, learner).agg(pl.col("__s").sum().alias("__sj"))
    total_a = agg_by_keys(weighted, keys, [(pl.col("__s") ** 2).sum().alias("__a")])
    total_b = agg_by_keys(per_learner, keys, [(pl.col("__sj") ** 2).sum().alias("__b")])
    stats_ = join_on_keys(join_on_keys(design, total_a, keys), total_b, keys)
    n = pl.col("n_blocks").cast(pl.Float64)
    # T = (N − 1) B / (A − B) with B = Σ S_j² / N, as (N − 1) Σ S_j² / (N A − Σ S_j²): the
    # S_ij are multiples of 1/4, so the difference is exact
    den = n * pl.col("__a") - pl.col("__b")
    stats_ = stats_.with_columns(
        pl.when(den > 0)
        .then((n - 1.0) * pl.col("__b") / den)
        .when(pl.col("__b") > 0)
        .then(pl.lit(float("inf")))
        .alias("statistic"),
        (pl.col("n_learners") - 1).alias("df1"),
        ((pl.col("n_learners") - 1) * (pl.col("n_blocks") - 1)).alias("df2"),
    )
    return _decided(stats_, QUADE, keys, eager, f_values, alpha)


# ---------------------------------------------------------------------------------------------
# repeated-measures ANOVA (the automatic comparison's test of normal, spherical data)
# ---------------------------------------------------------------------------------------------
def rm_anova(
    cells: pl.DataFrame, keys: list[str], block: str, learner: str, value: str, alpha: float
) -> pl.DataFrame:
    """Repeated-measures ANOVA with one within factor, the learner, on a collected complete
    block × learner table: ``*keys, n_learners, n_blocks, statistic, df1, df2, p_value,
    critical_value, alpha, reject`` per group (and ``__mse``, the error mean square Tukey's
    HSD reads; :func:`frameeval.compare.post_hoc.tukey_hsd`).

    With x_ij the value of learner j on block i, G the grand mean, m_j the learner means and
    b_i the block means: SS_learner = N Σ_j (m_j − G)², SS_block = k Σ_i (b_i − G)²,
    SS_error = Σ_ij (x_ij − G)² − SS_learner − SS_block, and
    F = (SS_learner / (k − 1)) / (SS_error / ((k − 1)(N − 1))) ~ F(k − 1, (k − 1)(N − 1))
    (statsmodels' ``AnovaRM``); ``reject`` = F > critical_value.
    """
    from scipy import stats

    x = pl.col(value)
    data = cells.with_columns(
        over_keys(x.mean(), keys).alias("__g"),
        x.mean().over([*keys, learner]).alias("__m"),
        x.mean().over([*keys, block]).alias("__bm"),
    )
    aggs = [
        pl.col(learner).n_unique().cast(pl.Int64).alias("n_learners"),
        pl.col(block).n_unique().cast(pl.Int64).alias("n_blocks"),
        ((x - pl.col("__g")) ** 2).sum().alias("__sst"),
        ((pl.col("__m") - pl.col("__g")) ** 2).sum().alias("__ssl"),
        ((pl.col("__bm") - pl.col("__g")) ** 2).sum().alias("__ssb"),
    ]
    g = data.group_by(keys).agg(aggs) if keys else data.select(aggs)
    k = pl.col("n_learners").cast(pl.Float64)
    n = pl.col("n_blocks").cast(pl.Float64)
    sse = (pl.col("__sst") - pl.col("__ssl") - pl.col("__ssb")).clip(lower_bound=0.0)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    mse = sse / df2
    f = (
        pl.when(mse > 1e-12 * (pl.col("__sst") + 1e-300) / df2)
        .then(pl.col("__ssl") / df1 / mse)
        .when(pl.col("__ssl") > 0)
        .then(float("inf"))
    )
    g = g.with_columns(f.alias("statistic"), df1.alias("df1"), df2.alias("df2"), mse.alias("__mse"))
    stat = g.get_column("statistic").to_numpy().astype(float)
    d1, d2 = g.get_column("df1").to_numpy(), g.get_column("df2").to_numpy()
    with np.errstate(all="ignore"):
        p = stats.f.sf(stat, d1, d2)
        crit = stats.f.isf(alpha, d1, d2)
    out = g.with_columns(
        pl.Series("p_value", p).fill_nan(None),
        pl.Series("critical_value", crit).fill_nan(None),
        pl.lit(alpha).alias("alpha"),
    )
    return RM_ANOVA.decide(out)


# ---------------------------------------------------------------------------------------------
# pairwise z statistics (the input of the post-hoc corrections)
# ---------------------------------------------------------------------------------------------
def _z_scipy(statistic: np.ndarray) -> dict[str, np.ndarray]:
    from scipy import stats

    return {"p_value": 2.0 * stats.norm.sf(statistic)}


def _sm_pair_se(
    pairs: pl.LazyFrame, cell: pl.LazyFrame, keys: list[str], block: str, learner: str
) -> pl.LazyFrame:
    """``__se`` of the Skillings–Mack z of each pair: √(Σ_l λ_al + Σ_l λ_bl + 2 λ_ab)."""
    together = _sm_together(cell, keys, block, learner)
    var = agg_by_keys(
        together.rename({"__a": "__v"}), [*keys, "__v"], [pl.col("__together").sum().alias("__var")]
    )
    pairs = (
        pairs.join(
            var.rename({"__v": "a", "__var": "__var_a"}),
            on=[*keys, "a"],
            how="left",
            nulls_equal=True,
        )
        .join(
            var.rename({"__v": "b", "__var": "__var_b"}),
            on=[*keys, "b"],
            how="left",
            nulls_equal=True,
        )
        .join(
            together.rename({"__a": "a", "__b": "b"}),
            on=[*keys, "a", "b"],
            how="left",
            nulls_equal=True,
        )
    )
    variance = (
        pl.col("__var_a").fill_null(0.0)
        + pl.col("__var_b").fill_null(0.0)
        + 2.0 * pl.col("__together").fill_null(0.0)
    )
    pairs = pairs.with_columns(pl.when(variance > 0).then(variance.sqrt()).alias("__se"))
    return pairs


def pair_statistics(
    given: RankInput,
    test: str,
    control: Any,
    outputs: Sequence[str],
    digits: int | None = RANK_DIGITS,
) -> tuple[pl.LazyFrame, bool, list[str]]:
    """``*keys, a, b, n_learners, __ia, __ib, average_rank_a, average_rank_b, statistic,
    p_value``: one row per pair (a < b) or per learner against ``control`` (b = control), with
    statistic = |z| of ``test``'s rank scores and its two-sided normal p-value. ``__ia`` and
    ``__ib`` are the learners' 0-based positions in sort order within the group."""
    data, func, _, block, learner, by, _ = given
    if control is not None:
        _, _, _, schema = open_frame(data, func, by)
        check_learner_value(schema, func, learner, control, "control")
    complete = test != "skillings_mack"
    cell, eager, keys, hib, _ = ranked_cells(given, outputs, complete=complete, digits=digits)
    per, design = learner_scores(cell, test, keys, block, learner, hib, digits)
    design = check_design(design, func, keys, block)
    if control is not None:
        design = control_present(design, per, keys, func, learner, control)
    per = per.with_columns(
        (over_keys(pl.col(learner).rank("ordinal"), keys).cast(pl.Int64) - 1).alias("__i")
    )
    sides = {
        learner: ("a", "b"),
        "average_rank": ("average_rank_a", "average_rank_b"),
        "__score": ("__sa", "__sb"),
        "__i": ("__ia", "__ib"),
    }
    pairs = learner_pairs(per, keys, sides, control)
    pairs = join_on_keys(pairs, design.select(*keys, "n_learners", "__se"), keys)
    if test == "skillings_mack":
        pairs = _sm_pair_se(pairs, cell, keys, block, learner)
    z = (pl.col("__sa") - pl.col("__sb")).abs() / pl.col("__se")
    pairs = pairs.with_columns(z.alias("statistic"))
    pairs = scipy_step(pairs, _z_scipy, ["statistic"], ["p_value"])
    columns = ["a", "b", "n_learners", "__ia", "__ib", "average_rank_a", "average_rank_b"]
    return pairs.select(*keys, *columns, "statistic", "p_value"), eager, keys
